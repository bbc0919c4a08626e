"""Keys a live scan listed but may not read: judged by name, counted per pattern, and what that costs.

A user limited by ACL key patterns (`~app:*`) still lists every key with SCAN, and every probe of a key
outside its patterns answers NOPERM. Such a key is neither vanished nor clean: its name is checked by the name
rules, and the report says how many keys, of which patterns, and which enabled rules could not judge them.
"""

from __future__ import annotations

from rediscipline.engine.runner import Engine
from rediscipline.model.report import PatternStat, UnreadableKeys
from rediscipline.settings.layering import Settings
from rediscipline.sources.live.scanner import Unreadable

#: Patterns counted separately; keys of further patterns are counted in the total only.
PATTERNS_KEPT = 1_000
PATTERNS_REPORTED = 10


class UnreadableTally:
    def __init__(self, engine: Engine, settings: Settings) -> None:
        self._engine = engine
        self._settings = settings
        self.keys = 0
        self._patterns: dict[bytes, int] = {}

    def add(self, key: Unreadable) -> None:
        """Judge the key by its name (its examples carry its database) and count it under its pattern."""
        engine = self._engine
        engine.begin_input(key.location)
        pattern = engine.feed_name(key.name)
        self.keys += 1
        count = self._patterns.get(pattern)
        if count is not None or len(self._patterns) < PATTERNS_KEPT:
            self._patterns[pattern] = (count or 0) + 1

    def summary(self) -> UnreadableKeys | None:
        if not self.keys:
            return None
        canonical = self._engine.patterns.canonical
        merged: dict[bytes, int] = {}
        for pattern, count in self._patterns.items():
            target = canonical(pattern)
            merged[target] = merged.get(target, 0) + count
        top = sorted(merged.items(), key=lambda item: (-item[1], item[0]))[:PATTERNS_REPORTED]
        return UnreadableKeys(self.keys, tuple(PatternStat(p, c) for p, c in top), self._unjudged())

    def _unjudged(self) -> tuple[str, ...]:
        """Enabled rules that need a probed field of a key (its type, size, TTL...), which these keys lack."""
        return tuple(sorted(configured.id for configured in self._settings.rules if configured.rule.needs))
