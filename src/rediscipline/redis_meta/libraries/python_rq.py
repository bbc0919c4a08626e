"""Key families of rq jobs, results, queues and registries (prefix `rq:`; rq 3 reads another from `RQ_KEY_PREFIX`).

Read from rq 1.10, 1.16, 2.6 and 3.0 (`rq/job.py`, `rq/results.py`, `rq/queue.py`, `rq/intermediate_queue.py`,
`rq/registry.py`), and checked by enqueueing, running, failing, deferring, scheduling and canceling jobs
against a real server. Job ids may not contain `:` (rq rejects them), so a job id is one `{name}`. The
dependencies set really has two colons after `job`.
"""

from __future__ import annotations

from functools import partial

from rediscipline.redis_meta.libraries.schema import KeyFamily

_rq = partial(KeyFamily, library="rq", ecosystem="python")

_SRC = "https://github.com/rq/rq/blob/master/rq/"

RQ: tuple[KeyFamily, ...] = (
    _rq(
        id="rq.job_dependents",
        versions=">=1.0",
        shapes=("rq:job:{name}:dependents", "{prefix}:job:{name}:dependents"),
        types=frozenset({"set"}),
        purpose=("Ids of the jobs waiting for this job to finish.", "等待该任务完成的后续任务 id。"),
        persists=False,
        setting="result_ttl",
        advice=(
            "Expires with its job: set `result_ttl` (default 500 s) and `failure_ttl` (default one year).",
            "随任务一起过期：设置 `result_ttl`（默认 500 秒）和 `failure_ttl`（默认一年）。",
        ),
        examples=("rq:job:f86f2e4a-c120-4a2e-bc16-cf668f2d9f06:dependents",),
        docs=_SRC + "job.py",
        proves_prefix=True,
    ),
    _rq(
        id="rq.job_dependencies",
        versions=">=1.2",
        shapes=("rq:job::{name}:dependencies", "{prefix}:job::{name}:dependencies"),
        types=frozenset({"set"}),
        purpose=("Ids of the jobs this job depends on.", "该任务所依赖的前置任务 id。"),
        persists=False,
        setting="result_ttl",
        advice=(
            "Expires with its job: set `result_ttl` (default 500 s) and `failure_ttl` (default one year).",
            "随任务一起过期：设置 `result_ttl`（默认 500 秒）和 `failure_ttl`（默认一年）。",
        ),
        examples=("rq:job::8742e215-da0e-4ced-adc9-3c37ac539ab7:dependencies",),
        docs=_SRC + "job.py",
        proves_prefix=True,
    ),
    _rq(
        id="rq.job",
        versions=">=1.0",
        shapes=("rq:job:{name}",),
        types=frozenset({"hash"}),
        purpose=("One job: function, arguments, status and timestamps.", "单个任务：函数、参数、状态和时间戳。"),
        persists=False,
        setting="result_ttl",
        advice=(
            "Pass `result_ttl` (default 500 s), `failure_ttl` (default one year) and `ttl` (default none: a queued "
            "job never expires) when enqueueing; `result_ttl=-1` keeps finished jobs forever.",
            "入队时传 `result_ttl`（默认 500 秒）、`failure_ttl`（默认一年）和 `ttl`（默认不设，"
            "排队中的任务永不过期）；"
            "`result_ttl=-1` 会让已完成的任务永久保留。",
        ),
        examples=("rq:job:0f0e7d7c-b98b-482e-8d34-94eab22686ae", "rq:job:nightly-report"),
        docs=_SRC + "job.py",
    ),
    _rq(
        id="rq.results",
        versions=">=1.12",
        shapes=("rq:results:{name}",),
        types=frozenset({"stream"}),
        purpose=("The last results of a job (at most 10 entries).", "任务最近的执行结果（最多 10 条）。"),
        persists=False,
        setting="result_ttl",
        advice=(
            "Expires after `result_ttl` (default 500 s) or `failure_ttl` for failures (default one year).",
            "在 `result_ttl`（默认 500 秒）后过期，失败结果按 `failure_ttl`（默认一年）过期。",
        ),
        examples=("rq:results:4c38b78d-4ab0-4bde-9766-4df9c01fefb7",),
        docs=_SRC + "results.py",
    ),
    _rq(
        id="rq.queues",
        versions=">=1.0",
        shapes=("rq:queues",),
        types=frozenset({"set"}),
        purpose=("The keys of every known queue.", "所有已知队列的键名。"),
        persists=True,
        setting="",
        advice=(
            "Kept on purpose; `Queue.delete()` removes a queue that is no longer used.",
            "有意长期保留；不再使用的队列用 `Queue.delete()` 删除。",
        ),
        examples=("rq:queues",),
        docs=_SRC + "queue.py",
    ),
    _rq(
        id="rq.intermediate_first_seen",
        versions=">=1.16.2",
        shapes=("rq:queue:{name}:intermediate:first_seen:{name}",),
        types=frozenset({"string"}),
        purpose=(
            "When a worker's maintenance first saw a job stuck in the intermediate queue.",
            "worker 维护任务首次发现某任务卡在中转队列中的时间。",
        ),
        persists=False,
        setting="",
        advice=("Expires after one day by itself (fixed in rq).", "一天后自动过期（rq 内部固定值）。"),
        examples=("rq:queue:default:intermediate:first_seen:7cd5c213-363a-4054-ab7d-9b87b7cedc72",),
        docs=_SRC + "intermediate_queue.py",
    ),
    _rq(
        id="rq.intermediate_queue",
        versions=">=1.15",
        shapes=("rq:queue:{name}:intermediate", "{prefix}:queue:{name}:intermediate"),
        types=frozenset({"list"}),
        purpose=(
            "Jobs a worker has popped but not yet registered as started.",
            "worker 已取出、尚未登记为执行中的任务。",
        ),
        persists=True,
        setting="",
        advice=(
            "Should stay nearly empty; growth means workers die between dequeue and start.",
            "正常情况下几乎为空；持续增长说明 worker 在取出任务和开始执行之间崩溃。",
        ),
        examples=("rq:queue:default:intermediate",),
        docs=_SRC + "intermediate_queue.py",
        proves_prefix=True,
    ),
    _rq(
        id="rq.queue",
        versions=">=1.0",
        shapes=("rq:queue:{name}",),
        types=frozenset({"list"}),
        purpose=("The ids of the jobs waiting in one queue.", "某个队列中等待执行的任务 id。"),
        persists=True,
        setting="ttl",
        advice=(
            "A queue is meant to persist; if it keeps growing add workers, and give jobs a `ttl` (default none) so "
            "jobs that waited too long are dropped.",
            "队列本应长期存在；若持续增长请增加 worker，并为任务设置 `ttl`（默认不设），让等待过久的任务被丢弃。",
        ),
        examples=("rq:queue:default", "rq:queue:reports"),
        docs=_SRC + "queue.py",
    ),
    _rq(
        id="rq.started_registry",
        versions=">=1.0",
        shapes=("rq:wip:{name}",),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs being executed in one queue (StartedJobRegistry).",
            "某队列中正在执行的任务（StartedJobRegistry）。",
        ),
        persists=True,
        setting="job_timeout",
        advice=(
            "Entries leave when jobs end or time out (`job_timeout`, default 180 s); the worker cleans the rest.",
            "任务结束或超时（`job_timeout`，默认 180 秒）时移出；其余由 worker 定期清理。",
        ),
        examples=("rq:wip:default",),
        docs=_SRC + "registry.py",
    ),
    _rq(
        id="rq.finished_registry",
        versions=">=1.0",
        shapes=("rq:finished:{name}",),
        types=frozenset({"zset"}),
        purpose=("Jobs that finished, scored by when they expire.", "已完成的任务，分值为其过期时间。"),
        persists=True,
        setting="result_ttl",
        advice=(
            "Entries are cleaned after `result_ttl` (default 500 s); a `result_ttl=-1` job stays forever.",
            "条目在 `result_ttl`（默认 500 秒）后被清理；`result_ttl=-1` 的任务会永久留存。",
        ),
        examples=("rq:finished:default",),
        docs=_SRC + "registry.py",
    ),
    _rq(
        id="rq.failed_registry",
        versions=">=1.0",
        shapes=("rq:failed:{name}",),
        types=frozenset({"zset"}),
        purpose=("Jobs that failed, scored by when they expire.", "执行失败的任务，分值为其过期时间。"),
        persists=True,
        setting="failure_ttl",
        advice=(
            "Entries are cleaned after `failure_ttl` (default one year); lower it to keep the registry small.",
            "条目在 `failure_ttl`（默认一年）后被清理；调小该值可控制失败记录的规模。",
        ),
        examples=("rq:failed:default",),
        docs=_SRC + "registry.py",
    ),
    _rq(
        id="rq.deferred_registry",
        versions=">=1.0",
        shapes=("rq:deferred:{name}",),
        types=frozenset({"zset"}),
        purpose=("Jobs waiting for their dependencies.", "等待依赖任务完成的任务。"),
        persists=True,
        setting="",
        advice=(
            "Entries leave when their dependencies finish; a job whose dependency failed stays deferred.",
            "依赖完成后条目移出；依赖失败的任务会一直停留在这里。",
        ),
        examples=("rq:deferred:default",),
        docs=_SRC + "registry.py",
    ),
    _rq(
        id="rq.scheduled_registry",
        versions=">=1.2",
        shapes=("rq:scheduled:{name}",),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs scheduled for later (`enqueue_at`, `enqueue_in`).",
            "计划稍后执行的任务（`enqueue_at`、`enqueue_in`）。",
        ),
        persists=True,
        setting="",
        advice=(
            "Entries move to the queue when due, if a worker runs with `--with-scheduler`.",
            "到期后由带 `--with-scheduler` 的 worker 移入队列。",
        ),
        examples=("rq:scheduled:reports",),
        docs=_SRC + "registry.py",
    ),
    _rq(
        id="rq.canceled_registry",
        versions=">=1.10",
        shapes=("rq:canceled:{name}",),
        types=frozenset({"zset"}),
        purpose=("Jobs that were canceled.", "已取消的任务。"),
        persists=True,
        setting="",
        advice=(
            "Entries are kept until the jobs are deleted (`job.delete()` or `registry.remove(job, delete_job=True)`).",
            "条目会一直保留，直到任务被删除（`job.delete()` 或 `registry.remove(job, delete_job=True)`）。",
        ),
        examples=("rq:canceled:reports",),
        docs=_SRC + "registry.py",
    ),
    _rq(
        id="rq.ready_registry",
        versions=">=3.0",
        shapes=("rq:ready:{name}",),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs whose dependencies are met, on their way to the queue.",
            "依赖已满足、正被移入队列的任务。",
        ),
        persists=True,
        setting="",
        advice=(
            "Transient: the worker's maintenance moves leftovers to the queue.",
            "过渡状态：残留条目由 worker 维护任务移入队列。",
        ),
        examples=("rq:ready:default",),
        docs=_SRC + "registry.py",
    ),
)
