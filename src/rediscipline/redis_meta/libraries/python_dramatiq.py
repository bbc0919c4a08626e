"""Key families of dramatiq's Redis broker and Redis results backend (namespace `dramatiq`).

Read from dramatiq 1.17, 2.0, 2.1 and 2.2 (`dramatiq/brokers/redis/dispatch.lua`, `dramatiq/brokers/redis.py`,
`dramatiq/results/backend.py`) and checked by running a worker with delayed, failing and result-storing actors
against a real server. Queue names may hold `.`, so the suffixed families (`.DQ`, `.XQ`, `.msgs`) come before
the plain queue. Rate limiters are left out: their keys are the application's own, with at most a
`@<timestamp>` or `@events` suffix.
"""

from __future__ import annotations

from functools import partial

from rediscipline.redis_meta.libraries.schema import KeyFamily

_dramatiq = partial(KeyFamily, library="dramatiq", ecosystem="python")

_DRAMATIQ = "https://github.com/Bogdanp/dramatiq/blob/master/dramatiq/brokers/redis/dispatch.lua"
_DLQ_ADVICE = (
    "Messages are kept `dead_message_ttl` (default seven days) and pruned by the broker's maintenance.",
    "消息保留 `dead_message_ttl`（默认七天），由 broker 的维护任务清理。",
)
_DRAMATIQ_QUEUE_ADVICE = (
    "A queue is meant to persist; if it keeps growing add worker processes or threads.",
    "队列本应长期存在；若持续增长请增加 worker 进程或线程。",
)

DRAMATIQ: tuple[KeyFamily, ...] = (
    _dramatiq(
        id="dramatiq.heartbeats",
        versions=">=1.0",
        shapes=("dramatiq:__heartbeats__", "{prefix}:__heartbeats__"),
        types=frozenset({"zset"}),
        purpose=("Worker ids by their last heartbeat.", "按最近心跳时间排列的 worker id。"),
        persists=True,
        setting="heartbeat_timeout",
        advice=(
            "Workers silent for `heartbeat_timeout` (default 60 s) are dropped and their messages requeued.",
            "超过 `heartbeat_timeout`（默认 60 秒）无心跳的 worker 会被移除，其消息重新入队。",
        ),
        examples=("dramatiq:__heartbeats__",),
        docs=_DRAMATIQ,
        proves_prefix=True,
    ),
    _dramatiq(
        id="dramatiq.acks",
        versions=">=1.0",
        shapes=("dramatiq:__acks__.{var}.{name}", "{prefix}:__acks__.{var}.{name}"),
        types=frozenset({"set"}),
        purpose=("Messages a worker has fetched and not yet acknowledged.", "worker 已取出但尚未确认的消息。"),
        persists=True,
        setting="heartbeat_timeout",
        advice=(
            "Returned to the queue when the worker misses heartbeats for `heartbeat_timeout` (default 60 s).",
            "worker 超过 `heartbeat_timeout`（默认 60 秒）无心跳时，这些消息会回到队列。",
        ),
        examples=("dramatiq:__acks__.253b564d-9ae9-4056-9497-550db8cd14c6.default",),
        docs=_DRAMATIQ,
        proves_prefix=True,
    ),
    _dramatiq(
        id="dramatiq.dead_letters",
        versions=">=1.0",
        shapes=("dramatiq:{name}.XQ", "dramatiq:{name}.XQ.msgs", "{prefix}:{name}.XQ", "{prefix}:{name}.XQ.msgs"),
        types=frozenset({"zset", "hash"}),
        purpose=("Messages that exhausted their retries, and their bodies.", "重试次数耗尽的消息及其内容。"),
        persists=True,
        setting="dead_message_ttl",
        advice=_DLQ_ADVICE,
        examples=("dramatiq:reports.XQ", "dramatiq:reports.XQ.msgs"),
        docs=_DRAMATIQ,
        proves_prefix=True,
    ),
    _dramatiq(
        id="dramatiq.delay_queue",
        versions=">=1.0",
        shapes=("dramatiq:{name}.DQ", "dramatiq:{name}.DQ.msgs", "{prefix}:{name}.DQ", "{prefix}:{name}.DQ.msgs"),
        types=frozenset({"list", "hash"}),
        purpose=("Delayed messages (`delay=`, retries) and their bodies.", "延迟消息（`delay=`、重试）及其内容。"),
        persists=True,
        setting="",
        advice=_DRAMATIQ_QUEUE_ADVICE,
        examples=("dramatiq:default.DQ", "dramatiq:default.DQ.msgs"),
        docs=_DRAMATIQ,
        proves_prefix=True,
    ),
    _dramatiq(
        id="dramatiq.messages",
        versions=">=1.0",
        shapes=("dramatiq:{name}.msgs",),
        types=frozenset({"hash"}),
        purpose=("The bodies of a queue's messages, by message id.", "队列中消息的内容，按消息 id 存放。"),
        persists=True,
        setting="",
        advice=_DRAMATIQ_QUEUE_ADVICE,
        examples=("dramatiq:default.msgs",),
        docs=_DRAMATIQ,
    ),
    _dramatiq(
        id="dramatiq.queue",
        versions=">=1.0",
        shapes=("dramatiq:{name}",),
        types=frozenset({"list"}),
        purpose=("The ids of a queue's waiting messages.", "队列中等待处理的消息 id。"),
        persists=True,
        setting="",
        advice=_DRAMATIQ_QUEUE_ADVICE,
        examples=("dramatiq:default",),
        docs=_DRAMATIQ,
    ),
    _dramatiq(
        id="dramatiq.results_prefixed",
        versions=">=2.2",
        shapes=("dramatiq-results:{name}:{name}:{var}",),
        types=frozenset({"list"}),
        purpose=(
            "A message's result, with `use_namespace_prefix_keys=True`.",
            "消息的执行结果（开启 `use_namespace_prefix_keys=True` 时）。",
        ),
        persists=False,
        setting="result_ttl",
        advice=(
            "Expires after the Results middleware's `result_ttl` (default 600,000 ms, ten minutes).",
            "在 Results 中间件的 `result_ttl`（默认 600000 毫秒，即十分钟）后过期。",
        ),
        examples=("dramatiq-results:default:add:0b7e4f6c-2a7d-4c8e-9d3a-5f1e2b3c4d5e",),
        docs="https://github.com/Bogdanp/dramatiq/blob/master/dramatiq/results/backend.py",
    ),
)


#: A bare hex digest is claimed only as a list (dramatiq stores a result with LPUSH): attribution tries it
#: after every row whose shape has a literal part.
DRAMATIQ_RESULTS: tuple[KeyFamily, ...] = (
    _dramatiq(
        id="dramatiq.results",
        versions=">=1.0",
        shapes=("{hex}",),
        types=frozenset({"list"}),
        purpose=(
            "A message's result, under the MD5 of its namespace, queue, actor and message id.",
            "消息的执行结果，键名为命名空间、队列、actor 和消息 id 的 MD5。",
        ),
        persists=False,
        setting="result_ttl",
        advice=(
            "Expires after the Results middleware's `result_ttl` (default 600,000 ms, ten minutes).",
            "在 Results 中间件的 `result_ttl`（默认 600000 毫秒，即十分钟）后过期。",
        ),
        examples=("0b152675675d04a0b10bff8edc4a96e8",),
        docs="https://github.com/Bogdanp/dramatiq/blob/master/dramatiq/results/backend.py",
        type_required=True,
    ),
)
