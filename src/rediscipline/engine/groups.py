"""Findings under construction: one accumulator per (rule, sub-code, pattern), bounded examples."""

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
SiteKey = tuple[str, str, str | None, int | None, int | None, str | None]  # rule, code, path, line, column, subject


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
    violation: ResolvedViolation
    count: int = 0
    examples: list[Example] = field(default_factory=list)
    worst: float | None = None

    def count_key(
        self, violation: ResolvedViolation, name: bytes, origin: Location, line: int | None, limit: int
    ) -> None:
        """One more key shows `violation`: count it, keep it as an example while there are fewer than
        `limit`, and keep the violation with the worst value for the finding's message."""
        self.count += 1
        if len(self.examples) < limit:
            location = origin if line is None else Location(origin.source, origin.path, line, None, origin.db)
            self.examples.append(Example(name, location))
        value = violation.value
        if value is not None and (self.worst is None or value > self.worst):
            self.worst = value
            self.violation = violation

    def merge(self, other: Group, limit: int) -> None:
        self.count += other.count
        room = limit - len(self.examples)
        if room > 0:
            self.examples.extend(other.examples[:room])
        if other.worst is not None and (self.worst is None or other.worst > self.worst):
            self.worst = other.worst
            self.violation = other.violation


class Groups:
    def __init__(self, examples: int = 3) -> None:
        self.examples = examples
        self._groups: dict[GroupKey, Group] = {}
        self._subjects: dict[tuple[str, str, tuple[str, str]], Group] = {}
        self._subject_origin: dict[tuple[str, str, tuple[str, str]], Location] = {}
        self._sites: dict[SiteKey, tuple[ResolvedViolation, Location, bytes | None, str | None]] = {}

    def group_for(self, violation: ResolvedViolation, pattern: bytes) -> Group:
        """The group of `violation` on `pattern`, created empty if new."""
        key = (violation.rule_id, violation.code, pattern)
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = Group(violation)
        return group

    def add(
        self, violation: ResolvedViolation, pattern: bytes, name: bytes, origin: Location, line: int | None
    ) -> None:
        self.group_for(violation, pattern).count_key(violation, name, origin, line, self.examples)

    def add_counted(
        self, violation: ResolvedViolation, pattern: bytes, count: int, examples: tuple[Example, ...]
    ) -> None:
        """Record an aggregate rule's result: `count` keys of `pattern` at once."""
        self.add_group(pattern, Group(violation, count, list(examples[: self.examples]), violation.value))

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
    ) -> None:
        """Record a finding about something other than a key: a command, a server setting.

        `subject` is (what, evidence): the same command seen in commandstats (a call count) and in the slow
        log (single slow calls) makes two findings, so counts and worst values never mix units.
        """
        key = (violation.rule_id, violation.code, subject)
        group = self._subjects.get(key)
        if group is None:
            group = self._subjects[key] = Group(violation)
            self._subject_origin[key] = origin
        group.count += count
        fresh = example is not None and all(e.name != example for e in group.examples)
        if fresh and example is not None and len(group.examples) < self.examples:
            group.examples.append(Example(example, origin))
        value = violation.value
        if value is not None and (group.worst is None or value > group.worst):
            group.worst = value
            group.violation = violation

    def add_site(
        self, violation: ResolvedViolation, origin: Location, pattern: bytes | None, subject: str | None
    ) -> None:
        """Record a finding at one place in a file (code, a config file): never merged with other places.

        The same rule, code and subject at the same place is one finding, whichever fact showed it (a key
        template and its command both judged at one call site).
        """
        key = (violation.rule_id, violation.code, origin.path, origin.line, origin.column, subject)
        if key not in self._sites:
            self._sites[key] = (violation, origin, pattern, subject)

    def remap(self, moved: dict[bytes, bytes]) -> None:
        """Follow a pattern-table compaction: merge groups whose pattern was merged."""
        if not moved:
            return
        for key in [k for k in self._groups if k[2] in moved]:
            group = self._groups.pop(key)
            self.add_group(moved[key[2]], group)

    def findings(self, source: str) -> list[Finding]:
        """Every finding: key patterns and subjects by severity, then places in files in file order.

        A finding's fingerprint names the kind of source of its location (`live`, `rdb`, `keys`, `code`,
        `config`); `source` stands in for a key finding that has no example to give a location.
        """
        out: list[Finding] = []
        for (rule_id, code, pattern), group in self._groups.items():
            first = group.examples[0].location if group.examples else Location(source)
            location = Location(first.source, first.path, first.line, None, first.db)
            fingerprint = key_fingerprint(rule_id, code, location.source, pattern)
            out.append(_finding(group, code, location, fingerprint, pattern=pattern))
        for (rule_id, code, (subject, evidence)), group in self._subjects.items():
            location = self._subject_origin[(rule_id, code, (subject, evidence))]
            fingerprint = key_fingerprint(rule_id, code, location.source, f"\0{subject}\0{evidence}".encode())
            out.append(_finding(group, code, location, fingerprint, subject=subject))
        out.sort(key=lambda f: (-f.severity, f.rule_id, -f.count, f.pattern or b"", f.code))
        return out + self._site_findings()

    def _site_findings(self) -> list[Finding]:
        """Findings at places in files, in file order; see `site_fingerprint` for their identity."""
        out: list[Finding] = []
        seen: dict[str, int] = {}
        ordered = sorted(self._sites.items(), key=lambda item: (item[0][2] or "", item[0][3] or 0, item[0][4] or 0))
        for (rule_id, code, _path, _line, _column, _subject), (violation, origin, pattern, subject) in ordered:
            base = site_fingerprint(rule_id, code, origin.source, origin)
            seen[base] = occurrence = seen.get(base, 0) + 1
            fingerprint = base if occurrence == 1 else f"{base}.{occurrence}"
            group = Group(violation, 1, [Example(pattern, origin)] if pattern is not None else [], violation.value)
            out.append(_finding(group, code, origin, fingerprint, pattern=pattern, subject=subject))
        return out


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
