"""The fixture corpus: realistic redis-py services annotated with the findings the rule docs call for.

Every Python file in `fixtures/` marks what it expects with a trailing comment on the line where a call (or the
statement holding it) starts: `# error: CMD001` or `# error: CMD001, TTL006` (rule ids; severities do not matter).
A line whose own comment must be a suppression directive carries its expectation on the line above, as
`# expect-next-line: SUP001`. Every other line expects nothing.

The annotations were written from the convention documents and the rule documentation, not from the tool's
output, so they stand for code the tool has never seen: each file is checked through the library API with
`fixtures/rediscipline.toml` (the team's convention file: default preset plus declared namespaces), and the
(line, rule id) pairs must match exactly. A summary test measures recall and precision over the whole corpus
against the targets for unseen code (≥ 90 % and ≥ 95 %).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.defaults import settings_for
from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_CODE
from rediscipline.rules import default_registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides
from tests.rules.casefile import at_code, load_cases
from tests.support.places import places

FIXTURES = Path(__file__).parent / "fixtures"
CONFIG = FIXTURES / "rediscipline.toml"
FILES = sorted(FIXTURES.glob("*.py"))

#: The recall and precision `check` must reach on code it was not written against.
RECALL_TARGET = 0.90
PRECISION_TARGET = 0.95

_RULE_ID = r"[A-Z]{3}\d{3}"
_ANNOTATION = re.compile(rf"^#\s*(error|expect-next-line):\s*({_RULE_ID}(?:\s*,\s*{_RULE_ID})*)\s*$")
#: Anything that looks like an annotation must parse as one: a typo would silently expect nothing.
_LOOKS_LIKE_ANNOTATION = re.compile(r"#\s*(error|expect-next-line)\b", re.IGNORECASE)

Pair = tuple[int, str]  # (line, rule id)


class AnnotationError(ValueError):
    """A comment that looks like an expectation but does not follow the format."""


def parse_annotations(source: str, name: str = "<source>") -> set[Pair]:
    """The (line, rule id) pairs a fixture expects, read from its comments (never from string literals)."""
    expected: set[Pair] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        line = token.start[0]
        match = _ANNOTATION.match(token.string)
        if match is None:
            if _LOOKS_LIKE_ANNOTATION.match(token.string):
                raise AnnotationError(f"{name}:{line}: malformed expectation {token.string!r}")
            continue
        target = line + 1 if match.group(1) == "expect-next-line" else line
        expected.update((target, rule_id) for rule_id in re.findall(_RULE_ID, match.group(2)))
    return expected


@dataclass(frozen=True)
class Outcome:
    """What one fixture expected and what the tool reported, by (line, rule id)."""

    name: str
    lines: tuple[str, ...]
    expected: frozenset[Pair]
    found: dict[Pair, tuple[Finding, ...]]
    problems: tuple[str, ...]

    @property
    def missing(self) -> list[Pair]:
        return sorted(self.expected - self.found.keys())

    @property
    def unexpected(self) -> list[Pair]:
        return sorted(self.found.keys() - self.expected)

    @property
    def matched(self) -> int:
        return len(self.expected & self.found.keys())

    def source_line(self, line: int) -> str:
        return self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""

    def diff(self) -> str:
        """A readable report of the differences: the source line for a miss, the tool's message for an extra."""
        out = [f"{self.name}: {len(self.missing)} missing, {len(self.unexpected)} unexpected"]
        out += [f"  missing    L{line:<4} {rule}  | {self.source_line(line)}" for line, rule in self.missing]
        for line, rule in self.unexpected:
            messages = "; ".join(f"[{f.code}] {f.message.en}" for f in self.found[(line, rule)])
            out.append(f"  unexpected L{line:<4} {rule}  | {self.source_line(line)}\n{' ' * 20}→ {messages}")
        return "\n".join(out)


@cache
def _settings() -> Settings:
    return settings_for(Overrides(config=CONFIG))


@cache
def outcome_of(name: str) -> Outcome:
    """Check one fixture once (the per-file tests and the summary share the result)."""
    path = FIXTURES / name
    source = path.read_text(encoding="utf-8")
    result = check_code(CodeCheckOptions((str(path),)), _settings(), root=FIXTURES)
    found: dict[Pair, list[Finding]] = {}
    for finding in result.report.findings:
        for place in places(finding):
            found.setdefault((place.line or 0, finding.rule_id), []).append(finding)
    return Outcome(
        name=name,
        lines=tuple(source.splitlines()),
        expected=frozenset(parse_annotations(source, name)),
        found={pair: tuple(findings) for pair, findings in found.items()},
        problems=tuple(str(problem) for problem in result.problems),
    )


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_fixture_findings_match_annotations(path: Path) -> None:
    outcome = outcome_of(path.name)
    assert not outcome.problems, f"{path.name} could not be parsed: {outcome.problems}"
    if outcome.missing or outcome.unexpected:
        pytest.fail(outcome.diff(), pytrace=False)


def test_corpus_recall_and_precision() -> None:
    """The recall and precision targets over the whole corpus; prints the numbers and a per-rule breakdown (`-s`)."""
    outcomes = [outcome_of(path.name) for path in FILES]
    expected = sum(len(o.expected) for o in outcomes)
    found = sum(len(o.found) for o in outcomes)
    matched = sum(o.matched for o in outcomes)
    recall = matched / expected if expected else 0.0
    precision = matched / found if found else 0.0
    missed = Counter(rule for o in outcomes for _line, rule in o.missing)
    extra = Counter(rule for o in outcomes for _line, rule in o.unexpected)
    summary = (
        f"fixture corpus: {len(outcomes)} files, {expected} expected, {found} found, {matched} matched; "
        f"recall {recall:.1%} (target {RECALL_TARGET:.0%}), precision {precision:.1%} (target {PRECISION_TARGET:.0%})"
        f"\n  missed by rule: {dict(sorted(missed.items()))}\n  unexpected by rule: {dict(sorted(extra.items()))}"
    )
    print(summary)
    assert expected > 0, "the corpus has no annotations"
    assert recall >= RECALL_TARGET and precision >= PRECISION_TARGET, summary


def test_corpus_covers_every_code_rule() -> None:
    """Every rule that can fire on code is shown firing on code, and no annotation names a rule that cannot.

    Shown in the annotated corpus, or by a failing case of its case file at a place in code (call sites, or
    commands with a line): a new rule needs no corpus file to be added, and the corpus stays the test of how
    real code is read for the rules it annotates.
    """
    code_rules = {cls.meta.id for cls in default_registry() if SOURCE_CODE in cls.meta.where}
    annotated = {rule for path in FILES for _line, rule in parse_annotations(path.read_text(encoding="utf-8"))}
    cased = {case.rule_id for case in load_cases() if not case.passing and at_code(case)}
    assert sorted(code_rules - annotated - cased) == [], "code rules shown firing neither in the corpus nor in a case"
    assert sorted(annotated - code_rules) == [], "annotations naming rules that are not checked on code"


def test_parse_annotations_reads_comments_only() -> None:
    source = (
        "r.keys('a:*')  # error: CMD001\n"
        "r.set(k, v)  # error: TTL006, KEY018\n"
        "# expect-next-line: SUP001\n"
        "r.get(k)  # rediscipline: ignore\n"
        "print('# error: CMD002')\n"
    )
    assert parse_annotations(source) == {(1, "CMD001"), (2, "TTL006"), (2, "KEY018"), (4, "SUP001")}


@pytest.mark.parametrize("comment", ["# error: cmd001", "# error CMD001", "# error: CMD001 CMD002", "# Error: X1"])
def test_parse_annotations_rejects_malformed(comment: str) -> None:
    with pytest.raises(AnnotationError, match="malformed expectation"):
        parse_annotations(f"r.keys()  {comment}\n", "fixture.py")
