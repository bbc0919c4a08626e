"""Drop findings the team suppressed, and say which suppressions suppressed nothing.

Three ways to suppress a finding located in a file:

* a line directive (`# rediscipline: ignore[CMD001]`, or `ignore` for every rule) on the finding's line or
  on any line of its span (`Location.line` … `end_line`), so a comment after the closing parenthesis of a
  multi-line call covers the call (a directive inside a call that contains other calls covers them too);
* a file directive (`# rediscipline: file-ignore[...]`) anywhere in the same file;
* a `per-file-ignores` glob of the settings matching the file's path relative to the project root (for
  findings in files `rediscipline check` reads: source code and server config files).

Every mechanism that would have suppressed a finding counts as used, so a line directive that repeats a
file directive is not reported. A directive (or one code of it) that suppressed nothing is *unused*; codes
are rule ids (any case) or slugs, resolved by the caller's `resolve`. The unused ones are handed back as
`UnusedSuppression` facts, which the engine judges with SUP001 like any other fact.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from rediscipline.model.code import Directive, FileDirectives, UnusedSuppression
from rediscipline.model.finding import Finding
from rediscipline.model.location import FILE_SOURCES
from rediscipline.suppress.paths import PathIgnores

#: The rule that reports unused suppressions; a directive naming it silences that report.
UNUSED_RULE = "SUP001"

#: A rule name as written in a directive (id in any case, or slug) → the rule's id, None when no rule has it.
Resolve = Callable[[str], "str | None"]
#: What the suppression step leaves unused (see `model.code.UnusedSuppression`).
Unused = UnusedSuppression


@dataclass(frozen=True, slots=True)
class Suppressed:
    """The findings left, how many were suppressed, and the suppressions that suppressed nothing."""

    kept: list[Finding]
    suppressed: int
    unused: list[Unused] = field(default_factory=list)


@dataclass(slots=True)
class _Entry:
    """One directive with its codes resolved to rule ids (None: unknown or malformed)."""

    directive: Directive
    rules: tuple[tuple[str, str | None], ...]  # (code as written, rule id)
    used: set[str | None] = field(default_factory=set)  # codes (None: the blanket) that suppressed something

    def claim(self, rule_id: str) -> bool:
        """Whether this directive suppresses `rule_id`; records the use."""
        if not self.rules:
            self.used.add(None)
            return True
        hit = False
        for code, resolved in self.rules:
            if resolved == rule_id:
                self.used.add(code)
                hit = True
        return hit

    def names(self, rule_id: str) -> bool:
        return any(resolved == rule_id for _code, resolved in self.rules)


@dataclass(slots=True)
class _File:
    entries: list[_Entry]
    whole: list[_Entry]
    lines: list[int]  # sorted lines of the line directives
    by_line: list[_Entry]  # the line directives, in the order of `lines`


def _index(file: FileDirectives, resolve: Resolve) -> _File:
    entries: list[_Entry] = []
    for directive in file.directives:
        rules = tuple((code, None if ":" in code else resolve(code)) for code in directive.codes)
        entries.append(_Entry(directive, rules))
    ordered = sorted((e for e in entries if not e.directive.whole_file), key=lambda e: e.directive.line)
    return _File(
        entries=entries,
        whole=[e for e in entries if e.directive.whole_file],
        lines=[e.directive.line for e in ordered],
        by_line=ordered,
    )


def suppress(
    findings: Iterable[Finding],
    directives: Mapping[str, FileDirectives],
    file_ignores: Mapping[str, frozenset[str]],
    resolve: Resolve,
    *,
    root: str | None = None,
) -> Suppressed:
    """Split `findings` into those kept and those suppressed; list the unused suppressions.

    `directives` is keyed by the same path strings the findings' locations carry; `file_ignores` maps
    gitignore-style globs (relative to `root`, the project root) to rule ids, as `Settings.file_ignores`;
    `resolve` turns a code as written into a rule id (a code containing `:` is malformed and never a rule).
    Unused entries the team silenced (a directive naming SUP001 itself, a `file-ignore[SUP001]` in the file,
    or SUP001 in a matching per-file glob) and codes naming SUP001 are left out of `unused`.
    """
    files = {path: _index(file, resolve) for path, file in directives.items()}
    paths = PathIgnores(file_ignores, root)
    kept: list[Finding] = []
    count = 0
    for finding in findings:
        location = finding.location
        path = location.path
        hit = False
        if path is not None:
            file = files.get(path)
            if file is not None:
                hit = _claim(file, finding)
            if paths and location.source in FILE_SOURCES and finding.rule_id in paths.ids(path):
                hit = True
        if hit:
            count += 1
        else:
            kept.append(finding)
    unused: list[Unused] = []
    for path, file in files.items():
        quiet = UNUSED_RULE in paths.ids(path) or any(e.names(UNUSED_RULE) for e in file.whole)
        for entry in file.entries:
            if quiet or entry.names(UNUSED_RULE):
                continue
            if not entry.rules:
                if None not in entry.used:
                    unused.append(Unused(path, entry.directive, None))
                continue
            for code, resolved in entry.rules:
                if code not in entry.used and resolved != UNUSED_RULE:
                    unused.append(Unused(path, entry.directive, code))
    return Suppressed(kept, count, unused)


def _claim(file: _File, finding: Finding) -> bool:
    """Whether a directive of `file` suppresses `finding`; marks every directive that does as used."""
    location = finding.location
    hit = False
    if location.line is not None:
        last = location.end_line if location.end_line is not None else location.line
        low = bisect_left(file.lines, location.line)
        high = bisect_right(file.lines, max(last, location.line))
        for entry in file.by_line[low:high]:
            hit = entry.claim(finding.rule_id) or hit
    for entry in file.whole:
        hit = entry.claim(finding.rule_id) or hit
    return hit


__all__ = ["FILE_SOURCES", "UNUSED_RULE", "Suppressed", "Unused", "suppress"]
