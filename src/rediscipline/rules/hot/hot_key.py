"""HOT001 hot-key."""

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
class HotKeyOptions(RuleOptions):
    max_ops_per_second: int = option(
        3000, "Report a key accessed at least this many times per second during the window.", minimum=1
    )


@rule(
    "HOT001",
    "hot-key",
    title=("Hot key served by one node", "热点 Key 只由一个节点服务"),
    severity=Severity.WARNING,
    where=("traffic",),
    sources=("000 §该如何设计数据结构以避开大Key和热Key — 热门场景",),
)
class HotKeyRule(TrafficRule[HotKeyOptions]):
    """Checks that no single key takes a large rate of accesses.

    ## What it does
    Reports each key accessed at least `max-ops-per-second` times per second during the observed window
    (`rediscipline traffic`), as the best source the server offers measured it: with `--monitor`, the
    accesses a MONITOR sample counted (a Space-Saving sketch: the message gives its error bound when there is
    one); otherwise, under an LFU eviction policy, the growth of the key's access counter (`OBJECT FREQ`)
    from the start of the window to its end. The
    finding's subject is the key (its database and name, escaped), its value the accesses per second; a rate
    from a counter at its ceiling is a lower bound and the message says so.

    ## Why is this bad?
    A key lives in one slot of one node: every read of it lands on that node's single command thread,
    whatever the size of the cluster. A few thousand accesses per second to one key is a share of that
    node's capacity that no resharding can spread; when the key is also big, the bytes it returns saturate
    the node's network first. A burst on that key (a sale, a live event) then slows every other key of the
    node, and the cluster is as fast as its hottest key.

    ## Example
    ```
    HGETALL live:room:8801:goods      6,200 times per second, on one node
    ```

    ## Use instead
    Keep several copies of a hot key, as many as the cluster has shards or more, and read one at random
    (write all of them, or rebuild a missing copy from the database); or cache it in the application for a
    second:
    ```python
    copy = random.randrange(COPIES)
    goods = r.hgetall(f"live:room:8801:goods:{copy}") or load_and_fill(room, copy)
    ```

    ## Options
    - `max-ops-per-second`: report a key accessed at least this many times per second during the window
      (default 3000, the rate at which Alibaba Cloud's Tair calls a key hot).

    ## Source
    - 000 §该如何设计数据结构以避开大Key和热Key — 热门场景: hot data (a live room's goods, a match's schedule)
      is stored in several copies and one is read at random; if it is missing, it is written back from the
      database (同样的数据存多份备份，随机读一个，读不到再从 DB 回写).
    """

    Options = HotKeyOptions

    def check(self, traffic: TrafficView, ctx: RuleContext[HotKeyOptions]) -> Iterator[SubjectViolation]:
        limit = ctx.options.max_ops_per_second
        for hot in traffic.hot_keys:
            rate = hot.ops_per_second
            if rate is None or rate < limit:
                continue
            shown = display_bytes(hot.key, QUOTE_LIMIT)
            at_least = Text("at least ", "至少 ") if hot.saturated else Text("", "")
            within = f" ± {hot.ops_error:,.0f}" if hot.ops_error >= 1 else ""
            message = Text(
                f"key {shown} (db {hot.db}) was accessed {at_least.en}{rate:,.0f}{within} times per second during "
                f"the window ({hot.source}; the limit is {limit:,}): one node's only command thread serves every "
                "one of them; keep several copies and read one at random, or cache it in the application",
                f"Key {shown}（db {hot.db}）在观察窗口内每秒被访问{at_least.zh}{rate:,.0f}{within} 次"
                f"（{hot.source}；上限 {limit:,}）：全部由一个节点唯一的命令线程处理；"
                "请存多份副本并随机读取其中一份，或在应用内缓存",
            )
            yield SubjectViolation(Violation("hot-key", message, value=rate), f"key db{hot.db} {shown}", hot.key)
