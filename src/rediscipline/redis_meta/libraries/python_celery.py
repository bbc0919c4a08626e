"""Key families of Celery's Redis result backend, kombu's Redis transport (Celery's broker) and celery-redbeat.

Read from Celery 4.4 to 5.7 (`celery/backends/base.py`, `celery/backends/redis.py`), kombu 4.6 to 5.7
(`kombu/transport/redis.py`, `kombu/pidbox.py`) and celery-redbeat 1.0 to 2.4 (`redbeat/schedulers.py`), and
checked by running a worker with tasks, groups, chords, priorities, ETAs and `inspect ping` against a real
server. kombu names a priority sub-queue `<queue>\\x06\\x16<priority>`: the shapes hold those two control bytes.
Both libraries prepend `global_keyprefix` (a transport or backend option, empty by default) to every key.
"""

from __future__ import annotations

from functools import partial

from rediscipline.redis_meta.libraries.schema import KeyFamily

_celery = partial(KeyFamily, library="Celery", ecosystem="python")
_kombu = partial(KeyFamily, library="kombu", ecosystem="python")
_celery_redbeat = partial(KeyFamily, library="celery-redbeat", ecosystem="python")

_BACKEND = "https://github.com/celery/celery/blob/main/celery/backends/redis.py"
_KOMBU = "https://github.com/celery/kombu/blob/main/kombu/transport/redis.py"
_EXPIRES = (
    "Expires after `result_expires` (default one day); `ignore_result=True` stores nothing for tasks whose result "
    "nobody reads.",
    "在 `result_expires`（默认一天）后过期；结果无人读取的任务可设 `ignore_result=True`，不再写入结果。",
)

CELERY: tuple[KeyFamily, ...] = (
    _celery(
        id="celery.chord_state",
        versions=">=4.0",
        shapes=(
            "celery-taskset-meta-{name}.j",
            "{rest}celery-taskset-meta-{name}.j",
            "celery-taskset-meta-{name}.t",
            "{rest}celery-taskset-meta-{name}.t",
            "celery-taskset-meta-{name}.s",
            "{rest}celery-taskset-meta-{name}.s",
            "celery-taskset-meta-{name}.d",
            "{rest}celery-taskset-meta-{name}.d",
            "celery-taskset-meta-{name}.c",
            "{rest}celery-taskset-meta-{name}.c",
        ),
        types=frozenset({"list", "zset", "string"}),
        purpose=(
            "A chord's collected results, counters, size and completion claim.",
            "chord 已收集的结果、计数、大小及完成标记。",
        ),
        persists=False,
        setting="result_expires",
        advice=(
            "Deleted when the chord completes, otherwise expires after `result_expires` (default one day).",
            "chord 完成时删除，否则在 `result_expires`（默认一天）后过期。",
        ),
        examples=(
            "celery-taskset-meta-5240ee8b-c184-40b7-832a-0f0c17c9e7bf.j",
            "celery-taskset-meta-5240ee8b-c184-40b7-832a-0f0c17c9e7bf.c",
        ),
        docs=_BACKEND,
    ),
    _celery(
        id="celery.group_result",
        versions=">=3.0",
        shapes=("celery-taskset-meta-{name}", "{rest}celery-taskset-meta-{name}"),
        types=frozenset({"string"}),
        purpose=("A saved group result (the ids of its tasks).", "已保存的任务组结果（组内任务的 id）。"),
        persists=False,
        setting="result_expires",
        advice=_EXPIRES,
        examples=("celery-taskset-meta-e9d7853a-b545-423f-b6c9-b3a439ba4501",),
        docs=_BACKEND,
    ),
    _celery(
        id="celery.task_result",
        versions=">=3.0",
        shapes=("celery-task-meta-{name}", "{rest}celery-task-meta-{name}"),
        types=frozenset({"string"}),
        purpose=("One task's state and result.", "单个任务的状态和结果。"),
        persists=False,
        setting="result_expires",
        advice=_EXPIRES,
        examples=(
            "celery-task-meta-14b9149e-ef08-4ff1-936e-65b17a9ae7d0",
            "celery-task-meta-fddbbaed-2860-4f1b-9e1a-0c6c1d2e3f40",
        ),
        docs=_BACKEND,
    ),
)

_QUEUE_ADVICE = (
    "A queue is meant to persist; if it keeps growing the workers cannot keep up: add workers or check for a "
    "stopped consumer.",
    "队列本应长期存在；若持续增长说明 worker 处理不过来：增加 worker，或检查是否有消费者已停止。",
)

KOMBU: tuple[KeyFamily, ...] = (
    _kombu(
        id="kombu.default_queue",
        versions=">=4.0",
        shapes=("celery", "celery\x06\x16{int}"),
        types=frozenset({"list"}),
        purpose=(
            "Celery's default task queue and its priority sub-queues.",
            "Celery 的默认任务队列及其优先级子队列。",
        ),
        persists=True,
        setting="",
        advice=_QUEUE_ADVICE,
        examples=("celery", "celery\x06\x163", "celery\x06\x169"),
        docs=_KOMBU,
        type_required=True,
    ),
    _kombu(
        id="kombu.priority_queue",
        versions=">=4.0",
        shapes=("{name}\x06\x16{int}", "{rest}\x06\x16{int}"),
        types=frozenset({"list"}),
        purpose=("A priority sub-queue of a named queue.", "某个命名队列的优先级子队列。"),
        persists=True,
        setting="",
        advice=_QUEUE_ADVICE,
        examples=("reports\x06\x166",),
        docs=_KOMBU,
    ),
    _kombu(
        id="kombu.bindings",
        versions=">=4.0",
        shapes=(
            "_kombu.binding.{name}",
            "_kombu.binding_permanent.{name}",
            "_kombu.binding_deadlines",
            "{prefix}_kombu.binding.{name}",
            "{prefix}_kombu.binding_permanent.{name}",
            "{prefix}_kombu.binding_deadlines",
        ),
        types=frozenset({"set", "zset"}),
        purpose=(
            "Which queues are bound to an exchange (the routing table).",
            "交换机绑定了哪些队列（路由表）。",
        ),
        persists=True,
        setting="",
        advice=(
            "Kept on purpose; a binding of a queue that no longer exists can be removed with `celery purge` or DEL.",
            "有意长期保留；已不存在的队列的绑定可以用 `celery purge` 或 DEL 清除。",
        ),
        examples=("_kombu.binding.celery", "_kombu.binding.celery.pidbox", "_kombu.binding_deadlines"),
        docs=_KOMBU,
        proves_prefix=True,
    ),
    _kombu(
        id="kombu.unacked",
        versions=">=4.0",
        shapes=("unacked", "unacked_index", "{rest}unacked_index"),
        types=frozenset({"hash", "zset"}),
        purpose=(
            "Messages delivered to a worker and not yet acknowledged, with their delivery times.",
            "已投递给 worker 但尚未确认的消息，及其投递时间。",
        ),
        persists=True,
        setting="visibility_timeout",
        advice=(
            "Messages not acknowledged within `visibility_timeout` (default one hour) are restored to their queue; "
            "tasks with a long ETA or countdown wait here.",
            "超过 `visibility_timeout`（默认一小时）仍未确认的消息会被放回队列；"
            "ETA 或 countdown 较长的任务会在这里等待。",
        ),
        examples=("unacked", "unacked_index"),
        docs=_KOMBU,
        type_required=True,
    ),
    _kombu(
        id="kombu.unacked_mutex",
        versions=">=4.0",
        shapes=("unacked_mutex", "{rest}unacked_mutex"),
        types=frozenset({"string"}),
        purpose=(
            "Lets one worker at a time restore unacknowledged messages.",
            "保证同一时间只有一个 worker 恢复未确认的消息。",
        ),
        persists=False,
        setting="unacked_mutex_expire",
        advice=(
            "Expires after `unacked_mutex_expire` (default 300 s).",
            "在 `unacked_mutex_expire`（默认 300 秒）后过期。",
        ),
        examples=("unacked_mutex",),
        docs=_KOMBU,
    ),
    _kombu(
        id="kombu.reply_queue",
        versions=">=4.0",
        shapes=(
            "{uuid}.reply.celery.pidbox",
            "{rest}:{uuid}.reply.celery.pidbox",
            "{rest}.{uuid}.reply.celery.pidbox",
            "{rest}_{uuid}.reply.celery.pidbox",
            "{rest}-{uuid}.reply.celery.pidbox",
        ),
        types=frozenset({"list"}),
        purpose=(
            "Replies to remote-control commands (`celery inspect`, `control`).",
            "远程控制命令（`celery inspect`、`control`）的回复。",
        ),
        persists=False,
        setting="reply_queue_expires",
        advice=(
            "kombu 5.7 and later expire it after `reply_queue_expires` (default 10 s); before 5.7 an unread reply "
            "queue stays forever and must be deleted.",
            "kombu 5.7 及以后在 `reply_queue_expires`（默认 10 秒）后过期；5.7 之前未读的回复队列会永久留存，"
            "需要手动删除。",
        ),
        examples=("3b1d5a8e-6a59-3c3f-8f43-0c6e0e3c9d27.reply.celery.pidbox",),
        docs="https://github.com/celery/kombu/blob/main/kombu/pidbox.py",
    ),
)

_REDBEAT = "https://github.com/sibson/redbeat/blob/main/redbeat/schedulers.py"

REDBEAT: tuple[KeyFamily, ...] = (
    _celery_redbeat(
        id="celery-redbeat.schedule",
        versions=">=1.0",
        shapes=("redbeat::schedule", "redbeat::statics", "{prefix}::schedule", "{prefix}::statics"),
        types=frozenset({"zset", "set"}),
        purpose=(
            "Periodic task names by next run time, and the ones defined in configuration.",
            "按下次运行时间排列的周期任务名，以及配置文件中定义的任务。",
        ),
        persists=True,
        setting="",
        advice=("Kept on purpose while beat runs.", "beat 运行期间有意长期保留。"),
        examples=("redbeat::schedule", "redbeat::statics"),
        docs=_REDBEAT,
        proves_prefix=True,
    ),
    _celery_redbeat(
        id="celery-redbeat.lock",
        versions=">=1.0",
        shapes=("redbeat::lock", "{prefix}::lock"),
        types=frozenset({"string"}),
        purpose=("Lets one beat process at a time schedule tasks.", "保证同一时间只有一个 beat 进程调度任务。"),
        persists=False,
        setting="redbeat_lock_timeout",
        advice=(
            "Expires after `redbeat_lock_timeout` (default five times `beat_max_loop_interval`, 1,500 s).",
            "在 `redbeat_lock_timeout`（默认为 `beat_max_loop_interval` 的五倍，即 1500 秒）后过期。",
        ),
        examples=("redbeat::lock",),
        docs=_REDBEAT,
        proves_prefix=True,
    ),
    _celery_redbeat(
        id="celery-redbeat.entry",
        versions=">=1.0",
        shapes=("redbeat:{rest}",),
        types=frozenset({"hash"}),
        purpose=("One periodic task: its definition and last run.", "单个周期任务：定义及上次运行情况。"),
        persists=True,
        setting="",
        advice=(
            "Kept on purpose; `RedBeatSchedulerEntry.delete()` removes a task that should no longer run.",
            "有意长期保留；不再需要的任务用 `RedBeatSchedulerEntry.delete()` 删除。",
        ),
        examples=("redbeat:cleanup-every-hour", "redbeat:reports.send_daily"),
        docs=_REDBEAT,
    ),
)
