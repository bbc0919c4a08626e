"""CMD010 scan-count."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.key.template_parts import show
from rediscipline.rules.options import RuleOptions, option

#: redis-py methods that page through a keyspace or a collection with a cursor.
SCAN_METHODS = frozenset({"scan", "scan_iter", "hscan", "hscan_iter", "sscan", "sscan_iter", "zscan", "zscan_iter"})


@dataclass(frozen=True)
class ScanCountOptions(RuleOptions):
    min_count: int = option(0, "Smallest literal count accepted (0: no lower bound).", minimum=0)
    max_count: int = option(0, "Largest literal count accepted (0: no upper bound).", minimum=0)


def _head(call: CodeCall) -> Text:
    """The start of the message: the method and what it walks (the collection's key, the MATCH pattern)."""
    method = call.method
    if call.keys:
        key = f"`{show(call.keys[0].pattern)}`"
        return Text(f"{method} over {key}", f"{method}（{key}）")
    match = call.literal("match")
    if isinstance(match, str):
        match = match.encode("utf-8", "surrogatepass")
    if isinstance(match, bytes):
        pattern = f"`{show(match)}`"
        return Text(f"{method} matching {pattern}", f"{method}（匹配 {pattern}）")
    return Text(method, f"{method} ")


@rule(
    "CMD010",
    "scan-count",
    title=("SCAN without a suitable COUNT", "SCAN 未设置合适的 COUNT"),
    severity=Severity.WARNING,
    where=("code", "runtime"),
    sources=(
        "001 §命令使用 — 1. 禁止使用的命令",
        "002 §命令使用规范 — 规范一：线上禁用部分命令",
    ),
)
class ScanCount(CallRule[ScanCountOptions]):
    """Checks that cursor scans say how much to read per call.

    ## What it does
    Reports `scan`, `scan_iter`, `hscan`, `hscan_iter`, `sscan`, `sscan_iter`, `zscan` and `zscan_iter`
    calls without `count` (code `no-count`); a call that passes unpacked arguments (`**kwargs`, `*args`)
    may pass `count` through them and is not reported. With `min-count` or `max-count` set, a literal
    count below or above them is reported too (codes `count-low` and `count-high`); in code, a count
    computed at run time is not judged. At run time (the guard), every SCAN, HSCAN, SSCAN and ZSCAN sent
    (each page of a `scan_iter`) is judged with the COUNT it really carries.

    ## Why is this bad?
    Without COUNT the server looks at about 10 entries per call. Walking a keyspace of a million keys
    then takes 100 000 round trips: at 0.5 ms each, almost a minute for what a COUNT of 1000 does in
    about a second. A huge COUNT goes the other way and blocks the server per call as KEYS would.

    ## Example
    ```python
    for key in r.scan_iter(match="session:*"):
        ...
    ```

    ## Use instead
    ```python
    for key in r.scan_iter(match="session:*", count=1000):
        ...
    ```

    ## Options
    - `min-count`: smallest literal count accepted (default 0: no lower bound).
    - `max-count`: largest literal count accepted (default 0: no upper bound; the tencent preset advises
      about 1000, the aws preset reports more than 100 000).

    ## Source
    - 001 §命令使用 — 1. 禁止使用的命令: use scan, hscan, sscan and zscan to process progressively.
    - 002 §命令使用规范 — 规范一：线上禁用部分命令: SCAN returns matching keys in batches instead of KEYS.
    """

    Options = ScanCountOptions

    def check(self, call: CodeCall, ctx: RuleContext[ScanCountOptions]) -> Iterator[Violation]:
        if call.method not in SCAN_METHODS:
            return
        head = _head(call)
        if not call.may_give("count"):
            yield Violation(
                "no-count",
                Text(
                    f"{head.en} has no count: the server reads about 10 entries per call (COUNT 10), so a "
                    "large keyspace or collection takes one round trip per 10 entries; pass count= (e.g. "
                    "count=1000)",
                    f"{head.zh}未指定 count：服务端每次只读取约 10 个条目（COUNT 10），遍历大的键空间或集合"
                    "需要大量网络往返；请传入 count=（如 count=1000）",
                ),
            )
            return
        count = call.literal("count")
        if isinstance(count, bool) or not isinstance(count, int):
            return
        low, high = ctx.options.min_count, ctx.options.max_count
        if low and count < low:
            yield Violation(
                "count-low",
                Text(
                    f"{head.en} uses count={count}, below {low}: it takes one round trip per {count} "
                    f"entries; pass count={low} or more",
                    f"{head.zh}的 count={count} 小于 {low}：每 {count} 个条目就要一次网络往返；请设置 count≥{low}",
                ),
                value=count,
            )
        elif high and count > high:
            yield Violation(
                "count-high",
                Text(
                    f"{head.en} uses count={count}, above {high}: each call blocks the server like a "
                    f"KEYS over that many entries; pass count={high} or less",
                    f"{head.zh}的 count={count} 大于 {high}：每次调用都会像 KEYS 一样阻塞服务端；请设置 count≤{high}",
                ),
                value=count,
            )
