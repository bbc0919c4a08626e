"""Per-pattern statistics of probed keys: memory, type mix and TTL coverage of every pattern in the report.

Counted per (pattern the key was recorded under, type) with one dict lookup per key, and folded at the end
through the pattern table's merges (`PatternTable.canonical`), so a pattern that absorbed others reports the
keys of all of them. Parts of a run merge by adding their counters (integers, so exact).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rediscipline.model.report import PatternStat

#: The fields of probed keys a pattern's row reports, by the summary field that measures them.
_MEMORY, _TTL, _TYPE = "memory", "ttl", "type"


class PatternStats:
    def __init__(self) -> None:
        #: (pattern, type) → [keys, memory, keys with a TTL]
        self.rows: dict[tuple[bytes, str | None], list[int]] = {}

    def add(self, pattern: bytes, key_type: str | None, memory: int, has_ttl: bool) -> None:
        row = self.rows.get((pattern, key_type))
        if row is None:
            row = self.rows[(pattern, key_type)] = [0, 0, 0]
        row[0] += 1
        row[1] += memory
        row[2] += has_ttl

    def merge(self, other: PatternStats) -> None:
        rows = self.rows
        for key, (keys, memory, with_ttl) in other.rows.items():
            row = rows.get(key)
            if row is None:
                rows[key] = [keys, memory, with_ttl]
            else:
                row[0] += keys
                row[1] += memory
                row[2] += with_ttl

    def finish(
        self,
        counts: Mapping[bytes, int],
        canonical: Callable[[bytes], bytes],
        families: Mapping[bytes, str],
        measured: frozenset[str],
    ) -> tuple[PatternStat, ...]:
        """One row per pattern of `counts` (the pattern table's), most keys first, then by pattern bytes.

        `measured` are the summary fields keys carried: a field no key carried is reported as unknown (None),
        not as zero."""
        memory: dict[bytes, int] = {}
        with_ttl: dict[bytes, int] = {}
        types: dict[bytes, dict[str, int]] = {}
        for (pattern, key_type), (keys, size, ttl) in self.rows.items():
            target = canonical(pattern)
            memory[target] = memory.get(target, 0) + size
            with_ttl[target] = with_ttl.get(target, 0) + ttl
            if key_type is not None:
                mix = types.setdefault(target, {})
                mix[key_type] = mix.get(key_type, 0) + keys
        rows = []
        for pattern, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            mix = types.get(pattern, {})
            rows.append(
                PatternStat(
                    pattern,
                    count,
                    memory=memory.get(pattern, 0) if _MEMORY in measured else None,
                    types=tuple(sorted(mix.items(), key=lambda item: (-item[1], item[0]))) if _TYPE in measured else (),
                    with_ttl=with_ttl.get(pattern, 0) if _TTL in measured else None,
                    library=families.get(pattern),
                )
            )
        return tuple(rows)
