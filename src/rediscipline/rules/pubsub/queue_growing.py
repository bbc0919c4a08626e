"""PUB005 queue-growing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.display import QUOTE_LIMIT, display_bytes
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.traffic import TrafficView
from rediscipline.rules.base import RuleContext, SubjectViolation, TrafficRule, rule
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class QueueGrowingOptions(RuleOptions):
    min_growth: float = option(1.0, "Report a queue that grew by at least this many entries per second.", minimum=0)
    max_elements: int = option(5000, "The length a queue should stay under, for the time-to-limit estimate.", minimum=1)


@rule(
    "PUB005",
    "queue-growing",
    title=("Queue growing faster than it is consumed", "队列的增长快于消费"),
    severity=Severity.WARNING,
    where=("traffic",),
    sources=(
        "000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信",
        "000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录",
    ),
)
class QueueGrowing(TrafficRule[QueueGrowingOptions]):
    """Checks that the lists and streams used as queues are consumed as fast as they are filled.

    ## What it does
    Reports each queue (a list or stream named with `--queue`, declared as a namespace of one key, or read
    by blocking commands in the slow log) whose length grew by at least `min-growth` entries per second
    from the start of the observed window to its end. The message gives the growth, the length at the end
    and how long the queue takes at that rate to reach `max-elements`; the value is the growth per second.
    A queue that shrank or stayed level is consumed at least as fast as it is filled and is not reported.

    ## Why is this bad?
    A queue that grows for as long as the producers run has consumers that are too slow, stuck or gone. It
    becomes a big key (every element in memory, on one node), and when the consumers come back they drain a
    backlog at once: big replies that fill their output buffers until the server disconnects them, and a
    burst of work downstream. The sooner the imbalance is seen, the smaller the backlog.

    ## Example
    ```
    jobs:mail   list   1,200 → 1,480 entries in 10 s (+28/s), no consumer blocked on it
    ```

    ## Use instead
    Watch the queue's length and the producers' and consumers' rates, add consumers or slow the producers,
    and bound the list so that a stalled consumer cannot grow it without limit:
    ```python
    pipe = r.pipeline()
    pipe.lpush("jobs:mail", job)
    pipe.ltrim("jobs:mail", 0, 4999)
    pipe.execute()
    ```

    ## Options
    - `min-growth`: report a queue that grew by at least this many entries per second (default 1.0).
    - `max-elements`: the length a queue should stay under (default 5000, the element limit of a collection),
      for the time-to-limit the message gives.

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信: a list used as a message queue keeps production and
      consumption in balance, checks its length and trims it in time (要注意生产和消费保持平衡，并且通过 LEN
      检查长度，通过 LTRIM 对队列的长度进行控制，及时截断).
    - 000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录: watch the producers' and consumers'
      rates, or the queue's length, so that tasks do not pile up (避免任务堆积).
    """

    Options = QueueGrowingOptions

    def check(self, traffic: TrafficView, ctx: RuleContext[QueueGrowingOptions]) -> Iterator[SubjectViolation]:
        opts = ctx.options
        for queue in traffic.queues:
            growth = queue.growth_per_second(traffic.seconds)
            if growth is None or growth < opts.min_growth or growth <= 0 or queue.length_end is None:
                continue
            shown = display_bytes(queue.key, QUOTE_LIMIT)
            left = opts.max_elements - queue.length_end
            if left > 0:
                reach = Text(
                    f"at this rate it reaches {opts.max_elements:,} entries in {_duration(left / growth).en}",
                    f"按此速度将在 {_duration(left / growth).zh}后达到 {opts.max_elements:,} 个元素",
                )
            else:
                reach = Text(
                    f"it already holds more than {opts.max_elements:,} entries",
                    f"已经超过 {opts.max_elements:,} 个元素",
                )
            message = Text(
                f"queue {shown} ({queue.type}, db {queue.db}) grew from {queue.length_start:,} to "
                f"{queue.length_end:,} entries during the {traffic.seconds:g} s window (+{growth:,.1f}/s): "
                f"its consumers do not keep up; {reach.en}. Add consumers or slow the producers, and bound its "
                "length (LTRIM, XADD MAXLEN)",
                f"队列 {shown}（{queue.type}，db {queue.db}）在 {traffic.seconds:g} 秒的窗口内从 "
                f"{queue.length_start:,} 增长到 {queue.length_end:,} 个元素（每秒 +{growth:,.1f}）：消费跟不上生产；"
                f"{reach.zh}。请增加消费者或降低生产速度，并限制其长度（LTRIM、XADD MAXLEN）",
            )
            violation = Violation("growing", message, value=round(growth, 1))
            yield SubjectViolation(violation, f"queue db{queue.db} {shown}", queue.key)


def _duration(seconds: float) -> Text:
    """A rough duration: `40 s`, `12 min`, `3.5 h`, `2.0 days`."""
    if seconds < 120:
        return Text(f"{seconds:.0f} s", f"{seconds:.0f} 秒")
    if seconds < 7200:
        return Text(f"{seconds / 60:.0f} min", f"{seconds / 60:.0f} 分钟")
    if seconds < 172800:
        return Text(f"{seconds / 3600:.1f} h", f"{seconds / 3600:.1f} 小时")
    return Text(f"{seconds / 86400:.1f} days", f"{seconds / 86400:.1f} 天")
