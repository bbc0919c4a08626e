"""PUB006 stream-group-lag."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.display import QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.traffic import TrafficView
from rediscipline.rules.base import RuleContext, SubjectViolation, TrafficRule, rule
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class StreamGroupLagOptions(RuleOptions):
    max_lag: int = option(1000, "Report a consumer group with at least this many entries not yet read.", minimum=1)
    max_pending: int = option(
        1000, "Report a consumer group with at least this many entries read but not acknowledged.", minimum=1
    )


@rule(
    "PUB006",
    "stream-group-lag",
    title=("Stream consumer group falling behind", "Stream 消费组积压"),
    severity=Severity.WARNING,
    where=("traffic",),
    sources=("000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录",),
)
class StreamGroupLag(TrafficRule[StreamGroupLagOptions]):
    """Checks that the consumer groups of the streams used as queues keep up.

    ## What it does
    Reads `XINFO GROUPS` of each stream used as a queue when the observed window ends, and reports a group
    whose lag (entries added to the stream that the group has not read yet) is at least `max-lag` (code
    `lag`), or whose pending list (entries delivered to a consumer and never acknowledged with XACK) holds
    at least `max-pending` entries (code `pending`). The value is the lag or the pending count. A lag the
    server cannot tell (before Redis 7.0, or after XDEL or trimming left gaps) is unknown, and is not
    reported as a lag of 0.

    ## Why is this bad?
    A lagging group processes the stream later and later: the entries it has not read stay in memory (the
    stream cannot be trimmed past them without losing them), and whatever waits for them is late. A long
    pending list means consumers that read entries and crashed or forgot to acknowledge them: those entries
    are never processed unless someone claims them (XAUTOCLAIM), and the list itself grows without bound.

    ## Example
    ```
    events:orders  group billing  lag 12,400, pending 3,100 (2 consumers)
    ```

    ## Use instead
    Add consumers to the group, acknowledge every entry once processed, and claim the entries of dead
    consumers:
    ```python
    for stream, entries in r.xreadgroup("billing", worker, {"events:orders": ">"}, count=100, block=5000):
        for entry_id, fields in entries:
            handle(fields)
            r.xack("events:orders", "billing", entry_id)
    r.xautoclaim("events:orders", "billing", worker, min_idle_time=60_000)
    ```

    ## Options
    - `max-lag`: report a group with at least this many entries not yet read (default 1000).
    - `max-pending`: report a group with at least this many entries read but not acknowledged (default
      1000).

    ## Source
    - 000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录: watch the producers' and consumers'
      rates, or the queue's length, so that tasks do not pile up (避免任务堆积).
    """

    Options = StreamGroupLagOptions

    def check(self, traffic: TrafficView, ctx: RuleContext[StreamGroupLagOptions]) -> Iterator[SubjectViolation]:
        opts = ctx.options
        for queue in traffic.queues:
            shown = display_bytes(queue.key, QUOTE_LIMIT)
            for group in queue.groups:
                name = display_text(group.name, QUOTE_LIMIT)
                subject = f"stream db{queue.db} {shown} group {name}"
                if group.lag is not None and group.lag >= opts.max_lag:
                    message = Text(
                        f"consumer group {name} of stream {shown} has {group.lag:,} entries it has not read yet "
                        f"({group.consumers} consumers, {group.pending:,} pending): it falls behind the "
                        "producers; add consumers to the group",
                        f"Stream {shown} 的消费组 {name} 还有 {group.lag:,} 条消息未读（{group.consumers} 个消费者，"
                        f"{group.pending:,} 条待确认）：消费落后于生产；请为该组增加消费者",
                    )
                    yield SubjectViolation(Violation("lag", message, value=group.lag), subject, queue.key)
                if group.pending >= opts.max_pending:
                    message = Text(
                        f"consumer group {name} of stream {shown} has {group.pending:,} entries delivered and "
                        "never acknowledged: consumers that crashed or forgot XACK; acknowledge each entry once "
                        "processed and claim the dead consumers' entries (XAUTOCLAIM)",
                        f"Stream {shown} 的消费组 {name} 有 {group.pending:,} 条消息已投递但从未确认：消费者崩溃或"
                        "忘记 XACK；请在处理后确认每条消息，并认领失效消费者的消息（XAUTOCLAIM）",
                    )
                    yield SubjectViolation(Violation("pending", message, value=group.pending), subject, queue.key)
