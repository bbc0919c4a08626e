"""Findings under construction: one accumulator per (rule, sub-code, pattern), bounded examples.

`Groups` is mergeable: the groups of one part of a run (one dump, one node) fold into those of another
(`Groups.merge`) and give what one pass over both would. What one pass keeps "first" (examples, the
violation a group reports when values tie, the origin of a subject, the fact that made a finding at a place)
is decided by a rank: the arrival number of the key within its part (the engine's key count), globalised at
the first merge into `part << PART_SHIFT | arrival`, so that the earliest part and, within it, the earliest
key wins whichever order the parts are merged in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rediscipline.engine.fingerprint import key_fingerprint, site_fingerprint
from rediscipline.model.finding import Example, Finding, Violation
from rediscipline.model.location import Location
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import ConfiguredRule, RuleContext

GroupKey = tuple[str, str, bytes]  # rule id, code, pattern
#: rule, code, path, line, column, subject, context (a place without a line, such as one shape of what a server
#: was sent, is told apart by its context)
SiteKey = tuple[str, str, str | None, int | None, int | None, str | None, str | None]
SubjectKey = tuple[str, str, tuple[str, str]]  # rule id, code, (subject, evidence)
#: A rank is `part << PART_SHIFT | arrival`: room for 2**48 keys per part.
PART_SHIFT = 48
#: The rank of the first example of aggregate results, added at the end: after every key of every part.
AFTER_EVERY_KEY = 1 << 96


@dataclass(slots=True)
class ResolvedViolation:
    """A violation with its final severity, as memoised per template (the hot path only counts it)."""

    rule_id: str
    code: str
    severity: Severity
    message: Text
    value: float | None
    namespace: str | None


def resolve(configured: ConfiguredRule, ctx: RuleContext[Any], v: Violation) -> ResolvedViolation:
    """A rule's violation with the severity it ends up with: the user's, when set, else the rule's choice."""
    namespace = ctx.namespace.pattern if ctx.namespace else None
    severity = configured.severity if configured.forced else (v.severity or configured.severity)
    return ResolvedViolation(configured.id, v.code, severity, v.message, v.value, namespace)


@dataclass(slots=True)
class Group:
    """The keys of one finding so far: how many, the first `limit` examples with their ranks, and the
    violation with the worst value (the earliest one among equal values, or when no violation has a value)."""

    violation: ResolvedViolation
    count: int = 0
    examples: list[Example] = field(default_factory=list)
    worst: float | None = None
    ranks: list[int] = field(default_factory=list)  # of the examples, ascending
    worst_rank: int = 0  # of the key that gave `worst` (meaningless while `worst` is None)

    def count_key(  # noqa: PLR0917 - the per-key path: positional arguments are the cheapest call
        self, violation: ResolvedViolation, name: bytes, origin: Location, line: int | None, limit: int, rank: int
    ) -> None:
        """One more key (arrival `rank`) shows `violation`: count it, keep it as an example while there are
        fewer than `limit`, and keep the violation with the worst value for the finding's message."""
        self.count += 1
        if len(self.examples) < limit:
            location = origin if line is None else Location(origin.source, origin.path, line, None, origin.db)
            self.examples.append(Example(name, location))
            self.ranks.append(rank)
        value = violation.value
        if value is not None and (self.worst is None or value > self.worst):
            self.worst = value
            self.violation = violation
            self.worst_rank = rank

    def first_rank(self) -> int | None:
        return self.ranks[0] if self.ranks else None

    def merge(self, other: Group, limit: int) -> None:
        """Add `other`'s keys (ranks of both globalised); `other` is spent."""
        self.count += other.count
        if _before(other, self):  # before the examples merge: it compares the first ranks of each
            self.worst, self.violation, self.worst_rank = other.worst, other.violation, other.worst_rank
        if other.examples:
            pairs = _by_rank(self, other)[:limit]
            self.ranks = [rank for rank, _example in pairs]
            self.examples = [example for _rank, example in pairs]

    def shift(self, base: int) -> None:
        """Turn arrival numbers into global ranks (see the module docstring)."""
        self.ranks = [base | rank for rank in self.ranks]
        self.worst_rank |= base


def _by_rank(first: Group, second: Group) -> list[tuple[int, Example]]:
    """The examples of two groups, each with its rank, earliest first."""
    pairs = [*zip(first.ranks, first.examples, strict=True), *zip(second.ranks, second.examples, strict=True)]
    pairs.sort(key=lambda pair: pair[0])
    return pairs


def _before(candidate: Group, current: Group) -> bool:
    """Whether `candidate`'s violation is the one to report over `current`'s: a worse value, or the same value
    (or none on either) first seen earlier."""
    if candidate.worst is not None:
        if current.worst is None or candidate.worst > current.worst:
            return True
        return candidate.worst == current.worst and candidate.worst_rank < current.worst_rank
    if current.worst is not None:
        return False
    first, other_first = candidate.first_rank(), current.first_rank()
    return first is not None and (other_first is None or first < other_first)


class Groups:
    """Every finding under construction in one part of a run (`part`, see the module docstring)."""

    def __init__(self, examples: int = 3, part: int = 0) -> None:
        self.examples = examples
        self.part = part
        self._global = part == 0  # ranks of part 0 are global already
        self._groups: dict[GroupKey, Group] = {}
        self._subjects: dict[SubjectKey, Group] = {}
        self._subject_origin: dict[SubjectKey, tuple[int, Location]] = {}
        self._sites: dict[SiteKey, tuple[int, ResolvedViolation, Location, bytes | None, str | None]] = {}
        self._site_times: dict[SiteKey, int] = {}

    def group_for(self, violation: ResolvedViolation, pattern: bytes) -> Group:
        """The group of `violation` on `pattern`, created empty if new."""
        key = (violation.rule_id, violation.code, pattern)
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = Group(violation)
        return group

    def add(self, violation: ResolvedViolation, pattern: bytes, name: bytes, origin: Location, rank: int) -> None:
        """One key (arrival `rank`) of `pattern` shows `violation`."""
        self.group_for(violation, pattern).count_key(violation, name, origin, None, self.examples, rank)

    def add_counted(
        self, violation: ResolvedViolation, pattern: bytes, count: int, examples: tuple[Example, ...], rank: int
    ) -> None:
        """Record an aggregate rule's result: `count` keys of `pattern` at once; `rank` orders its examples
        after those of results added before it."""
        kept = list(examples[: self.examples])
        ranks = [rank + index for index in range(len(kept))]
        self.add_group(pattern, Group(violation, count, kept, violation.value, ranks, rank))

    def add_group(self, pattern: bytes, group: Group) -> None:
        key = (group.violation.rule_id, group.violation.code, pattern)
        existing = self._groups.get(key)
        if existing is None:
            self._groups[key] = group
        else:
            existing.merge(group, self.examples)

    def add_subject(
        self,
        violation: ResolvedViolation,
        subject: tuple[str, str],
        origin: Location,
        example: bytes | None,
        count: int,
        *,
        rank: int,
    ) -> None:
        """Record a finding about something other than a key: a command, a server setting.

        `subject` is (what, evidence): the same command seen in commandstats (a call count) and in the slow
        log (single slow calls) makes two findings, so counts and worst values never mix units.
        """
        key = (violation.rule_id, violation.code, subject)
        group = self._subjects.get(key)
        if group is None:
            group = self._subjects[key] = Group(violation)
            self._subject_origin[key] = (rank, origin)
        group.count += count
        fresh = example is not None and all(e.name != example for e in group.examples)
        if fresh and example is not None and len(group.examples) < self.examples:
            group.examples.append(Example(example, origin))
            group.ranks.append(rank)
        value = violation.value
        if value is not None and (group.worst is None or value > group.worst):
            group.worst = value
            group.violation = violation
            group.worst_rank = rank

    def add_site(
        self,
        violation: ResolvedViolation,
        origin: Location,
        pattern: bytes | None,
        subject: str | None,
        *,
        rank: int,
        times: int = 0,
    ) -> None:
        """Record a finding at one place in a file (code, a config file, a call site the runtime guard saw):
        never merged with other places.

        The same rule, code and subject at the same place is one finding, whichever fact showed it first (a
        key template and its command both judged at one call site). `times` counts how often the place broke
        the rule when that is known (a call site at run time); a place in code counts once.
        """
        key = (violation.rule_id, violation.code, origin.path, origin.line, origin.column, subject, origin.context)
        if key not in self._sites:
            self._sites[key] = (rank, violation, origin, pattern, subject)
        if times:
            self._site_times[key] = self._site_times.get(key, 0) + times

    def remap(self, target: Any) -> None:
        """Follow pattern merges: the group of each pattern `target(pattern)` moves is merged into the group of
        the pattern it names (`target` returns the pattern itself when it did not move)."""
        moving = [(key, moved) for key in self._groups if (moved := target(key[2])) != key[2]]
        for key, moved in moving:
            self.add_group(moved, self._groups.pop(key))

    def merge(self, other: Groups) -> None:
        """Fold another part's groups into these (same example limit); `other` is spent.

        Counts add up; examples, the reported violation among equal values, a subject's origin and the fact
        that made a finding at a place are the earliest by rank, as one pass over both parts in part order
        would have kept them.
        """
        self._globalise()
        other._globalise()
        limit = self.examples
        for key, group in other._groups.items():
            mine = self._groups.get(key)
            if mine is None:
                self._groups[key] = group
            else:
                mine.merge(group, limit)
        for subject, theirs in other._subjects.items():
            origin = other._subject_origin[subject]
            kept = self._subjects.get(subject)
            if kept is None:
                self._subjects[subject] = theirs
                self._subject_origin[subject] = origin
                continue
            kept_origin = self._subject_origin[subject]
            _merge_subject(kept, kept_origin[0], theirs, origin[0], limit)
            if origin[0] < kept_origin[0]:
                self._subject_origin[subject] = origin
        for site, entry in other._sites.items():
            present = self._sites.get(site)
            if present is None or entry[0] < present[0]:
                self._sites[site] = entry
        for site, times in other._site_times.items():
            self._site_times[site] = self._site_times.get(site, 0) + times

    def _globalise(self) -> None:
        """Make this part's ranks global before they meet another part's (see the module docstring)."""
        if self._global:
            return
        base = self.part << PART_SHIFT
        for group in (*self._groups.values(), *self._subjects.values()):
            group.shift(base)
        self._subject_origin = {key: (base | rank, origin) for key, (rank, origin) in self._subject_origin.items()}
        self._sites = {key: (base | entry[0], *entry[1:]) for key, entry in self._sites.items()}
        self._global = True

    def findings(self, source: str) -> list[Finding]:
        """Every finding: key patterns and subjects by severity, then places in files in file order.

        A finding's fingerprint names the kind of source of its location (`live`, `rdb`, `keys`, `code`,
        `config`); `source` stands in for a key finding that has no example to give a location. Ties in the
        order (subjects of one rule with the same count) go to the one seen first.
        """
        out: list[tuple[int, Finding]] = []
        for (rule_id, code, pattern), group in self._groups.items():
            first = group.examples[0].location if group.examples else Location(source)
            location = Location(first.source, first.path, first.line, None, first.db)
            fingerprint = key_fingerprint(rule_id, code, location.source, pattern)
            out.append((0, _finding(group, code, location, fingerprint, pattern=pattern)))
        for key, group in self._subjects.items():
            rule_id, code, (subject, evidence) = key
            rank, location = self._subject_origin[key]
            fingerprint = key_fingerprint(rule_id, code, location.source, f"\0{subject}\0{evidence}".encode())
            out.append((rank, _finding(group, code, location, fingerprint, subject=subject)))
        out.sort(
            key=lambda item: (
                -item[1].severity,
                item[1].rule_id,
                -item[1].count,
                item[1].pattern or b"",
                item[1].code,
                item[0],
            )
        )
        return [finding for _rank, finding in out] + self._site_findings()

    def _site_findings(self) -> list[Finding]:
        """Findings at places in files, in file order; see `site_fingerprint` for their identity."""
        out: list[Finding] = []
        seen: dict[str, int] = {}
        ordered = sorted(
            self._sites.items(), key=lambda item: (item[0][2] or "", item[0][3] or 0, item[0][4] or 0, item[1][0])
        )
        for key, (_rank, violation, origin, pattern, subject) in ordered:
            rule_id, code = key[0], key[1]
            base = site_fingerprint(rule_id, code, origin.source, origin)
            seen[base] = occurrence = seen.get(base, 0) + 1
            fingerprint = base if occurrence == 1 else f"{base}.{occurrence}"
            times = self._site_times.get(key, 1)
            group = Group(violation, times, [Example(pattern, origin)] if pattern is not None else [], violation.value)
            out.append(_finding(group, code, origin, fingerprint, pattern=pattern, subject=subject))
        return out


def _merge_subject(mine: Group, mine_first: int, other: Group, other_first: int, limit: int) -> None:
    """Merge a subject's groups (`*_first`: the rank each was first seen at). Examples are distinct command
    lines: a line both saw is kept once, at its earlier rank; among equal values (or none) the violation
    seen first is reported."""
    mine.count += other.count
    pairs = _by_rank(mine, other)
    seen: set[bytes] = set()
    mine.ranks, mine.examples = [], []
    for rank, example in pairs:
        if example.name not in seen and len(mine.examples) < limit:
            seen.add(example.name)
            mine.ranks.append(rank)
            mine.examples.append(example)
    if other.worst is not None:
        take = mine.worst is None or other.worst > mine.worst
        take = take or (other.worst == mine.worst and other.worst_rank < mine.worst_rank)
    else:
        take = mine.worst is None and other_first < mine_first
    if take:
        mine.worst, mine.violation, mine.worst_rank = other.worst, other.violation, other.worst_rank


def _finding(
    group: Group,
    code: str,
    location: Location,
    fingerprint: str,
    *,
    pattern: bytes | None = None,
    subject: str | None = None,
) -> Finding:
    v = group.violation
    return Finding(
        rule_id=v.rule_id,
        code=code,
        severity=v.severity,
        message=v.message,
        location=location,
        fingerprint=fingerprint,
        pattern=pattern,
        count=group.count,
        examples=tuple(group.examples),
        namespace=v.namespace,
        worst=group.worst,
        subject=subject,
    )
