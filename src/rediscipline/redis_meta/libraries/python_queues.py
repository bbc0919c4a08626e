"""Key families of the smaller Python task queues: arq, huey, saq and taskiq-redis.

Read from arq 0.16 to 0.28 (`arq/constants.py`), huey 2.1 to 3.5 (`huey/storage.py`), saq 0.12 to 0.26
(`saq/queue/redis.py`) and taskiq-redis 0.5 to 1.2 (`taskiq_redis/redis_broker.py`, `redis_backend.py`), and
checked by running each against a real server. huey cleans its storage name to `[A-Za-z0-9_]`, so its `{name}`
never holds a `.`. taskiq-redis stores a result under the bare task id: no row can tell it from an application's
key; only its `__progress` companion has a shape of its own.
"""

from __future__ import annotations

from functools import partial

from rediscipline.redis_meta.libraries.schema import KeyFamily

_arq = partial(KeyFamily, library="arq", ecosystem="python")
_huey = partial(KeyFamily, library="huey", ecosystem="python")
_saq = partial(KeyFamily, library="saq", ecosystem="python")
_taskiq_redis = partial(KeyFamily, library="taskiq-redis", ecosystem="python")

_ARQ = "https://github.com/python-arq/arq/blob/main/arq/constants.py"
_HUEY = "https://github.com/coleifer/huey/blob/master/huey/storage.py"
_SAQ = "https://github.com/tobymao/saq/blob/master/saq/queue/redis.py"

ARQ: tuple[KeyFamily, ...] = (
    _arq(
        id="arq.queue",
        versions=">=0.16",
        shapes=("arq:queue",),
        types=frozenset({"zset"}),
        purpose=("The default queue: job ids by the time they are due.", "默认队列：按到期时间排列的任务 id。"),
        persists=True,
        setting="",
        advice=(
            "A queue is meant to persist; if it keeps growing add workers (`max_jobs`, default 10 per worker).",
            "队列本应长期存在；若持续增长请增加 worker（每个 worker 的 `max_jobs` 默认 10）。",
        ),
        examples=("arq:queue",),
        docs=_ARQ,
    ),
    _arq(
        id="arq.health_check",
        versions=">=0.16",
        shapes=("arq:queue:health-check",),
        types=frozenset({"string"}),
        purpose=("The worker's last health report.", "worker 最近一次健康状态报告。"),
        persists=False,
        setting="health_check_interval",
        advice=(
            "Expires shortly after `health_check_interval` (default 3600 s).",
            "在 `health_check_interval`（默认 3600 秒）之后不久过期。",
        ),
        examples=("arq:queue:health-check",),
        docs=_ARQ,
    ),
    _arq(
        id="arq.abort",
        versions=">=0.20",
        shapes=("arq:abort",),
        types=frozenset({"zset"}),
        purpose=("Ids of jobs asked to abort.", "被请求中止的任务 id。"),
        persists=True,
        setting="",
        advice=(
            "Small: the worker removes an id once it cancels that job or the job ends.",
            "规模很小：worker 取消该任务或任务结束后即移除其 id。",
        ),
        examples=("arq:abort",),
        docs=_ARQ,
    ),
    _arq(
        id="arq.job",
        versions=">=0.16",
        shapes=("arq:job:{rest}",),
        types=frozenset({"string"}),
        purpose=("One queued job: function, arguments and options.", "单个排队中的任务：函数、参数和选项。"),
        persists=False,
        setting="_expires",
        advice=(
            "Expires one day after it is due unless `_expires` is passed to `enqueue_job`.",
            "默认在到期后一天过期，可在 `enqueue_job` 中传 `_expires` 调整。",
        ),
        examples=("arq:job:0109c3a481b0492385ddce0bf0f167c4", "arq:job:cron:tick:1735689600000"),
        docs=_ARQ,
    ),
    _arq(
        id="arq.result",
        versions=">=0.16",
        shapes=("arq:result:{rest}",),
        types=frozenset({"string"}),
        purpose=("One job's result.", "单个任务的结果。"),
        persists=False,
        setting="keep_result",
        advice=(
            "Expires after the worker's `keep_result` (default 3600 s); `keep_result_forever=True` removes the TTL.",
            "在 worker 的 `keep_result`（默认 3600 秒）后过期；`keep_result_forever=True` 会去掉过期时间。",
        ),
        examples=("arq:result:b6123f0cbd7d4db2998c93b4a309582f",),
        docs=_ARQ,
    ),
    _arq(
        id="arq.in_progress",
        versions=">=0.16",
        shapes=("arq:in-progress:{rest}", "arq:retry:{rest}"),
        types=frozenset({"string"}),
        purpose=("Marks a job as running, and counts its tries.", "标记任务正在执行，并记录其尝试次数。"),
        persists=False,
        setting="job_timeout",
        advice=(
            "Expire by themselves a little after `job_timeout` (default 300 s) or the job's expiry.",
            "在 `job_timeout`（默认 300 秒）或任务过期时间之后不久自动过期。",
        ),
        examples=("arq:in-progress:d7d2b317b95b4a35acae378c24103cdc", "arq:retry:d7d2b317b95b4a35acae378c24103cdc"),
        docs=_ARQ,
    ),
)

HUEY: tuple[KeyFamily, ...] = (
    _huey(
        id="huey.queue",
        versions=">=2.0",
        shapes=("huey.redis.{name}",),
        types=frozenset({"list", "zset"}),
        purpose=(
            "The task queue (a sorted set for PriorityRedisHuey).",
            "任务队列（PriorityRedisHuey 下为有序集合）。",
        ),
        persists=True,
        setting="",
        advice=(
            "A queue is meant to persist; if it keeps growing add consumer workers (`-w`).",
            "队列本应长期存在；若持续增长请增加消费者的 worker 数（`-w`）。",
        ),
        examples=("huey.redis.app",),
        docs=_HUEY,
    ),
    _huey(
        id="huey.schedule",
        versions=">=2.0",
        shapes=("huey.schedule.{name}",),
        types=frozenset({"zset"}),
        purpose=("Tasks scheduled for later, by due time.", "按到期时间排列的延迟任务。"),
        persists=True,
        setting="",
        advice=("Kept on purpose; due tasks move to the queue.", "有意长期保留；到期任务会移入队列。"),
        examples=("huey.schedule.app",),
        docs=_HUEY,
    ),
    _huey(
        id="huey.results",
        versions=">=2.0",
        shapes=("huey.results.{name}", "huey.counters.{name}"),
        types=frozenset({"hash"}),
        purpose=(
            "Task results, revocations, locks and group counters, one field each.",
            "任务结果、撤销标记、锁和任务组计数，每项一个字段。",
        ),
        persists=True,
        setting="results",
        advice=(
            "The hash grows with every unread result: read results (`get()` removes them), pass `results=False`, "
            "or use RedisExpireHuey so results expire.",
            "每个未读取的结果都会让该哈希增长：读取结果（`get()` 会删除它们）、设置 `results=False`，"
            "或改用 RedisExpireHuey 让结果过期。",
        ),
        examples=("huey.results.app", "huey.counters.app"),
        docs=_HUEY,
    ),
    _huey(
        id="huey.expiring_results",
        versions=">=2.1",
        shapes=("huey.r.{name}.{rest}", "huey.c.{name}.{rest}"),
        types=frozenset({"string"}),
        purpose=(
            "RedisExpireHuey: one task result, revocation, lock or counter.",
            "RedisExpireHuey：单个任务结果、撤销标记、锁或计数。",
        ),
        persists=False,
        setting="expire_time",
        advice=(
            "Results expire after `expire_time` (default 86400 s); revocations and locks are kept until cleared.",
            "结果在 `expire_time`（默认 86400 秒）后过期；撤销标记和锁会保留到被清除。",
        ),
        examples=("huey.r.exp.395b2bb5-4929-4ddb-aae6-5d0d591ce224", "huey.r.exp.rt:tasks.add"),
        docs=_HUEY,
    ),
    _huey(
        id="huey.notify",
        versions=">=3.0",
        shapes=("huey.notify.{name}.{rest}",),
        types=frozenset({"list"}),
        purpose=(
            "Wakes a client blocked on a result (`notify_result`).",
            "唤醒阻塞等待结果的客户端（`notify_result`）。",
        ),
        persists=False,
        setting="notify_result_ttl",
        advice=("Expires after `notify_result_ttl` (default 60 s).", "在 `notify_result_ttl`（默认 60 秒）后过期。"),
        examples=("huey.notify.app.a4b702be-728b-4478-8f8d-3e1bbbdf5d8d",),
        docs=_HUEY,
    ),
)

SAQ: tuple[KeyFamily, ...] = (
    _saq(
        id="saq.job",
        versions=">=0.12",
        shapes=("saq:job:{name}:{rest}",),
        types=frozenset({"string"}),
        purpose=("One job: function, arguments, status and result.", "单个任务：函数、参数、状态和结果。"),
        persists=False,
        setting="ttl",
        advice=(
            "Kept while queued, then expires after the job's `ttl` (default 600 s); `ttl=-1` keeps it forever.",
            "排队期间保留，完成后在任务的 `ttl`（默认 600 秒）后过期；`ttl=-1` 会永久保留。",
        ),
        examples=("saq:job:default:19082124-ea70-11f1-99dd-02fc00000001", "saq:job:default:cron:tick"),
        docs=_SAQ,
    ),
    _saq(
        id="saq.abort",
        versions=">=0.12",
        shapes=("saq:abort:{rest}",),
        types=frozenset({"string"}),
        purpose=("Asks the worker running a job to abort it.", "请求正在执行任务的 worker 中止它。"),
        persists=False,
        setting="",
        advice=("Expires by itself (a few seconds).", "几秒后自动过期。"),
        examples=("saq:abort:19082124-ea70-11f1-99dd-02fc00000001",),
        docs=_SAQ,
    ),
    _saq(
        id="saq.queue",
        versions=">=0.12",
        shapes=("saq:{name}:queued", "saq:{name}:active", "saq:{name}:incomplete"),
        types=frozenset({"list", "zset"}),
        purpose=(
            "A queue's waiting and running jobs, and all unfinished ones by due time.",
            "队列中等待和执行中的任务，以及按到期时间排列的全部未完成任务。",
        ),
        persists=True,
        setting="",
        advice=(
            "A queue is meant to persist; if it keeps growing add workers (`concurrency`, default 10).",
            "队列本应长期存在；若持续增长请增加 worker（`concurrency` 默认 10）。",
        ),
        examples=("saq:default:queued", "saq:default:active", "saq:default:incomplete"),
        docs=_SAQ,
    ),
    _saq(
        id="saq.workers",
        versions=">=0.12",
        shapes=("saq:{name}:stats", "saq:{name}:worker_info:{var}", "saq:{name}:stats:{var}"),
        types=frozenset({"zset", "string"}),
        purpose=("Worker statistics and which workers are alive.", "worker 的统计信息及存活情况。"),
        persists=False,
        setting="",
        advice=("Expire by themselves a few seconds after the last report.", "最后一次上报后几秒自动过期。"),
        examples=("saq:default:stats", "saq:default:worker_info:190875c0-ea70-11f1-99dd-02fc00000001"),
        docs=_SAQ,
    ),
    _saq(
        id="saq.locks",
        versions=">=0.12",
        shapes=("saq:{name}:schedule", "saq:{name}:sweep"),
        types=frozenset({"string"}),
        purpose=(
            "Let one worker at a time move due jobs or sweep stuck ones.",
            "保证同一时间只有一个 worker 移动到期任务或清理卡住的任务。",
        ),
        persists=False,
        setting="",
        advice=("Expire by themselves (1 s and 60 s).", "自动过期（分别为 1 秒和 60 秒）。"),
        examples=("saq:default:schedule", "saq:default:sweep"),
        docs=_SAQ,
    ),
)

_TASKIQ = "https://github.com/taskiq-python/taskiq-redis/blob/main/taskiq_redis/"

TASKIQ: tuple[KeyFamily, ...] = (
    _taskiq_redis(
        id="taskiq-redis.queue",
        versions=">=0.1",
        shapes=("taskiq",),
        types=frozenset({"list", "stream"}),
        purpose=(
            "The default queue (a list for ListQueueBroker, a stream for RedisStreamBroker).",
            "默认队列（ListQueueBroker 为列表，RedisStreamBroker 为 stream）。",
        ),
        persists=True,
        setting="maxlen",
        advice=(
            "A queue is meant to persist; RedisStreamBroker trims the stream only when `maxlen` is set (default none).",
            "队列本应长期存在；RedisStreamBroker 只有在设置 `maxlen`（默认不设）时才会裁剪 stream。",
        ),
        examples=("taskiq",),
        docs=_TASKIQ + "redis_broker.py",
        type_required=True,
    ),
    _taskiq_redis(
        id="taskiq-redis.autoclaim_lock",
        versions=">=1.1",
        shapes=("autoclaim:taskiq:taskiq",),
        types=frozenset({"string"}),
        purpose=(
            "Lets one worker at a time reclaim unacknowledged stream messages.",
            "保证同一时间只有一个 worker 认领未确认的 stream 消息。",
        ),
        persists=False,
        setting="",
        advice=("Expires by itself.", "自动过期。"),
        examples=("autoclaim:taskiq:taskiq",),
        docs=_TASKIQ + "redis_broker.py",
    ),
    _taskiq_redis(
        id="taskiq-redis.progress",
        versions=">=1.0.3",
        shapes=("{hex}__progress",),
        types=frozenset({"string"}),
        purpose=("A running task's reported progress.", "执行中任务上报的进度。"),
        persists=False,
        setting="result_ex_time",
        advice=(
            "Kept forever unless the result backend gets `result_ex_time` or `result_px_time` (default none).",
            "除非为结果后端设置 `result_ex_time` 或 `result_px_time`（默认不设），否则永久保留。",
        ),
        examples=("6f1c0e5b2d8a4f7e9b3c1d2e4f5a6b7c__progress",),
        docs=_TASKIQ + "redis_backend.py",
    ),
)
