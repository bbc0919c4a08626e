"""TTL003 ttl-range."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.location import SOURCE_CODE, SOURCE_RUNTIME
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions, option

#: Sources whose `ttl_ms` is the TTL being set. A live or dump TTL is what is left of it: a lower bound of
#: the TTL that was set, so it can prove a TTL too long but never too short.
AS_WRITTEN = (SOURCE_CODE, SOURCE_RUNTIME)
_UNITS = ((86400, "d", "天"), (3600, "h", "小时"), (60, "min", "分钟"), (1, "s", "秒"))


@dataclass(frozen=True)
class TtlRangeOptions(RuleOptions):
    max_seconds: int = option(
        0, "Longest TTL in seconds outside namespaces that declare `ttl-max` (0 = no limit).", minimum=0
    )


def duration(seconds: int) -> Text:
    """`10 d 3 h`, `45 min`: the largest non-zero unit and the next one unless it is zero, truncated."""
    en: list[str] = []
    zh: list[str] = []
    rest = seconds
    for size, unit_en, unit_zh in _UNITS:
        amount, rest = divmod(rest, size)
        if amount:
            en.append(f"{amount} {unit_en}")
            zh.append(f"{amount} {unit_zh}")
        if len(en) == 2 or (en and not amount):
            break
    if not en:
        return Text("0 s", "0 秒")
    return Text(" ".join(en), " ".join(zh))


@rule(
    "TTL003",
    "ttl-range",
    title=("TTL outside the allowed range", "过期时间超出允许范围"),
    severity=Severity.WARNING,
    where=("runtime", "live", "rdb"),
    sources=(
        "003 §Value设计原则 — 4. 设置合理的过期时间",
        "000 §消息队列或任务记录",
        "002 §数据保存规范 — 规范三：在数据保存时，要设置过期时间",
    ),
)
class TtlRange(FactRule[TtlRangeOptions]):
    """Checks that a key's TTL lies within the range declared for its namespace.

    ## What it does
    Compares the TTL of every key that has one with the `ttl-min` and `ttl-max` of its declared namespace
    (`[namespaces."session:*"] ttl-max = "24h"`), and with the global `max-seconds` for keys whose
    namespace declares no `ttl-max`. A TTL above the maximum is `too-long`; one below the minimum is
    `too-short`. Keys without a TTL are left to `missing-ttl`.

    On a live instance or a dump, a key's TTL is the time it has *left*, which is at most the TTL it was
    given. So it proves a TTL too long, but a key close to its expiry says nothing about the TTL it was
    set with: `too-short` is only checked where the TTL is seen as it is set (the runtime guard).

    ## Why is this bad?
    The TTL encodes how long the data stays useful. One far above the declared range keeps stale data in
    memory and grows history in a key (000: avoid piling up long history in one key); one far below it
    turns a cache into a stream of misses and reloads. Both usually mean a unit mistake (seconds for
    milliseconds, days for hours) or a forgotten constant.

    ## Example
    With `[namespaces."session:*"] ttl-min = "10m"` and `ttl-max = "24h"`:
    ```
    SET session:token:abc123 "..." EX 2592000   # 30 days
    SET session:token:def456 "..." PX 7200      # 7.2 seconds: milliseconds meant as seconds
    ```

    ## Use instead
    ```
    SET session:token:abc123 "..." EX 7200
    ```

    ## Options
    - `max-seconds`: the longest TTL, in seconds, for keys whose namespace declares no `ttl-max` (default
      0: no limit). 51ak's team standard caps every TTL at 10 days (864000).

    ## Source
    - 003 §4. 设置合理的过期时间: TTLs per data class (codes 5 min, sessions 2 h, product caches 24 h).
    - 000 §消息队列或任务记录: set a reasonable expiry so that one key does not pile up long history.
    - 002 §规范三: set the expiry according to how long the business uses the data.
    """

    Options = TtlRangeOptions
    needs = frozenset({"ttl"})

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[TtlRangeOptions]) -> Violation | None:
        ttl_ms = fact.ttl_ms
        if ttl_ms is None or ttl_ms < 0:
            return None
        namespace = ctx.namespace
        if namespace is None and not ctx.options.max_seconds:
            return None  # nothing to compare with: the common case, decided before any text is built
        of_en = f" for namespace {namespace.pattern}" if namespace is not None else ""
        of_zh = f"命名空间 {namespace.pattern} 的" if namespace is not None else ""
        ttl = duration(ttl_ms // 1000)
        longest = namespace.ttl_max_seconds if namespace is not None else None
        if longest is None and ctx.options.max_seconds:
            longest, max_en, max_zh = ctx.options.max_seconds, "", ""
        else:
            max_en, max_zh = of_en, of_zh
        if longest is not None and ttl_ms > longest * 1000:
            limit = duration(longest)
            return Violation(
                "too-long",
                Text(
                    f"TTL of {ttl.en} exceeds the maximum of {limit.en}{max_en}: shorten it so stale data "
                    "does not stay in memory",
                    f"TTL 为 {ttl.zh}，超过{max_zh}上限 {limit.zh}：请缩短，避免过期数据长期占用内存",
                ),
                value=ttl_ms // 1000,
            )
        shortest = namespace.ttl_min_seconds if namespace is not None else None
        if shortest is not None and ttl_ms < shortest * 1000 and fact.origin.source in AS_WRITTEN:
            limit = duration(shortest)
            return Violation(
                "too-short",
                Text(
                    f"TTL of {ttl.en} is below the minimum of {limit.en}{of_en}: check the unit (seconds or "
                    "milliseconds) and lengthen it",
                    f"TTL 为 {ttl.zh}，低于{of_zh}下限 {limit.zh}：请检查单位（秒或毫秒）并加长",
                ),
                value=shortest - ttl_ms // 1000,  # how far below: the worst example is the shortest TTL
            )
        return None
