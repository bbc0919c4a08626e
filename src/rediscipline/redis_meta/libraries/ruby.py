"""Key families of Ruby libraries that share Redis with Python services: Sidekiq, Resque and Rails.

Sidekiq writes most of its keys without a prefix (`queues`, `schedule`, `queue:default`); before 7.0 many
deployments added one with redis-namespace, conventionally `sidekiq:`. Only the unprefixed keys that an
application is unlikely to write are rows, and the bare ones only with their Redis type: `queue:{name}` and the
process hash `<host>:<pid>:<nonce>` are left out (an application's keys take those shapes). Resque always
namespaces with `resque:` (redis-namespace, `Resque.redis = "host:port/namespace"`). Shapes were read from
sidekiq 8.1 and the 6.x/7.x tags, resque 3.0, rails main and redis-store's session stores.
"""

from __future__ import annotations

from rediscipline.redis_meta.libraries.schema import KeyFamily

_SIDEKIQ = "https://github.com/sidekiq/sidekiq/blob/main/lib/sidekiq/"
_RESQUE = "https://github.com/resque/resque/blob/master/lib/resque/data_store.rb"
_SIDEKIQ_QUEUE_ADVICE = (
    "Sidekiq keeps this for the life of the deployment; it is bounded by the jobs in flight, not by a TTL.",
    "Sidekiq 在整个部署期间保留此键；其大小由待处理的任务决定，而不是 TTL。",
)

RUBY_FAMILIES: tuple[KeyFamily, ...] = (
    KeyFamily(
        id="sidekiq.queues",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=2.0",
        shapes=("queues", "sidekiq:queues"),
        types=frozenset({"set"}),
        purpose=("The names of every queue a client has pushed to.", "客户端推送过任务的所有队列名称。"),
        persists=True,
        setting="",
        advice=_SIDEKIQ_QUEUE_ADVICE,
        examples=("queues", "sidekiq:queues"),
        docs=_SIDEKIQ + "client.rb",
        type_required=True,
    ),
    KeyFamily(
        id="sidekiq.queue",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=2.0,<7",
        shapes=("sidekiq:queue:{name}",),
        types=frozenset({"list"}),
        purpose=(
            "The jobs waiting in one queue, under the redis-namespace prefix `sidekiq:`.",
            "在 redis-namespace 前缀 `sidekiq:` 下，一个队列中等待的任务。",
        ),
        persists=True,
        setting="",
        advice=_SIDEKIQ_QUEUE_ADVICE,
        examples=("sidekiq:queue:default", "sidekiq:queue:mailers"),
        docs=_SIDEKIQ + "client.rb",
    ),
    KeyFamily(
        id="sidekiq.schedule",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=2.0",
        shapes=("schedule", "sidekiq:schedule"),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs scheduled with perform_in/perform_at, scored by the time they become due.",
            "用 perform_in/perform_at 定时的任务，按到期时间排序。",
        ),
        persists=True,
        setting="",
        advice=(
            "Entries leave the set when they become due; its size is the number of future jobs.",
            "条目到期后即离开该集合；其大小就是未来待执行任务的数量。",
        ),
        examples=("schedule", "sidekiq:schedule"),
        docs=_SIDEKIQ + "client.rb",
        type_required=True,
    ),
    KeyFamily(
        id="sidekiq.retry",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=2.0",
        shapes=("retry", "sidekiq:retry"),
        types=frozenset({"zset"}),
        purpose=(
            "Failed jobs waiting for their next retry, scored by the retry time.",
            "等待下次重试的失败任务，按重试时间排序。",
        ),
        persists=True,
        setting="retry",
        advice=(
            "The job option sidekiq_options retry: N bounds how long a job stays here (default 25 retries, about "
            "21 days); then it moves to the dead set.",
            "任务选项 sidekiq_options retry: N 决定任务在此停留多久（默认重试 25 次，约 21 天），之后进入 dead 集合。",
        ),
        examples=("retry", "sidekiq:retry"),
        docs=_SIDEKIQ + "job_retry.rb",
        type_required=True,
    ),
    KeyFamily(
        id="sidekiq.dead",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=3.0",
        shapes=("dead", "sidekiq:dead"),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs that ran out of retries (the Dead tab), kept for manual inspection.",
            "重试次数用尽的任务（Dead 页签），保留以便人工排查。",
        ),
        persists=True,
        setting="dead_max_jobs",
        advice=(
            "Sidekiq trims the set to dead_max_jobs (default 10000) and dead_timeout_in_seconds (default 180 "
            "days); lower them in the Sidekiq configuration.",
            "Sidekiq 按 dead_max_jobs（默认 10000）和 dead_timeout_in_seconds（默认 180 天）裁剪该集合；"
            "可在 Sidekiq 配置中调低。",
        ),
        examples=("dead", "sidekiq:dead"),
        docs=_SIDEKIQ + "config.rb",
        type_required=True,
    ),
    KeyFamily(
        id="sidekiq.processes",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=3.0",
        shapes=("processes", "sidekiq:processes"),
        types=frozenset({"set"}),
        purpose=(
            "The identities of the running Sidekiq processes (each has a heartbeat hash with a 60 s TTL).",
            "正在运行的 Sidekiq 进程标识（每个进程另有 TTL 为 60 秒的心跳哈希）。",
        ),
        persists=True,
        setting="",
        advice=(
            "Sidekiq prunes identities whose heartbeat expired; the set holds one member per live process.",
            "Sidekiq 会清理心跳已过期的进程标识；集合中每个存活进程一个成员。",
        ),
        examples=("processes", "sidekiq:processes"),
        docs=_SIDEKIQ + "launcher.rb",
        type_required=True,
    ),
    KeyFamily(
        id="sidekiq.process",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=3.0,<7",
        shapes=(
            "sidekiq:{name}:{int}:{hex}",
            "sidekiq:{name}:{int}:{hex}:work",
            "sidekiq:{name}:{int}:{hex}:workers",
            "sidekiq:{name}:{int}:{hex}-signals",
        ),
        types=frozenset({"hash", "list"}),
        purpose=(
            "A running process's heartbeat, its busy jobs and its signal list, under the `sidekiq:` namespace.",
            "在 `sidekiq:` 命名空间下，运行中进程的心跳、正在执行的任务和信号列表。",
        ),
        persists=False,
        setting="",
        advice=(
            "Sidekiq sets a 60 s TTL on each heartbeat; keys without one belong to a process killed mid-write.",
            "Sidekiq 为每次心跳设置 60 秒 TTL；没有 TTL 的键来自写入中途被杀死的进程。",
        ),
        examples=(
            "sidekiq:web-1.example.com:4242:0a1b2c3d4e5f",
            "sidekiq:web-1.example.com:4242:0a1b2c3d4e5f:work",
        ),
        docs=_SIDEKIQ + "launcher.rb",
    ),
    KeyFamily(
        id="sidekiq.work",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=3.0",
        shapes=("{name}:{int}:{hex}:work", "{name}:{int}:{hex}:workers", "{name}:{int}:{hex}-signals"),
        types=frozenset({"hash", "list"}),
        purpose=(
            "The jobs a process is running now (`:work`, `:workers` before 6.5) and its pending signals.",
            "某进程当前正在执行的任务（`:work`，6.5 之前为 `:workers`）及其待处理信号。",
        ),
        persists=False,
        setting="",
        advice=(
            "Sidekiq rewrites this every heartbeat with a 60 s TTL; it disappears when the process stops.",
            "Sidekiq 每次心跳重写此键并设置 60 秒 TTL；进程停止后即消失。",
        ),
        examples=("web-1.example.com:4242:0a1b2c3d4e5f:work", "web-1:4242:0a1b2c3d4e5f-signals"),
        docs=_SIDEKIQ + "launcher.rb",
    ),
    KeyFamily(
        id="sidekiq.stat",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=2.0",
        shapes=(
            "stat:processed",
            "stat:failed",
            "stat:processed:{date}",
            "stat:failed:{date}",
            "sidekiq:stat:processed",
            "sidekiq:stat:failed",
            "sidekiq:stat:processed:{date}",
            "sidekiq:stat:failed:{date}",
        ),
        types=frozenset({"string"}),
        purpose=(
            "Counters of processed and failed jobs, in total and per day (the Dashboard's history).",
            "已处理和失败任务的计数器，包括总数和每日数（Dashboard 的历史图表）。",
        ),
        persists=True,
        setting="",
        advice=(
            "Daily counters expire after 5 years (Sidekiq's STATS_TTL); the totals are kept on purpose.",
            "每日计数器 5 年后过期（Sidekiq 的 STATS_TTL）；总计数器是有意长期保留的。",
        ),
        examples=("stat:processed", "stat:failed:2025-02-14", "sidekiq:stat:processed:2025-02-14"),
        docs=_SIDEKIQ + "launcher.rb",
    ),
    KeyFamily(
        id="sidekiq.metrics",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=7.0",
        shapes=("j|{var}|{int}:{int}", "h|{rest}-{int}-{int}:{int}"),
        types=frozenset({"hash", "string"}),
        purpose=(
            "Job execution metrics per minute and per 10 minutes (`j|`), and per-class histograms (`h|`, 8.0+).",
            "每分钟和每 10 分钟的任务执行指标（`j|`），以及按任务类的直方图（`h|`，8.0 起）。",
        ),
        persists=False,
        setting="",
        advice=(
            "Sidekiq expires these after 8 hours (1-minute buckets and histograms) or 3 days (10-minute ones).",
            "Sidekiq 在 8 小时（1 分钟桶和直方图）或 3 天（10 分钟桶）后使其过期。",
        ),
        examples=("j|250214|8:43", "j|250214|8:4", "j|20250214|8:43", "h|HardJob-14-8:43"),
        docs=_SIDEKIQ + "metrics/tracking.rb",
    ),
    KeyFamily(
        id="sidekiq.deploy",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=7.0",
        shapes=("{date}-marks",),
        types=frozenset({"hash"}),
        purpose=(
            "Deploy marks shown on the Metrics page, one hash per day.",
            "Metrics 页面上显示的部署标记，每天一个哈希。",
        ),
        persists=False,
        setting="",
        advice=(
            "Sidekiq expires each day's marks after MARK_TTL (90 days).",
            "Sidekiq 在 MARK_TTL（90 天）后使每天的标记过期。",
        ),
        examples=("20250214-marks",),
        docs=_SIDEKIQ + "deploy.rb",
    ),
    KeyFamily(
        id="sidekiq.iteration",
        library="Sidekiq",
        ecosystem="ruby",
        versions=">=7.3",
        shapes=("it-{hex}",),
        types=frozenset({"hash"}),
        purpose=(
            "The cursor and state of an iterable job between interruptions, or its cancellation.",
            "可迭代任务在中断之间的游标与状态，或其取消标记。",
        ),
        persists=False,
        setting="",
        advice=(
            "Sidekiq expires the state 30 days after the job starts (Iterable::STATE_TTL) and deletes it when the "
            "job completes.",
            "Sidekiq 在任务开始 30 天后使状态过期（Iterable::STATE_TTL），任务完成时将其删除。",
        ),
        examples=("it-0123456789abcdef01234567",),
        docs=_SIDEKIQ + "job/iterable.rb",
    ),
    KeyFamily(
        id="resque.queues",
        library="Resque",
        ecosystem="ruby",
        versions=">=1.0",
        shapes=("resque:queues", "resque:queue:{name}"),
        types=frozenset({"set", "list"}),
        purpose=("The set of queue names and each queue's pending jobs.", "队列名称集合以及每个队列中待处理的任务。"),
        persists=True,
        setting="",
        advice=(
            "Queues empty as workers run; a growing queue needs workers, not a TTL.",
            "队列随 worker 运行而清空；持续增长的队列需要更多 worker，而不是 TTL。",
        ),
        examples=("resque:queues", "resque:queue:default"),
        docs=_RESQUE,
    ),
    KeyFamily(
        id="resque.workers",
        library="Resque",
        ecosystem="ruby",
        versions=">=1.0",
        shapes=(
            "resque:workers",
            "resque:workers:heartbeat",
            "resque:worker:{rest}",
            "resque:pruning_dead_workers_in_progress",
        ),
        types=frozenset({"set", "hash", "string"}),
        purpose=(
            "Registered workers (`host:pid:queues`), their heartbeats, start times and current jobs.",
            "已注册的 worker（`host:pid:queues`）及其心跳、启动时间和当前任务。",
        ),
        persists=True,
        setting="",
        advice=(
            "Resque removes a worker's keys when it stops and prunes dead workers by heartbeat; leftovers come "
            "from killed workers (Resque::Worker#prune_dead_workers).",
            "worker 停止时 Resque 会删除其键，并按心跳清理死掉的 worker；残留键来自被强制杀死的 worker"
            "(Resque::Worker#prune_dead_workers)。",
        ),
        examples=("resque:workers", "resque:worker:web-1:4242:high,low", "resque:worker:web-1:4242:high,low:started"),
        docs=_RESQUE,
    ),
    KeyFamily(
        id="resque.stat",
        library="Resque",
        ecosystem="ruby",
        versions=">=1.0",
        shapes=("resque:stat:{rest}",),
        types=frozenset({"string"}),
        purpose=(
            "Processed and failed counters, in total and per worker.",
            "已处理和失败任务的计数器，包括总数和每个 worker 的计数。",
        ),
        persists=True,
        setting="",
        advice=(
            "Per-worker counters are deleted when the worker unregisters; the totals are kept on purpose.",
            "worker 注销时会删除其计数器；总计数器是有意长期保留的。",
        ),
        examples=("resque:stat:processed", "resque:stat:failed:web-1:4242:high,low"),
        docs="https://github.com/resque/resque/blob/master/lib/resque/worker.rb",
    ),
    KeyFamily(
        id="resque.failed",
        library="Resque",
        ecosystem="ruby",
        versions=">=1.0",
        shapes=("resque:failed", "resque:failed_queues", "resque:{name}_failed"),
        types=frozenset({"list", "set"}),
        purpose=(
            "Failed jobs with their exception and backtrace (per queue with RedisMultiQueue).",
            "失败的任务及其异常和调用栈（使用 RedisMultiQueue 时按队列分开）。",
        ),
        persists=True,
        setting="Resque::Failure",
        advice=(
            "Resque keeps every failure until it is retried or cleared; clear old ones regularly "
            "(Resque::Failure.clear or remove_queue) since the list has no size limit.",
            "Resque 会保留每个失败任务直到被重试或清除；该列表没有大小上限，请定期清理"
            "（Resque::Failure.clear 或 remove_queue）。",
        ),
        examples=("resque:failed", "resque:failed_queues", "resque:mailers_failed"),
        docs="https://github.com/resque/resque/blob/master/lib/resque/failure/redis.rb",
    ),
    KeyFamily(
        id="rails.fragment_cache",
        library="Rails",
        ecosystem="ruby",
        versions=">=4.0",
        shapes=("views/{rest}",),
        types=frozenset({"string"}),
        purpose=(
            "View fragments cached with the `cache` helper (ActiveSupport::Cache::RedisCacheStore, no namespace).",
            "用 `cache` 辅助方法缓存的视图片段（ActiveSupport::Cache::RedisCacheStore，无命名空间）。",
        ),
        persists=False,
        setting="expires_in",
        advice=(
            "Give the cache store a default expires_in (config.cache_store = :redis_cache_store, {expires_in: "
            "1.day}); by default fragments never expire and rely on Redis maxmemory eviction.",
            "为缓存存储设置默认 expires_in（config.cache_store = :redis_cache_store, {expires_in: 1.day}）；"
            "默认情况下片段永不过期，只能依赖 Redis 的 maxmemory 淘汰。",
        ),
        examples=(
            "views/products/_product:7a1156131a6928cb0026877f8b749ac9/products/1-20180501154425",
            "views/products/index:7a1156131a6928cb0026877f8b749ac9",
        ),
        docs="https://github.com/rails/rails/blob/main/activesupport/lib/active_support/cache.rb",
    ),
    KeyFamily(
        id="rack.session",
        library="redis-store",
        ecosystem="ruby",
        versions=">=1.0",
        shapes=("rack:session:{var}", "rack:session:2::{hex}"),
        types=frozenset({"string"}),
        purpose=(
            "Rails/Rack sessions kept by redis-store (redis-rack, redis-actionpack) under `rack:session`.",
            "redis-store（redis-rack、redis-actionpack）在 `rack:session` 下保存的 Rails/Rack 会话。",
        ),
        persists=False,
        setting="expire_after",
        advice=(
            "Set expire_after on the session store (e.g. expire_after: 2.weeks); without it sessions never expire.",
            "在会话存储上设置 expire_after（如 expire_after: 2.weeks）；否则会话永不过期。",
        ),
        examples=(
            "rack:session:0123456789abcdef0123456789abcdef",
            "rack:session:2::a3b1c2d4e5f60718293a4b5c6d7e8f90a3b1c2d4e5f60718293a4b5c6d7e8f90",
        ),
        docs="https://github.com/redis-store/redis-rack/blob/master/lib/rack/session/redis.rb",
    ),
)
