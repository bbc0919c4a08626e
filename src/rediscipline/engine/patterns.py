"""The bounded table of key patterns seen in a run, with compaction of high-cardinality segments.

Pattern inference generalises numbers, hashes, UUIDs and dates, but not words: `user:alice:profile` and
`user:bob:profile` are two patterns. When many patterns differ only in one `:` segment, that segment is a
variable too, and they are merged into `user:*:profile`. Merging runs when the table passes its soft cap and
once at the end; merged segments are remembered so later keys land in the merged pattern directly. If the
table still passes the hard cap, further new patterns are counted under OVERFLOW_PATTERN and the report says
so: memory stays bounded whatever the key space looks like.
"""

from __future__ import annotations

from collections import defaultdict

from rediscipline.model.keypattern import DEFAULT_PATTERN_CAP

OVERFLOW_PATTERN = b"<other patterns>"
STAR = b"*"


class PatternTable:
    def __init__(self, cap: int = DEFAULT_PATTERN_CAP, merge_at: int = 24) -> None:
        self.cap = cap
        self.soft_cap = max(cap // 2, 1)
        self.merge_at = merge_at  # distinct values in one segment position that make it a variable
        self.counts: dict[bytes, int] = {}
        self.overflow_keys = 0
        self._redirect: dict[bytes, bytes] = {}
        self._learned: set[tuple[int, int, tuple[bytes, ...]]] = set()  # (segments, position, the others)
        self._learned_shapes: dict[int, set[int]] = defaultdict(set)

    def add(self, pattern: bytes) -> bytes:
        """Count one key of `pattern`; returns the pattern it is now recorded under."""
        counts = self.counts
        if pattern in counts:
            counts[pattern] += 1
            return pattern
        target = self._redirect.get(pattern)
        if target is None:
            target = self._generalise(pattern)
            if target not in counts and len(counts) >= self.soft_cap:
                self.compact()
                target = self._generalise(pattern)
                if target not in counts and len(counts) >= self.cap:
                    target = OVERFLOW_PATTERN
            if target != pattern and len(self._redirect) < self.cap:
                self._redirect[pattern] = target
        counts[target] = counts.get(target, 0) + 1
        if target == OVERFLOW_PATTERN:
            self.overflow_keys += 1
        return target

    def canonical(self, pattern: bytes) -> bytes:
        """Where a pattern recorded earlier lives now (after merges)."""
        seen = 0
        while pattern in self._redirect and seen < 8:
            pattern = self._redirect[pattern]
            seen += 1
        return pattern

    def _generalise(self, pattern: bytes) -> bytes:
        segments = pattern.split(b":")
        positions = self._learned_shapes.get(len(segments))
        if not positions:
            return pattern
        changed = False
        for position in sorted(positions):
            if segments[position] == STAR:
                continue
            others = tuple(segments[:position] + segments[position + 1 :])
            if (len(segments), position, others) in self._learned:
                segments[position] = STAR
                changed = True
        return b":".join(segments) if changed else pattern

    def compact(self) -> dict[bytes, bytes]:
        """Merge patterns that differ in one segment with many values; returns old → new for this pass."""
        moved: dict[bytes, bytes] = {}
        current = {p: p.split(b":") for p in self.counts if p != OVERFLOW_PATTERN}
        max_segments = max((len(s) for s in current.values()), default=0)
        for position in range(max_segments):
            buckets: dict[tuple[int, tuple[bytes, ...]], list[bytes]] = defaultdict(list)
            for pattern, segments in current.items():
                if len(segments) > position and segments[position] != STAR and len(segments) > 1:
                    others = tuple(segments[:position] + segments[position + 1 :])
                    buckets[(len(segments), others)].append(pattern)
            for (size, others), members in buckets.items():
                if len(members) < self.merge_at:
                    continue
                self._learned.add((size, position, others))
                self._learned_shapes[size].add(position)
                merged_segments = [*others[:position], STAR, *others[position:]]
                merged = b":".join(merged_segments)
                for member in members:
                    moved[member] = merged
                    del current[member]
                current[merged] = merged_segments
        if moved:
            for old, new in moved.items():
                final = new
                while final in moved:
                    final = moved[final]
                moved[old] = final
            for old, new in moved.items():
                if old == new:
                    continue
                self.counts[new] = self.counts.get(new, 0) + self.counts.pop(old, 0)
                if len(self._redirect) < self.cap:
                    self._redirect[old] = new
            for source, target in list(self._redirect.items()):
                if target in moved:
                    self._redirect[source] = moved[target]
        return {old: new for old, new in moved.items() if old != new}

    def top(self, limit: int) -> list[tuple[bytes, int]]:
        return sorted(self.counts.items(), key=lambda item: (-item[1], item[0]))[:limit]
