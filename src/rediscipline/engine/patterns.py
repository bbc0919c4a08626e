"""The bounded table of key patterns seen in a run, with compaction of high-cardinality segments.

Pattern inference generalises numbers, hashes, UUIDs and dates, but not words: `user:alice:profile` and
`user:bob:profile` are two patterns. When many patterns differ only in one level, that level is a variable
too, and they are merged into `user:*:profile` (three values are enough for a level of free text, with
spaces, quotes or brackets: a search term). Levels are what `:` separates, or `.`, `/`, `|` and `#` in
families that use those (`cache.alice.profile`, `LIMITER/alice/10/minute`). Merging runs when the table
passes its soft cap and once at the end; merged segments are remembered so later keys land in the merged
pattern directly. If the table still passes the hard cap, further new patterns are counted under
OVERFLOW_PATTERN and the report says so: memory stays bounded whatever the key space looks like.

Tables of several parts of a run (dumps, nodes) merge (`PatternTable.merge`). While no part's table compacted
on the way (each stayed below its soft cap) and their patterns together stay below it too, a merged table
holds the same counts as one table fed every key, and the merges at the end (`compact`, a function of the set
of patterns) are the same. Above the soft cap each part compacted on its own, at a point that depends on the
order of its keys, as one pass does: the merged table learns every part's merges and compacts again, so it
stays bounded, counts every key once and generalises the same families, but which patterns merge can differ
from one pass and with the order of the merges (the driver merges parts in their order, so a run's report
does not change from one run to the next).
"""

from __future__ import annotations

import re
from collections import defaultdict

from rediscipline.model.keypattern import DEFAULT_PATTERN_CAP

OVERFLOW_PATTERN = b"<other patterns>"
STAR = b"*"
#: A level with a space, a quote, a bracket or a comma holds free text (a search term, the repr of a function's
#: arguments), not a name: a few values make it a variable.
_FREE_TEXT = re.compile(rb"[ '\"(),\[\]%]")
FREE_TEXT_MERGE_AT = 3


def _free_text(members: list[bytes], levels: dict[bytes, list[bytes]], position: int) -> bool:
    """Whether the values of a level are free text: three or more, and most of them with a space, a quote, a
    bracket or a comma (one odd value among words, `user:{abc`, is a naming mistake, not text)."""
    texts = sum(1 for member in members if _FREE_TEXT.search(levels[member][position]))
    return texts >= FREE_TEXT_MERGE_AT and 2 * texts >= len(members)


#: What separates the levels of a pattern; the split keeps the separators (odd positions).
_LEVELS = re.compile(rb"([:./|#])")


def _levels(pattern: bytes) -> list[bytes]:
    """The levels and separators of a pattern: `a:b.c` → [a, :, b, ., c]."""
    return _LEVELS.split(pattern)


def _agreed(known: str | None, family: str) -> str:
    """The family of a pattern seen once more with `family` ("" for none): "?" once two sightings disagree."""
    return family if known is None or known == family else "?"


class PatternTable:
    def __init__(self, cap: int = DEFAULT_PATTERN_CAP, merge_at: int = 24) -> None:
        self.cap = cap
        self.soft_cap = max(cap // 2, 1)
        self.merge_at = merge_at  # distinct values in one segment position that make it a variable
        self.counts: dict[bytes, int] = {}
        self.overflow_keys = 0
        self._redirect: dict[bytes, bytes] = {}  # pattern inferred from a key → where such keys are counted
        self._moved: dict[bytes, bytes] = {}  # pattern keys were counted under → what a compaction moved it into
        self._learned: set[tuple[int, int, tuple[bytes, ...]]] = set()  # (segments, position, the others)
        self._learned_shapes: dict[int, set[int]] = defaultdict(set)
        #: the library family of each template pattern seen ("" for none), up to `cap` of them
        self._families: dict[bytes, str] = {}
        #: (library, prefix) pairs keys proved (`KeyFamily.proves_prefix`), and template patterns a family claims
        #: if its prefix is proved: pattern → (family, library, prefix)
        self._prefixes: set[tuple[str, bytes]] = set()
        self._candidates: dict[bytes, tuple[tuple[str, str, bytes], ...]] = {}

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
        for _hop in range(8):
            target = self._moved.get(pattern) or self._redirect.get(pattern)
            if target is None:
                break
            pattern = target
        return pattern

    def _generalise(self, pattern: bytes) -> bytes:
        segments = _levels(pattern)
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
        return b"".join(segments) if changed else pattern

    def compact(self, *, remember_all: bool = False) -> dict[bytes, bytes]:
        """Merge patterns that differ in one segment with many values; returns old → new for this pass.

        Where each pattern went is remembered for `canonical` (up to `cap` of them while keys are fed;
        `remember_all` for a merge of parts, whose structures are all keyed by the patterns it moves).
        """
        moved: dict[bytes, bytes] = {}
        current = {p: _levels(p) for p in self.counts if p != OVERFLOW_PATTERN}
        max_segments = max((len(s) for s in current.values()), default=0)
        for position in range(0, max_segments, 2):
            buckets: dict[tuple[int, tuple[bytes, ...]], list[bytes]] = defaultdict(list)
            for pattern, segments in current.items():
                if len(segments) > position and segments[position] != STAR and len(segments) > 1:
                    others = tuple(segments[:position] + segments[position + 1 :])
                    buckets[(len(segments), others)].append(pattern)
            for (size, others), members in buckets.items():
                if len(members) < self.merge_at and not _free_text(members, current, position):
                    continue
                self._learned.add((size, position, others))
                self._learned_shapes[size].add(position)
                merged_segments = [*others[:position], STAR, *others[position:]]
                merged = b"".join(merged_segments)
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
                if remember_all or len(self._moved) < self.cap:
                    self._moved[old] = new
            for table in (self._redirect, self._moved):
                for source, target in list(table.items()):
                    if target in moved:
                        table[source] = moved[target]
        return {old: new for old, new in moved.items() if old != new}

    def note_family(self, pattern: bytes, family: str | None) -> None:
        """Record which library family (catalog id) wrote keys of a template's `pattern`, or that none did."""
        if len(self._families) < self.cap or pattern in self._families:
            self._families[pattern] = _agreed(self._families.get(pattern), family or "")

    def prove_prefix(self, library: str, prefix: bytes) -> None:
        if len(self._prefixes) < self.cap:
            self._prefixes.add((library, prefix))

    def note_candidates(self, pattern: bytes, candidates: tuple[tuple[str, str, bytes], ...]) -> None:
        """The families (family, library, prefix) that claim a template pattern if another key proves their
        prefix is their library's, in catalog order."""
        if candidates and len(self._candidates) < self.cap:
            self._candidates.setdefault(pattern, candidates)

    def settle_candidates(self) -> dict[bytes, str]:
        """Record each candidate pattern as the first of its families whose prefix was proved; returns them
        (template pattern → family). A run's keys come in any order, so this waits for all of them
        (`Engine.finish`)."""
        settled = {}
        for pattern, candidates in self._candidates.items():
            if self._families.get(pattern, "") != "":
                continue
            for family, library, prefix in candidates:
                if (library, prefix) in self._prefixes:
                    self._families[pattern] = settled[pattern] = family
                    break
        return settled

    def families(self) -> dict[bytes, str]:
        """The family of each pattern keys are counted under, where every template counted there has the same
        family: a pattern that holds keys of two families, or of a family and of none, has no family."""
        found: dict[bytes, str] = {}
        for pattern, family in self._families.items():
            target = self.canonical(pattern)
            found[target] = _agreed(found.get(target), family)
        return {pattern: family for pattern, family in found.items() if family not in ("", "?")}

    def merge(self, other: PatternTable) -> None:
        """Fold another part's table (same caps) into this one; `other` is spent (see the module docstring).

        Every pattern either table counted keys under stays resolvable through `canonical`: the groups,
        counters and aggregates of both parts are keyed by them. The merged table is not fed keys afterwards:
        the other's cache of inferred patterns is left behind.
        """
        new_rules = other._learned - self._learned
        for size, position, others in new_rules:
            self._learned.add((size, position, others))
            self._learned_shapes[size].add(position)
        if new_rules:  # patterns of this table that the other's merges cover move into them
            moved = {p: g for p in self.counts if p != OVERFLOW_PATTERN and (g := self._generalise(p)) != p}
            for old, new in moved.items():
                self.counts[new] = self.counts.get(new, 0) + self.counts.pop(old)
                self._moved[old] = new
        counts = self.counts
        for pattern, count in other.counts.items():
            target = pattern if pattern == OVERFLOW_PATTERN else self._generalise(pattern)
            if target != pattern:
                self._moved[pattern] = target
            counts[target] = counts.get(target, 0) + count
        for source, target in other._moved.items():
            self._moved.setdefault(source, target)
        for pattern, family in other._families.items():
            self._families[pattern] = _agreed(self._families.get(pattern), family)
        self._prefixes |= other._prefixes
        for pattern, candidate in other._candidates.items():
            self._candidates.setdefault(pattern, candidate)
        self.overflow_keys += other.overflow_keys
        if len(counts) >= self.soft_cap:
            self.compact(remember_all=True)
        excess = len(counts) - (OVERFLOW_PATTERN in counts) - self.cap
        if excess > 0:
            self._overflow(excess)

    def _overflow(self, excess: int) -> None:
        """Count the `excess` smallest patterns (fewest keys, then the greatest bytes) as overflow: a merged
        table keeps the cap of the one it merges into."""
        counts = self.counts
        ranked = sorted((p for p in counts if p != OVERFLOW_PATTERN), key=lambda p: (-counts[p], p))
        for pattern in ranked[len(ranked) - excess :]:
            count = self.counts.pop(pattern)
            self.counts[OVERFLOW_PATTERN] = self.counts.get(OVERFLOW_PATTERN, 0) + count
            self.overflow_keys += count
            self._moved[pattern] = OVERFLOW_PATTERN

    def top(self, limit: int) -> list[tuple[bytes, int]]:
        return sorted(self.counts.items(), key=lambda item: (-item[1], item[0]))[:limit]
