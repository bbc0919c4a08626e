"""TTL002 expiry-cliff."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, cast

from rediscipline import compiled
from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Example, Violation
from rediscipline.model.location import Location
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import (
    Accumulator,
    AggregateResult,
    AggregateRule,
    PartExample,
    RuleContext,
    earliest,
    examples_of,
    merge_table,
    prune_table,
    rule,
)
from rediscipline.rules.gate import when
from rediscipline.rules.options import RuleOptions, option

#: Keys with less than this left are not placed in one-second buckets: a pattern of short-lived keys
#: (locks, rate limiters with a few seconds of TTL) always has most of its keys due within seconds.
SECOND_HORIZON_MS = 60_000
#: Keys with less than this left are not placed in one-minute buckets: keys written continuously with a
#: TTL under two minutes always share a minute, while with ≥ 10 minutes left at most 1/10 of a steadily
#: written pattern can fall into one minute.
MINUTE_HORIZON_MS = 600_000
#: Patterns tracked at once; when full, the quarter with the fewest keys so far is dropped.
TRACKED_PATTERNS = 4096
#: Counters per pattern (Misra–Gries): a share is under-estimated by at most 1/(counters + 1).
SECOND_COUNTERS = 128
MINUTE_COUNTERS = 32
EXAMPLES = 3
#: The compiled twin of `_CliffAccumulator.add` (`_expiry_cliff.Adder`).
TWIN = "rediscipline.rules.ttl._expiry_cliff"


@dataclass(frozen=True)
class ExpiryCliffOptions(RuleOptions):
    min_keys: int = option(100, "Judge a pattern only when at least this many of its keys have a TTL.", minimum=1)
    max_share: float = option(
        0.10, "Warn when more than this share of a pattern's keys with a TTL expire in one second.", minimum=0
    )
    max_minute_share: float = option(
        0.5,
        "Warn when more than this share of a pattern's keys with a TTL expire in one minute (keys ≥ 10 min ahead).",
        minimum=0,
    )


#: A counter is one list: the count, then (part, name, origin) of each of the first EXAMPLES keys it counted,
#: flat, so that a new counter costs one allocation (most counters of a spread-out pattern live briefly).
_FULL = 1 + 3 * EXAMPLES


@dataclass(slots=True)
class _Buckets:
    """Keys per time bucket in at most `capacity` Misra–Gries counters, each with the first keys it counted.

    When a key falls into a new bucket and every counter is taken, all counters drop by one (empty ones are
    freed) and the key is not counted. Each drop discards `capacity + 1` keys, so it happens at most
    n / (capacity + 1) times: a count is never too high and at most n / (capacity + 1) too low, a bucket
    holding more than that share always survives, and the counts are exact while the pattern's keys fall
    into no more than `capacity` distinct buckets.

    Counters of two parts merge as Misra–Gries summaries do: counts add up, and when more than `capacity`
    remain, the (capacity + 1)-th largest count is taken off every counter and the empty ones freed, which
    keeps the same error bound; while the parts' keys fall into no more than `capacity` buckets in all, the
    merge is exact.
    """

    capacity: int
    counts: dict[int, list[Any]] = field(default_factory=dict)  # bucket → counter (see _FULL)

    def add(self, bucket: int, name: bytes, origin: Location, part: int) -> None:
        counts = self.counts
        counter = counts.get(bucket)
        if counter is not None:
            counter[0] += 1
            if len(counter) < _FULL:
                counter += (part, name, origin)
        elif len(counts) < self.capacity:
            counts[bucket] = [1, part, name, origin]
        else:
            self.counts = kept = {key: counter for key, counter in counts.items() if counter[0] > 1}
            for counter in kept.values():
                counter[0] -= 1

    def merge(self, other: _Buckets) -> None:
        counts = self.counts
        for bucket, theirs in other.counts.items():
            mine = counts.get(bucket)
            if mine is None:
                counts[bucket] = theirs
            else:
                mine[1:] = _flat(earliest(_examples(mine), _examples(theirs), EXAMPLES))
                mine[0] += theirs[0]
        if len(counts) > self.capacity:
            cut = sorted((counter[0] for counter in counts.values()), reverse=True)[self.capacity]
            kept = {}
            for bucket, counter in counts.items():
                if counter[0] > cut:
                    counter[0] -= cut
                    kept[bucket] = counter
            self.counts = kept

    def fullest(self) -> tuple[int, int, tuple[Example, ...]] | None:
        """(bucket, keys, first keys) of the fullest bucket, the earliest among equals; None when empty."""
        if not self.counts:
            return None
        bucket, counter = max(self.counts.items(), key=lambda item: (item[1][0], -item[0]))
        return bucket, counter[0], examples_of(_examples(counter))


def _examples(counter: list[Any]) -> list[PartExample]:
    return [(counter[i], Example(counter[i + 1], counter[i + 2])) for i in range(1, len(counter), 3)]


def _flat(examples: list[PartExample]) -> list[Any]:
    return [field for part, example in examples for field in (part, example.name, example.location)]


@dataclass(slots=True)
class _Pattern:
    keys: int = 0  # every key with a TTL, exact
    seconds: _Buckets = field(default_factory=lambda: _Buckets(SECOND_COUNTERS))
    minutes: _Buckets = field(default_factory=lambda: _Buckets(MINUTE_COUNTERS))

    def merge(self, other: _Pattern) -> None:
        self.keys += other.keys
        self.seconds.merge(other.seconds)
        self.minutes.merge(other.minutes)


def _keys(entry: _Pattern) -> int:
    return entry.keys


class _CliffAccumulator(Accumulator):
    """Expiry times per pattern, bucketed by second and by minute, in bounded memory (see `TRACKED_PATTERNS`)."""

    gate = when("ttl_ms", ">=", 0)  # keys with a TTL

    def __init__(self, options: ExpiryCliffOptions, capacity: int = TRACKED_PATTERNS) -> None:
        self.options = options
        self.capacity = capacity
        self.patterns: dict[bytes, _Pattern] = {}

    def add(self, fact: KeyFact, pattern: bytes) -> None:
        expire_at, left, name = fact.expire_at_ms, fact.ttl_ms, fact.name
        if expire_at is None or left is None or left < 0 or not isinstance(name, bytes):
            return
        entry = self.patterns.get(pattern)
        if entry is None:
            if len(self.patterns) >= self.capacity:
                prune_table(self.patterns, _keys)
            entry = self.patterns[pattern] = _Pattern()
        entry.keys += 1
        if left >= SECOND_HORIZON_MS:
            entry.seconds.add(expire_at // 1000, name, fact.origin, self.part)
        if left >= MINUTE_HORIZON_MS:
            entry.minutes.add(expire_at // 60_000, name, fact.origin, self.part)

    def twin_add(self) -> Callable[[KeyFact, bytes], None] | None:
        fast = compiled.load(TWIN)
        return None if fast is None else cast(Callable[[KeyFact, bytes], None], fast.Adder(self))

    def merge(self, other: Accumulator) -> None:
        assert isinstance(other, _CliffAccumulator)
        merge_table(self.patterns, other.patterns, self.capacity, _keys, _Pattern.merge)

    def finish(self) -> Iterator[AggregateResult]:
        opts = self.options
        for pattern, entry in self.patterns.items():
            if entry.keys < opts.min_keys:
                continue
            found = _cliff(pattern, "same-second", entry.seconds, entry.keys, opts.max_share)
            if found is None:
                found = _cliff(pattern, "same-minute", entry.minutes, entry.keys, opts.max_minute_share)
            if found is not None:
                yield found


#: code → (seconds per bucket, UTC layout, unit in English, unit in Chinese)
_UNITS = {
    "same-second": (1, "%Y-%m-%dT%H:%M:%SZ", "second", "秒"),
    "same-minute": (60, "%Y-%m-%dT%H:%MZ", "minute", "分钟"),
}


def _cliff(pattern: bytes, code: str, buckets: _Buckets, keys: int, limit: float) -> AggregateResult | None:
    """The finding for a pattern whose fullest bucket holds more than `limit` of its `keys`, else None."""
    fullest = buckets.fullest()
    if fullest is None or fullest[1] <= limit * keys:
        return None
    start, count, examples = fullest
    scale, layout, unit_en, unit_zh = _UNITS[code]
    when = datetime.fromtimestamp(start * scale, tz=timezone.utc).strftime(layout)
    share = count / keys
    message = Text(
        f"{count} of the pattern's {keys} keys with a TTL ({share:.1%}, limit {limit * 100:g}%) expire in the same "
        f"{unit_en}, {when}: a mass expiry blocks the main thread and sends every reader to the backend at "
        "once; add a random part to the TTL (for example ±10%)",
        f"该模式 {keys} 个带 TTL 的 Key 中有 {count} 个（{share:.1%}，上限 {limit * 100:g}%）在同一{unit_zh}过期"
        f"（{when}）：集中过期会阻塞主线程，并让所有读请求同时打到后端；请在 TTL 上加随机值（例如 ±10%）",
    )
    violation = Violation(code, message, value=round(share * 100, 1))
    return AggregateResult(pattern, violation, count, examples)


@rule(
    "TTL002",
    "expiry-cliff",
    title=("Many keys expire at the same moment", "大量 Key 集中过期"),
    severity=Severity.WARNING,
    where=("live", "rdb"),
    sources=(
        "000 §Key 名字如何设计 — 过期",
        "000 §该如何设计数据结构以避开大Key和热Key — 大文本",
        "001 §2.3 控制key的生命周期",
        "001 §过期时间",
        "003 §大批量Key过期引发的性能问题",
    ),
)
class ExpiryCliff(AggregateRule[ExpiryCliffOptions]):
    """Checks that the keys of a pattern do not all expire at the same moment.

    ## What it does
    Buckets the absolute expiry time of every key with a TTL by second and by minute, per key pattern.
    When a pattern has at least `min-keys` keys with a TTL and more than `max-share` of them expire in the
    same second, it is reported with that second (UTC) and the share. Otherwise, when more than
    `max-minute-share` of them expire in the same minute, it is reported with that minute.

    Keys written steadily with a fixed TTL expire steadily too, so only the keys that are due far enough
    ahead are bucketed: at least one minute ahead for the per-second check (locks and rate limiters with a
    few seconds of TTL are always due within seconds) and at least ten minutes ahead for the per-minute
    check (keys with TTLs under two minutes all fall into one or two minutes). A cliff that close is therefore not
    reported; every key with a TTL still counts in the share's denominator.

    Memory is bounded: at most 4096 patterns are tracked (when full, the quarter with the fewest keys is
    dropped), each with 128 per-second and 32 per-minute Misra–Gries counters. A share is exact while a
    pattern's keys fall into no more than that many distinct seconds (minutes); otherwise it may be
    under-estimated by at most 1/129 (1/33), so a reported cliff is always real. The examples are the first
    keys of the reported second (minute); among seconds with as many keys, the earliest is reported.

    ## Why is this bad?
    Redis deletes expired keys on its main thread. When a whole family of keys reaches its expiry together
    (a cache warmed in one batch job, a sale whose stock keys were all set with `EX 300`), the expiry cycle
    and the reads that find the keys gone compete with normal traffic: latency jumps, and every client
    reloads the data from the database at the same moment (a cache avalanche).

    ## Example
    A job run at 02:00 that refreshes every product cache within a few seconds:
    ```
    for id in products:
        SETEX product:cache:{id} 14400 {json}    # all due at 06:00
    ```

    ## Use instead
    ```
    for id in products:
        SETEX product:cache:{id} 14400+random(-1200, 1200) {json}
    ```
    Or spread the batch over time with offsets (003 方案3).

    ## Options
    - `min-keys`: judge a pattern only when at least this many of its keys have a TTL (default 100).
    - `max-share`: warn when more than this share of them expire in one second (default 0.10, the
      reference catalog's value).
    - `max-minute-share`: warn when more than this share of them, due at least 10 minutes ahead, expire in
      one minute (default 0.5).

    ## Source
    - 000 §过期: add a random value to TTLs, especially for keys written in bulk (flash sales, campaigns).
    - 000 §该如何设计数据结构以避开大Key和热Key — 大文本: when loading data, do not concentrate EXPIREAT on one
      timestamp; add random time.
    - 001 §2.3 and §过期时间: spread expiry times to prevent keys expiring together.
    - 003 §大批量Key过期引发的性能问题: mass expiry blocks the main thread and raises latency; use random
      TTLs (方案1) or batched offsets (方案3).
    """

    Options = ExpiryCliffOptions
    needs = frozenset({"ttl"})

    def accumulator(self, ctx: RuleContext[ExpiryCliffOptions]) -> Accumulator:
        return _CliffAccumulator(ctx.options)
