"""TTL003 ttl-range."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Example, Violation
from rediscipline.model.glob import GlobMatcher
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.location import SOURCE_RUNTIME
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_duration
from rediscipline.rules.base import (
    Accumulator,
    AggregateResult,
    AggregateRule,
    FactRule,
    PartExample,
    RuleContext,
    earliest,
    examples_of,
    merge_table,
    prune_table,
    rule,
)
from rediscipline.rules.gate import NEVER, Gate, when
from rediscipline.rules.options import RuleOptions, option

#: A pattern is `too-short` when none of its keys has even this share of the namespace's `ttl-min` left.
LEFT_SHARE = 0.5
#: Patterns followed for `too-short` at most (the ones with the most keys are kept).
PATTERN_CAP = 10_000
EXAMPLES = 3


@dataclass(frozen=True)
class TtlRangeOptions(RuleOptions):
    max_seconds: int = option(
        0, "Longest TTL in seconds outside namespaces that declare `ttl-max` (0 = no limit).", minimum=0
    )


@rule(
    "TTL003",
    "ttl-range",
    title=("TTL outside the allowed range", "过期时间超出允许范围"),
    severity=Severity.WARNING,
    where=("runtime", "live", "rdb"),
    sources=(
        "003 §Value设计原则 — 4. 设置合理的过期时间",
        "000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录",
        "002 §数据保存规范 — 规范三：在数据保存时，要设置过期时间",
    ),
)
class TtlRange(FactRule[TtlRangeOptions], AggregateRule[TtlRangeOptions]):
    """Checks that a key's TTL lies within the range declared for its namespace.

    ## What it does
    Compares the TTL of every key that has one with the `ttl-min` and `ttl-max` of its declared namespace
    (`[namespaces."session:*"] ttl-max = "24h"`), and with the global `max-seconds` for keys whose
    namespace declares no `ttl-max`. Keys without a TTL are left to `missing-ttl`.

    - `too-long`: a key has more TTL left than the maximum. What is left is at most what was set, so
      the TTL set was too long too.
    - `too-short`: no key of a key pattern has even half of its namespace's `ttl-min` left. On a live
      instance or a dump a key shows the time it has *left*, so one key close to its expiry proves
      nothing, but keys given at least the minimum keep some with more than half of it left for as long as
      any of them is written within that time. A TTL written in milliseconds for seconds (`PX 7200` for
      two hours) shows this way. The finding counts the pattern's keys with a TTL; one key is enough.

    At run time (the guard), the TTL each command gives as it is sent (SET with EX, PX, EXAT or PXAT,
    SETEX, PSETEX, GETEX, EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT) is judged for `too-long`, and for
    `too-short` against the namespace's `ttl-min` at once: a TTL given is exact, not what is left of it.

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
    - 000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录: set a reasonable expiry so that one key does
      not pile up long history.
    - 002 §规范三: set the expiry according to how long the business uses the data.
    """

    Options = TtlRangeOptions
    needs = frozenset({"ttl"})
    reads_namespace = frozenset({"ttl-min", "ttl-max"})

    def gate(self, ctx: RuleContext[TtlRangeOptions]) -> Gate:
        if ctx.namespace is None and not ctx.options.max_seconds:
            return NEVER
        return when("ttl_ms", ">=", 0)

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[TtlRangeOptions]) -> Violation | None:
        ttl_ms = fact.ttl_ms
        if ttl_ms is None or ttl_ms < 0:
            return None
        namespace = ctx.namespace
        if namespace is None and not ctx.options.max_seconds:
            return None  # nothing to compare with: the common case, decided before any text is built
        shortest = namespace.ttl_min_seconds if namespace is not None else None
        given = fact.origin.source == SOURCE_RUNTIME  # a TTL as given, not what is left of it
        if given and namespace is not None and shortest is not None and ttl_ms < shortest * 1000:
            return _given_too_short(ttl_ms, shortest, namespace)
        longest = namespace.ttl_max_seconds if namespace is not None else None
        if longest is None and ctx.options.max_seconds:
            longest, max_en, max_zh = ctx.options.max_seconds, "", ""
        elif namespace is not None:
            max_en, max_zh = f" for namespace {namespace.pattern}", f"命名空间 {namespace.pattern} 的"
        if longest is None or ttl_ms <= longest * 1000:
            return None
        ttl, limit = human_duration(ttl_ms // 1000), human_duration(longest)
        return Violation(
            "too-long",
            Text(
                f"TTL of {ttl.en} exceeds the maximum of {limit.en}{max_en}: shorten it so stale data "
                "does not stay in memory",
                f"TTL 为 {ttl.zh}，超过{max_zh}上限 {limit.zh}：请缩短，避免过期数据长期占用内存",
            ),
            value=ttl_ms // 1000,
        )

    def relevant(self, key: KeyTemplate, ctx: RuleContext[TtlRangeOptions]) -> bool:
        """Only keys of a namespace that declares `ttl-min` are followed for `too-short`."""
        return ctx.namespace is not None and ctx.namespace.ttl_min_seconds is not None

    def accumulator(self, ctx: RuleContext[TtlRangeOptions]) -> Accumulator:
        return _LeftAccumulator(ctx.namespaces)


@dataclass(slots=True)
class _Left:
    """The TTLs left of one pattern's keys: how many, the longest, a few of them."""

    keys: int = 0
    longest_ms: int = -1
    examples: list[PartExample] = field(default_factory=list)

    def merge(self, other: _Left) -> None:
        self.keys += other.keys
        self.longest_ms = max(self.longest_ms, other.longest_ms)
        self.examples = earliest(self.examples, other.examples, EXAMPLES)


def _keys(entry: _Left) -> int:
    return entry.keys


class _LeftAccumulator(Accumulator):
    """The longest TTL left per pattern, for keys of namespaces that declare `ttl-min`.

    The engine hands over the keys `relevant` chose, whatever their namespace; the namespace of a pattern
    is found once, at the end, from one of its keys, as the engine finds it for every key. Merging is exact
    while no part tracked more than PATTERN_CAP patterns.
    """

    gate = when("ttl_ms", ">=", 0)  # keys with a TTL

    def __init__(self, namespaces: tuple[NamespacePolicy, ...]) -> None:
        self.namespaces = namespaces
        self.patterns: dict[bytes, _Left] = {}

    def add(self, fact: KeyFact, pattern: bytes) -> None:
        left, name = fact.ttl_ms, fact.name
        if left is None or left < 0 or not isinstance(name, bytes):
            return
        entry = self.patterns.get(pattern)
        if entry is None:
            if len(self.patterns) >= PATTERN_CAP:
                prune_table(self.patterns, _keys)
            entry = self.patterns[pattern] = _Left()
        entry.keys += 1
        entry.longest_ms = max(entry.longest_ms, left)
        if len(entry.examples) < EXAMPLES:
            entry.examples.append((self.part, Example(name, fact.origin)))

    def merge(self, other: Accumulator) -> None:
        assert isinstance(other, _LeftAccumulator)
        merge_table(self.patterns, other.patterns, PATTERN_CAP, _keys, _Left.merge)

    def finish(self) -> Iterator[AggregateResult]:
        matcher = GlobMatcher([ns.pattern for ns in self.namespaces])
        for pattern, entry in self.patterns.items():
            if not entry.examples:
                continue
            index = matcher.match(entry.examples[0][1].name)
            shortest = self.namespaces[index].ttl_min_seconds if index is not None else None
            if shortest is None or entry.longest_ms >= shortest * 1000 * LEFT_SHARE:
                continue
            namespace = self.namespaces[index] if index is not None else None
            violation = _too_short(entry, shortest, namespace)
            yield AggregateResult(pattern, violation, entry.keys, examples_of(entry.examples))


def _given_too_short(ttl_ms: int, shortest: int, namespace: NamespacePolicy) -> Violation:
    """A TTL the application gives (seen by the runtime guard: exact, not what is left of it) below the
    namespace's minimum."""
    ttl, limit = human_duration(ttl_ms // 1000), human_duration(shortest)
    return Violation(
        "too-short",
        Text(
            f"TTL of {ttl.en} given, below the minimum of {limit.en} for namespace {namespace.pattern}: check the "
            "unit (seconds or milliseconds) and lengthen it",
            f"写入的 TTL 为 {ttl.zh}，低于命名空间 {namespace.pattern} 的下限 {limit.zh}：请检查单位（秒或毫秒）并加长",
        ),
        value=shortest - ttl_ms // 1000,
    )


def _too_short(entry: _Left, shortest: int, namespace: NamespacePolicy | None) -> Violation:
    left, limit = human_duration(entry.longest_ms // 1000), human_duration(shortest)
    where = namespace.pattern if namespace is not None else "?"
    keys_en = "its only key has" if entry.keys == 1 else f"the longest of its {entry.keys} keys with a TTL has"
    keys_zh = "唯一的 Key" if entry.keys == 1 else f"{entry.keys} 个带 TTL 的 Key 中最长的"
    return Violation(
        "too-short",
        Text(
            f"{keys_en} {left.en} left, below the minimum of {limit.en} for namespace {where}: keys are "
            "given less than the minimum; check the unit (seconds or milliseconds) and lengthen it",
            f"{keys_zh}剩余 TTL 为 {left.zh}，低于命名空间 {where} 的下限 {limit.zh}：写入时的 TTL 过短，"
            "请检查单位（秒或毫秒）并加长",
        ),
        value=shortest - entry.longest_ms // 1000,  # how far below the minimum
    )
