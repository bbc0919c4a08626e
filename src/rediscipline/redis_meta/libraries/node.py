"""Key families of Bull and BullMQ (Node.js): the queues Node services share with Python ones.

Every key is `<prefix>:<queue>:<suffix>` with the default prefix `bull` (BullMQ `QueueKeys.toKey`, Bull
`Queue.toKey`); a queue name written as a Redis Cluster hash tag (`{orders}`) is one `{name}`, so the same
shapes cover `bull:{orders}:wait`. Bull 3-4 and BullMQ write the same job, list and sorted-set keys; the rows
name BullMQ, the maintained one, and a row names Bull where only Bull writes the key. Shapes and types were
read from bullmq 6.7 (`dist/cjs/classes/queue-keys.js`, `commands/*.lua`) and bull 4.16 (`lib/queue.js`) and
confirmed on a real redis-server with a small workload of each.
"""

from __future__ import annotations

from rediscipline.redis_meta.libraries.schema import KeyFamily

_BULLMQ_SRC = "https://github.com/taskforcesh/bullmq/blob/master/src/classes/queue-keys.ts"
_BULLMQ_REMOVAL = "https://docs.bullmq.io/guide/queues/auto-removal-of-jobs"
_REMOVE_ADVICE = (
    "Set removeOnComplete and removeOnFail in the queue's defaultJobOptions (e.g. {age: 86400, count: 1000}); "
    "the default false keeps every finished job forever.",
    "在队列的 defaultJobOptions 中设置 removeOnComplete 和 removeOnFail（如 {age: 86400, count: 1000}）；"
    "默认值 false 会永久保留所有已完成和失败的任务。",
)

BULL_FAMILIES: tuple[KeyFamily, ...] = (
    KeyFamily(
        id="bullmq.job",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:{var}", "bull:{name}:repeat:{name}:{int}"),
        types=frozenset({"hash"}),
        purpose=(
            "One job: its name, data, options, progress, return value or failure (Bull 3-4 writes the same hash).",
            "单个任务：名称、数据、选项、进度、返回值或失败原因（Bull 3-4 写同样的哈希）。",
        ),
        persists=False,
        setting="removeOnComplete",
        advice=_REMOVE_ADVICE,
        examples=(
            "bull:emails:1",
            "bull:emails:448d774a-cd5e-4758-8f9d-dc35c47e97ed",
            "bull:{orders}:1",
            "bull:emails:repeat:every-min:1795790567690",
            "bull:legacy:repeat:d5a5da4ed4366ca491c9de0296251f7e:1795790640000",
        ),
        docs=_BULLMQ_REMOVAL,
    ),
    KeyFamily(
        id="bullmq.job_logs",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:{var}:logs", "bull:{name}:repeat:{name}:{int}:logs"),
        types=frozenset({"list"}),
        purpose=(
            "The log lines a job wrote with job.log(); removed with the job.",
            "任务用 job.log() 写下的日志行，随任务一起删除。",
        ),
        persists=False,
        setting="keepLogs",
        advice=(
            "Set the job option keepLogs (in defaultJobOptions) to cap each job's log lines, and "
            "removeOnComplete/removeOnFail to drop them with the job; by default both keep everything.",
            "设置任务选项 keepLogs（可放在 defaultJobOptions 中）限制每个任务的日志行数，"
            "并用 removeOnComplete/removeOnFail 随任务删除；默认两者都全部保留。",
        ),
        examples=("bull:emails:1:logs", "bull:emails:repeat:every-min:1795790567690:logs"),
        docs="https://docs.bullmq.io/guide/jobs/job-logs",
    ),
    KeyFamily(
        id="bullmq.job_lock",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:{var}:lock",),
        types=frozenset({"string"}),
        purpose=(
            "The lock a worker holds on an active job, renewed while it runs.",
            "worker 处理活动任务时持有并不断续期的锁。",
        ),
        persists=False,
        setting="lockDuration",
        advice=(
            "The lock expires after the worker's lockDuration (default 30000 ms) unless renewed; a lock without "
            "a TTL is not BullMQ's doing.",
            "锁在 worker 的 lockDuration（默认 30000 毫秒）后过期，除非被续期；没有 TTL 的锁不是 BullMQ 造成的。",
        ),
        examples=("bull:slow:1:lock",),
        docs=_BULLMQ_SRC,
    ),
    KeyFamily(
        id="bullmq.job_children",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=(
            "bull:{name}:{var}:dependencies",
            "bull:{name}:{var}:processed",
            "bull:{name}:{var}:failed",
            "bull:{name}:{var}:unsuccessful",
        ),
        types=frozenset({"set", "hash", "zset"}),
        purpose=(
            "A parent job's pending children and the results or failures of its finished ones (flows).",
            "父任务（flow）尚未完成的子任务，以及已完成子任务的结果或失败信息。",
        ),
        persists=False,
        setting="removeOnComplete",
        advice=_REMOVE_ADVICE,
        examples=("bull:emails:b3a8c7fc-9819-4bc5-af26-69d1da38b8f5:dependencies", "bull:emails:7:processed"),
        docs="https://docs.bullmq.io/guide/flows",
    ),
    KeyFamily(
        id="bullmq.queue_lists",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:wait", "bull:{name}:active", "bull:{name}:paused"),
        types=frozenset({"list"}),
        purpose=(
            "The ids of a queue's waiting, active and (paused queues) paused jobs.",
            "队列中等待、处理中以及（队列暂停时）暂停的任务 id。",
        ),
        persists=True,
        setting="",
        advice=(
            "These lists empty as workers consume them; a growing wait list means too few workers, not a missing TTL.",
            "这些列表随 worker 消费而清空；wait 列表持续增长说明 worker 不足，不是缺少 TTL。",
        ),
        examples=("bull:idle:wait", "bull:slow:active", "bull:bheld:paused", "bull:{orders}:wait"),
        docs=_BULLMQ_SRC,
    ),
    KeyFamily(
        id="bullmq.finished",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:completed", "bull:{name}:failed"),
        types=frozenset({"zset"}),
        purpose=(
            "The ids of finished jobs by finish time, kept until removeOnComplete/removeOnFail removes them.",
            "按完成时间排列的已完成和失败任务 id，直到 removeOnComplete/removeOnFail 将其删除。",
        ),
        persists=True,
        setting="removeOnComplete",
        advice=_REMOVE_ADVICE,
        examples=("bull:emails:completed", "bull:emails:failed", "bull:{orders}:completed"),
        docs=_BULLMQ_REMOVAL,
    ),
    KeyFamily(
        id="bullmq.scheduled",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=(
            "bull:{name}:delayed",
            "bull:{name}:prioritized",
            "bull:{name}:waiting-children",
            "bull:{name}:marker",
            "bull:{name}:priority",
        ),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs waiting for their time, their priority or their children, and the marker workers block on "
            "(`priority` is Bull 3-4's).",
            "等待到期、按优先级排队或等待子任务的任务，以及 worker 阻塞等待的 marker（`priority` 为 Bull 3-4 所用）。",
        ),
        persists=True,
        setting="",
        advice=(
            "These sets empty as jobs become due and are processed; they need workers, not a TTL.",
            "任务到期并被处理后这些集合会清空；它们需要的是 worker，而不是 TTL。",
        ),
        examples=(
            "bull:emails:delayed",
            "bull:idle:prioritized",
            "bull:emails:waiting-children",
            "bull:idle:marker",
            "bull:bidle:priority",
        ),
        docs=_BULLMQ_SRC,
    ),
    KeyFamily(
        id="bullmq.queue_state",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=(
            "bull:{name}:meta",
            "bull:{name}:id",
            "bull:{name}:pc",
            "bull:{name}:stalled",
            "bull:{name}:stalled-check",
            "bull:{name}:meta-paused",
        ),
        types=frozenset({"hash", "string", "set"}),
        purpose=(
            "A queue's settings and version, its job-id and priority counters and the stalled-job check "
            "(`meta-paused` is Bull 3-4's).",
            "队列的设置与版本、任务 id 和优先级计数器以及卡住任务的检查（`meta-paused` 为 Bull 3-4 所用）。",
        ),
        persists=True,
        setting="",
        advice=(
            "One small key each per queue, kept for the queue's life; remove a queue you no longer use with "
            "queue.obliterate().",
            "每个队列各一个小键，随队列长期存在；不再使用的队列请用 queue.obliterate() 删除。",
        ),
        examples=("bull:emails:meta", "bull:emails:id", "bull:idle:pc", "bull:emails:stalled-check"),
        docs=_BULLMQ_SRC,
    ),
    KeyFamily(
        id="bullmq.events",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:events",),
        types=frozenset({"stream"}),
        purpose=(
            "The stream of queue events QueueEvents listeners read (added, completed, failed, progress...).",
            "QueueEvents 监听者读取的队列事件流（added、completed、failed、progress 等）。",
        ),
        persists=True,
        setting="streams.events.maxLen",
        advice=(
            "The stream is trimmed to the queue option streams.events.maxLen (default 10000 events); lower it "
            "for busy queues.",
            "事件流按队列选项 streams.events.maxLen 裁剪（默认 10000 条）；繁忙的队列可调低。",
        ),
        examples=("bull:emails:events", "bull:{orders}:events"),
        docs="https://docs.bullmq.io/guide/events",
    ),
    KeyFamily(
        id="bullmq.metrics",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:metrics:{rest}",),
        types=frozenset({"hash", "list"}),
        purpose=(
            "Per-minute counts of completed and failed jobs, written when a worker enables metrics.",
            "worker 启用 metrics 后写入的每分钟完成和失败任务数。",
        ),
        persists=True,
        setting="metrics.maxDataPoints",
        advice=(
            "The data list is capped by the worker option metrics.maxDataPoints (e.g. MetricsTime.ONE_WEEK "
            "points of one minute each).",
            "数据列表由 worker 选项 metrics.maxDataPoints 限制（如 MetricsTime.ONE_WEEK 个一分钟数据点）。",
        ),
        examples=("bull:emails:metrics:completed", "bull:emails:metrics:failed:data"),
        docs="https://docs.bullmq.io/guide/metrics",
    ),
    KeyFamily(
        id="bullmq.repeat",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:repeat", "bull:{name}:repeat:{name}"),
        types=frozenset({"zset", "hash"}),
        purpose=(
            "Repeatable jobs and job schedulers with their next run time (Bull 3-4 keeps the zset only).",
            "可重复任务和任务调度器及其下次运行时间（Bull 3-4 只保留该有序集合）。",
        ),
        persists=True,
        setting="",
        advice=(
            "A scheduler lives until removed; delete stale ones with queue.removeJobScheduler() "
            "(or removeRepeatableByKey()).",
            "调度器会一直存在直到被删除；用 queue.removeJobScheduler()（或 removeRepeatableByKey()）删除过时的调度器。",
        ),
        examples=("bull:emails:repeat", "bull:emails:repeat:every-min"),
        docs="https://docs.bullmq.io/guide/job-schedulers",
    ),
    KeyFamily(
        id="bullmq.limiter",
        library="BullMQ",
        ecosystem="node",
        versions=">=1.0",
        shapes=("bull:{name}:limiter", "bull:{name}:limiter:{rest}"),
        types=frozenset({"string", "hash", "set"}),
        purpose=(
            "The rate limiter's counter for the current window (Bull 3-4 adds an index and a limited set).",
            "限流器当前时间窗口的计数（Bull 3-4 另有索引和受限集合）。",
        ),
        persists=False,
        setting="limiter.duration",
        advice=(
            "The counter expires with the worker's limiter.duration window; the Bull 3-4 index stays while "
            "the queue is rate limited.",
            "计数器随 worker 的 limiter.duration 窗口过期；Bull 3-4 的索引在队列限流期间一直保留。",
        ),
        examples=("bull:lim:limiter", "bull:blim:limiter:index"),
        docs="https://docs.bullmq.io/guide/rate-limiting",
    ),
    KeyFamily(
        id="bullmq.deduplication",
        library="BullMQ",
        ecosystem="node",
        versions=">=5.0",
        shapes=("bull:{name}:de:{name}",),
        types=frozenset({"string"}),
        purpose=(
            "The job currently holding a deduplication (debounce) id, so a second add with it is ignored.",
            "当前占用某个去重（debounce）id 的任务，使带同一 id 的再次添加被忽略。",
        ),
        persists=False,
        setting="deduplication.ttl",
        advice=(
            "Set deduplication.ttl when adding the job; without it the key lives until the job completes or fails.",
            "添加任务时设置 deduplication.ttl；否则该键会一直保留到任务完成或失败。",
        ),
        examples=("bull:idle:de:dd1", "bull:idle:de:dd2"),
        docs="https://docs.bullmq.io/guide/jobs/deduplication",
    ),
)
