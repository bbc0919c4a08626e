"""Keys a live scan listed but may not read: judged by name, counted per pattern, and what that costs.

A user limited by ACL key patterns (`~app:*`) still lists every key with SCAN, and every probe of a key
outside its patterns answers NOPERM. Such a key is neither vanished nor clean: its name is checked by the name
rules, and the report says how many keys, of which patterns, and which enabled rules could not judge them.

Tallies of several parts merge by adding up (`UnreadableTally.merge`): exact while their patterns together
stay within PATTERNS_KEPT; beyond, the patterns with the most keys are kept (the total stays exact).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rediscipline.model.report import PatternStat, UnreadableKeys
from rediscipline.rules.base import ConfiguredRule, NameRule

#: Patterns counted separately; keys of further patterns are counted in the total only.
PATTERNS_KEPT = 1_000
PATTERNS_REPORTED = 10


class UnreadableTally:
    def __init__(self) -> None:
        self.keys = 0
        self._patterns: dict[bytes, int] = {}

    def add(self, pattern: bytes) -> None:
        """Count one more unreadable key under the pattern its name was counted under."""
        self.keys += 1
        count = self._patterns.get(pattern)
        if count is not None or len(self._patterns) < PATTERNS_KEPT:
            self._patterns[pattern] = (count or 0) + 1

    def merge(self, other: UnreadableTally) -> None:
        """Add another part's tally; `other` is spent."""
        self.keys += other.keys
        patterns = self._patterns
        for pattern, count in other._patterns.items():
            patterns[pattern] = patterns.get(pattern, 0) + count
        if len(patterns) > PATTERNS_KEPT:
            ranked = sorted(patterns.items(), key=lambda item: (-item[1], item[0]))
            self._patterns = dict(ranked[:PATTERNS_KEPT])

    def summary(self, canonical: Callable[[bytes], bytes], rules: Sequence[ConfiguredRule]) -> UnreadableKeys | None:
        """The keys, their most common patterns (as merged at the end), and the rules that could not judge them."""
        if not self.keys:
            return None
        merged: dict[bytes, int] = {}
        for pattern, count in self._patterns.items():
            target = canonical(pattern)
            merged[target] = merged.get(target, 0) + count
        top = sorted(merged.items(), key=lambda item: (-item[1], item[0]))[:PATTERNS_REPORTED]
        return UnreadableKeys(self.keys, tuple(PatternStat(p, c) for p, c in top), _unjudged(rules))


def _unjudged(rules: Sequence[ConfiguredRule]) -> tuple[str, ...]:
    """Enabled rules that need a probed field of a key (its size, TTL...), which these keys lack; name rules
    judge the name whatever they would have learned from the type."""
    rule: Any
    return tuple(sorted(c.id for c in rules if (rule := c.rule).needs and not isinstance(rule, NameRule)))
