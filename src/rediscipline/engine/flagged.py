"""How many keys have a warning or an error: per-key findings exactly, keys behind aggregate findings too.

A per-key finding (a name or fact rule) flags the key it judged, once however many rules it breaks. An
aggregate finding (an expiry cliff, a hash-tag slot skew, objects stored as strings) reports a count of keys
of a pattern at the end, without naming them, so which of them were already flagged is unknown. They are
added per pattern, at most up to that pattern's keys not already flagged: exact when the pattern has no
per-key warning or when the aggregate covers all its keys, otherwise an upper bound. A pattern an aggregate
names that holds no key itself (a family `user:*` over several patterns) is bounded by the whole keyspace.

The counts of several parts of a run merge by adding up (`FlaggedKeys.merge`), per pattern as recorded:
`fold` then resolves every pattern through the merged pattern table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

#: Distinct patterns counted before they are folded into their current (merged) pattern.
FOLD_AT = 100_000


class FlaggedKeys:
    """`canonical` maps a pattern recorded earlier to the one it was merged into (`PatternTable.canonical`)."""

    def __init__(self, canonical: Callable[[bytes], bytes]) -> None:
        self.keys = 0  # keys with a per-key warning or error
        self._canonical = canonical
        self._by_pattern: dict[bytes, int] = {}

    def add(self, pattern: bytes) -> None:
        self.keys += 1
        by_pattern = self._by_pattern
        count = by_pattern.get(pattern)
        if count is None:
            if len(by_pattern) >= FOLD_AT:
                self.fold()
            by_pattern = self._by_pattern
            count = 0
        by_pattern[pattern] = count + 1

    def merge(self, other: FlaggedKeys) -> None:
        """Add another part's counts; `other` is spent."""
        self.keys += other.keys
        by_pattern = self._by_pattern
        for pattern, count in other._by_pattern.items():
            by_pattern[pattern] = by_pattern.get(pattern, 0) + count
        if len(by_pattern) >= FOLD_AT:
            self.fold()

    def fold(self) -> None:
        """Move counts to the patterns they were merged into (keeps the table as small as the pattern table)."""
        folded: dict[bytes, int] = {}
        canonical = self._canonical
        for pattern, count in self._by_pattern.items():
            target = canonical(pattern)
            folded[target] = folded.get(target, 0) + count
        self._by_pattern = folded

    def cap(self, pattern: bytes, at_most: int) -> None:
        """At most `at_most` keys of `pattern` (a current pattern) are flagged: its findings were settled
        after its keys were counted (`Engine._settle_late`)."""
        self.fold()
        count = self._by_pattern.get(pattern, 0)
        if count > at_most:
            self._by_pattern[pattern] = at_most
            self.keys -= count - at_most

    def total(self, aggregates: Iterable[tuple[bytes, int]], pattern_keys: Mapping[bytes, int], all_keys: int) -> int:
        """Per-key flagged keys plus the keys of aggregate findings (pattern, count) at warning or above."""
        self.fold()
        canonical = self._canonical
        wanted: dict[bytes, int] = {}
        for pattern, count in aggregates:
            target = canonical(pattern)
            wanted[target] = wanted.get(target, 0) + count
        extra = 0
        for pattern, count in wanted.items():
            room = pattern_keys.get(pattern, all_keys) - self._by_pattern.get(pattern, 0)
            extra += max(0, min(count, room))
        return min(all_keys, self.keys + extra)
