"""Key families of rq's workers, executions, locks, groups, cron and rate limits, and of rq-scheduler.

Read from rq 1.10, 1.16, 2.6 and 3.0 (`rq/worker*.py`, `rq/worker_registration.py`, `rq/executions.py`,
`rq/scheduler.py`, `rq/group.py`, `rq/cron.py`, `rq/rate_limit.py`) and rq-scheduler 0.14
(`rq_scheduler/scheduler.py`), and checked by running workers and both schedulers against a real server.
"""

from __future__ import annotations

from functools import partial

from rediscipline.redis_meta.libraries.schema import KeyFamily

_rq = partial(KeyFamily, library="rq", ecosystem="python")
_rq_scheduler = partial(KeyFamily, library="rq-scheduler", ecosystem="python")

_SRC = "https://github.com/rq/rq/blob/master/rq/"

RQ_WORKERS: tuple[KeyFamily, ...] = (
    _rq(
        id="rq.worker_sets",
        versions=">=1.0",
        shapes=("rq:workers", "rq:workers:{name}"),
        types=frozenset({"set"}),
        purpose=("The keys of the live workers, overall and per queue.", "存活 worker 的键名，全局及按队列。"),
        persists=True,
        setting="worker_ttl",
        advice=(
            "Dead workers are removed when their key expires (`worker_ttl`, default 420 s) and the sets are cleaned.",
            "worker 键过期（`worker_ttl`，默认 420 秒）后会在清理时从集合中移除。",
        ),
        examples=("rq:workers", "rq:workers:default"),
        docs=_SRC + "worker_registration.py",
    ),
    _rq(
        id="rq.worker_executions",
        versions=">=3.0",
        shapes=("rq:worker:{name}:executions", "{prefix}:worker:{name}:executions"),
        types=frozenset({"set"}),
        purpose=("The executions a worker is running.", "某个 worker 正在进行的执行记录。"),
        persists=False,
        setting="worker_ttl",
        advice=(
            "Expires with its worker (`worker_ttl`, default 420 s).",
            "随 worker 一起过期（`worker_ttl`，默认 420 秒）。",
        ),
        examples=("rq:worker:e73734f26b81455ba112bf3d0d72bac8:executions",),
        docs=_SRC + "executions.py",
        proves_prefix=True,
    ),
    _rq(
        id="rq.worker",
        versions=">=1.0",
        shapes=("rq:worker:{name}",),
        types=frozenset({"hash"}),
        purpose=("One worker: state, queues, heartbeat and counters.", "单个 worker：状态、监听的队列、心跳和计数。"),
        persists=False,
        setting="worker_ttl",
        advice=(
            "Refreshed by each heartbeat and expires `worker_ttl` after the last one (default 420 s).",
            "每次心跳刷新，最后一次心跳后 `worker_ttl`（默认 420 秒）过期。",
        ),
        examples=("rq:worker:013b90a7fdd4439d866f32a612905f24",),
        docs=_SRC + "worker/base.py",
    ),
    _rq(
        id="rq.executions",
        versions=">=2.0",
        shapes=("rq:executions:{name}",),
        types=frozenset({"zset"}),
        purpose=("The running executions of one job.", "某个任务正在进行的执行记录。"),
        persists=False,
        setting="job_timeout",
        advice=(
            "Expires shortly after the job's `job_timeout` (default 180 s) unless heartbeats extend it.",
            "在任务的 `job_timeout`（默认 180 秒）之后不久过期，心跳会延长它。",
        ),
        examples=("rq:executions:e28687da-e36d-4a40-8c24-aebe24d48ee1",),
        docs=_SRC + "executions.py",
    ),
    _rq(
        id="rq.execution",
        versions=">=2.0",
        shapes=("rq:execution:{name}:{var}",),
        types=frozenset({"hash"}),
        purpose=("One execution of a job by a worker.", "某个 worker 对任务的一次执行。"),
        persists=False,
        setting="job_timeout",
        advice=(
            "Expires shortly after the job's `job_timeout` (default 180 s) unless heartbeats extend it.",
            "在任务的 `job_timeout`（默认 180 秒）之后不久过期，心跳会延长它。",
        ),
        examples=("rq:execution:e28687da-e36d-4a40-8c24-aebe24d48ee1:8c8a4fe8300445ea809d65d1b4243eca",),
        docs=_SRC + "executions.py",
    ),
    _rq(
        id="rq.scheduler_lock",
        versions=">=1.2",
        shapes=("rq:scheduler-lock:{name}", "{prefix}:scheduler-lock:{name}"),
        types=frozenset({"string"}),
        purpose=("Which worker runs the scheduler for a queue.", "哪个 worker 负责某队列的调度器。"),
        persists=False,
        setting="",
        advice=("Expires by itself (the scheduler interval plus 60 s).", "自动过期（调度间隔加 60 秒）。"),
        examples=("rq:scheduler-lock:default",),
        docs=_SRC + "scheduler.py",
        proves_prefix=True,
    ),
    _rq(
        id="rq.scheduler",
        versions=">=3.0",
        shapes=("rq:scheduler:{var}",),
        types=frozenset({"hash"}),
        purpose=(
            "One running scheduler: host, pid, queues and heartbeat.",
            "单个运行中的调度器：主机、进程号、队列和心跳。",
        ),
        persists=False,
        setting="",
        advice=(
            "Refreshed by its heartbeat; expires the scheduler interval plus 60 s after it stops.",
            "由心跳刷新；调度器停止后经过调度间隔加 60 秒过期。",
        ),
        examples=("rq:scheduler:3f2b8c1d9e0a4b5c8d7e6f5a4b3c2d1e",),
        docs=_SRC + "scheduler.py",
    ),
    _rq(
        id="rq.maintenance_locks",
        versions=">=1.0",
        shapes=(
            "rq:clean_registries:{name}",
            "rq:clean_groups",
            "{prefix}:clean_registries:{name}",
            "{prefix}:clean_groups",
        ),
        types=frozenset({"string"}),
        purpose=(
            "Lets one worker at a time clean registries or groups.",
            "保证同一时间只有一个 worker 清理登记表或任务组。",
        ),
        persists=False,
        setting="",
        advice=("Expires by itself (about 15 minutes).", "自动过期（约 15 分钟）。"),
        examples=("rq:clean_registries:default", "rq:clean_groups"),
        docs=_SRC + "queue.py",
        proves_prefix=True,
    ),
    _rq(
        id="rq.suspended",
        versions=">=1.0",
        shapes=("rq:suspended",),
        types=frozenset({"string"}),
        purpose=("Set by `rq suspend`: workers take no new jobs.", "由 `rq suspend` 设置：worker 不再领取新任务。"),
        persists=True,
        setting="",
        advice=(
            "`rq resume` removes it; `rq suspend --duration N` makes it expire.",
            "`rq resume` 会删除它；`rq suspend --duration N` 可让它自动过期。",
        ),
        examples=("rq:suspended",),
        docs=_SRC + "suspension.py",
    ),
    _rq(
        id="rq.groups",
        versions=">=2.0",
        shapes=("rq:groups", "rq:group:{name}"),
        types=frozenset({"set"}),
        purpose=("Job groups and the ids of their jobs.", "任务组及其中任务的 id。"),
        persists=True,
        setting="",
        advice=(
            "A group is removed by the worker's cleaning once all its jobs have expired.",
            "组内任务全部过期后，由 worker 的清理任务删除该组。",
        ),
        examples=("rq:groups", "rq:group:2050c258a957466dbb4e81528f3617e5"),
        docs=_SRC + "group.py",
    ),
    _rq(
        id="rq.cron_registry",
        versions=">=2.6",
        shapes=("rq:cron_schedulers",),
        types=frozenset({"zset"}),
        purpose=("The running cron schedulers, by last heartbeat.", "运行中的 cron 调度器，按最近心跳排列。"),
        persists=True,
        setting="",
        advice=(
            "Kept on purpose; stale entries are dropped by the cron scheduler.",
            "有意长期保留；过期条目由 cron 调度器清除。",
        ),
        examples=("rq:cron_schedulers",),
        docs=_SRC + "cron_scheduler_registry.py",
    ),
    _rq(
        id="rq.cron_scheduler",
        versions=">=2.6",
        shapes=("rq:cron_scheduler:{rest}",),
        types=frozenset({"hash"}),
        purpose=("One cron scheduler: host, pid and config file.", "单个 cron 调度器：主机、进程号和配置文件。"),
        persists=False,
        setting="",
        advice=("Refreshed by the scheduler and expires 60 s after it stops.", "由调度器定期刷新，停止 60 秒后过期。"),
        examples=("rq:cron_scheduler:web-1:4242:a1b2c3",),
        docs=_SRC + "cron.py",
    ),
    _rq(
        id="rq.rate_limits",
        versions=">=3.0",
        shapes=("rq:rl-keys", "rq:rl:{name}", "rq:rl:{name}:allowed", "rq:rl:{name}:rate_limited"),
        types=frozenset({"set", "hash", "zset"}),
        purpose=("Concurrency limits: config, admitted and held-back jobs.", "并发限制：配置、已放行和被限流的任务。"),
        persists=True,
        setting="",
        advice=(
            "The limiter drops a key from `rq:rl-keys` once both of its job sets are empty.",
            "当两个任务集合都为空时，限流器会把该键从 `rq:rl-keys` 中移除。",
        ),
        examples=("rq:rl-keys", "rq:rl:api", "rq:rl:api:allowed", "rq:rl:api:rate_limited"),
        docs=_SRC + "rate_limit.py",
    ),
)


_SCHEDULER = "https://github.com/rq/rq-scheduler/blob/master/rq_scheduler/scheduler.py"

RQ_SCHEDULER: tuple[KeyFamily, ...] = (
    _rq_scheduler(
        id="rq-scheduler.scheduled_jobs",
        versions=">=0.5",
        shapes=("rq:scheduler:scheduled_jobs",),
        types=frozenset({"zset"}),
        purpose=(
            "Job ids by the time they are due (one-off, interval and cron).",
            "按到期时间排列的任务 id（单次、周期和 cron）。",
        ),
        persists=True,
        setting="",
        advice=(
            "Kept on purpose; `scheduler.cancel(job)` removes a job that should no longer run.",
            "有意长期保留；不再需要的任务用 `scheduler.cancel(job)` 移除。",
        ),
        examples=("rq:scheduler:scheduled_jobs",),
        docs=_SCHEDULER,
    ),
    _rq_scheduler(
        id="rq-scheduler.instance",
        versions=">=0.5",
        shapes=("rq:scheduler_instance:{name}", "rq:scheduler_lock", "rq:scheduler"),
        types=frozenset({"hash", "string"}),
        purpose=(
            "The running schedulers and the lock one of them holds (one `rq:scheduler` hash before 0.10).",
            "运行中的调度器及其中一个持有的锁（0.10 之前为单个 `rq:scheduler` 哈希）。",
        ),
        persists=False,
        setting="interval",
        advice=(
            "Expire by themselves a little after the scheduler's `interval` (default 60 s).",
            "在调度器的 `interval`（默认 60 秒）之后不久自动过期。",
        ),
        examples=("rq:scheduler_instance:03869edfe21b4714b360b5332fd65a32", "rq:scheduler_lock", "rq:scheduler"),
        docs=_SCHEDULER,
    ),
)
