"""A second, independent corpus: multi-module mini projects, checked as a team would check them.

Each folder under `projects/` is one repository: a package of a few modules that share a Redis client the
way real code bases do (an `extensions.py` or `deps.py` that creates it, imported everywhere; key-builder
modules; repositories that receive the client in `__init__`), its own `rediscipline.toml` (the default
preset plus the namespaces its keys use) and, for `ops`, the server's redis.conf files and an ACL file.

Expectations are written where the problem is, from the convention documents and the rule documentation,
never from the tool's output:

* in Python files, a trailing `# error: CMD001, TTL006` comment on the line where the offending call starts
  (rule ids only; severities and sub-codes do not matter);
* for config files, `expected.toml` in the project: `[[finding]]` tables with `path` (relative to the
  project), `line` (omitted for a finding about the whole file) and `rule`.

Each project is checked once through the library API, with its folder as the root and its config files
named explicitly (as `rediscipline check . conf/redis.conf conf/users.acl` would). Projects with a `tests/`
folder of their own are checked with it, as `rediscipline check .` would: a real redis-py call in a test is
judged like any other, and the mocks, fakes and wrappers the tests exercise must stay silent. The set of
(path, line, rule id) must match the expectations exactly; a failure lists what is missing (with the source
line) and what is unexpected (with the tool's message). A summary test reports recall and precision over all
projects against the targets (≥ 90 % of the annotated violations found, ≥ 95 % of findings right).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.defaults import settings_for
from rediscipline.model.finding import Finding
from rediscipline.settings.loader import Overrides
from rediscipline.settings.toml import load_toml_file
from tests.support.places import places

PROJECTS_DIR = Path(__file__).parent / "projects"
PROJECTS = (
    "shop",
    "feeds",
    "gateway",
    "game",
    "ops",
    "billing",
    "crawler",
    "notify",
    "legacy",
    "wrappers",
    "platform",
    "jobs",
    "issue_list",
    "issue_receivers",
    "issue_clean",
    "svc_orders",
    "svc_social",
    "svc_iot",
    "svc_payments",
    "svc_search",
    "svc_gaming",
    "dj_portal",
    "kvcache",
    "taskflow",
    "glide_svc",
    "tenantkit",
    "metering",
    "taskq",
    "kvredis",
    "memkeep",
)

#: Config files each project hands to `check` explicitly (relative to the project folder).
CONFIG_FILES: dict[str, tuple[str, ...]] = {
    "ops": ("conf/redis.conf", "conf/sessions-redis.conf", "conf/users.acl"),
}

RECALL_TARGET = 0.90
PRECISION_TARGET = 0.95

_RULE = r"[A-Z]{3}\d{3}"
_EXPECTATION = re.compile(rf"#\s*error:\s*({_RULE}(?:\s*,\s*{_RULE})*)\s*$")
#: A comment that mentions `error:` but does not parse as an expectation is a typo, not "expect nothing".
_LOOKS_LIKE_EXPECTATION = re.compile(r"#\s*error\s*:", re.IGNORECASE)

#: (path relative to the project, line or None for a whole-file finding, rule id)
Site = tuple[str, int | None, str]


class CorpusError(ValueError):
    """The corpus itself is broken: a malformed expectation, an unknown file in expected.toml."""


def python_expectations(source: str, shown: str) -> set[Site]:
    """The findings a Python file announces in its comments (tokenized, so strings never count)."""
    expected: set[Site] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT or not _LOOKS_LIKE_EXPECTATION.search(token.string):
            continue
        match = _EXPECTATION.search(token.string)
        if match is None:
            raise CorpusError(f"{shown}:{token.start[0]}: malformed expectation {token.string!r}")
        for rule in match.group(1).split(","):
            expected.add((shown, token.start[0], rule.strip()))
    return expected


def toml_expectations(project: Path) -> set[Site]:
    """The findings `expected.toml` lists for the project's config files."""
    path = project / "expected.toml"
    if not path.exists():
        return set()
    expected: set[Site] = set()
    for index, entry in enumerate(load_toml_file(path).get("finding", [])):
        where = f"{path}: finding #{index + 1}"
        if set(entry) - {"path", "line", "rule"} or not {"path", "rule"} <= set(entry):
            raise CorpusError(f"{where}: expected keys path, rule and optionally line, got {sorted(entry)}")
        if not (project / entry["path"]).is_file():
            raise CorpusError(f"{where}: no file {entry['path']}")
        if not re.fullmatch(_RULE, entry["rule"]):
            raise CorpusError(f"{where}: {entry['rule']!r} is not a rule id")
        line = entry.get("line")
        if line is not None and (not isinstance(line, int) or line < 1):
            raise CorpusError(f"{where}: line must be a positive integer")
        expected.add((entry["path"], line, entry["rule"]))
    return expected


def expectations(project: Path) -> set[Site]:
    expected = toml_expectations(project)
    for path in sorted(project.rglob("*.py")):
        shown = path.relative_to(project).as_posix()
        expected |= python_expectations(path.read_text(encoding="utf-8"), shown)
    return expected


@dataclass(frozen=True)
class Outcome:
    """One project's run: what was expected, what was found, and the findings by site for messages."""

    name: str
    expected: frozenset[Site]
    found: frozenset[Site]
    findings: dict[Site, tuple[Finding, ...]]
    all_findings: tuple[Finding, ...] = ()

    @property
    def missing(self) -> set[Site]:
        return set(self.expected - self.found)

    @property
    def unexpected(self) -> set[Site]:
        return set(self.found - self.expected)

    def report(self) -> str:
        """A readable diff: the source line of each missed site, the message of each unexpected one."""
        root = PROJECTS_DIR / self.name
        lines = [f"project {self.name}: {len(self.missing)} missing, {len(self.unexpected)} unexpected"]
        for site in sorted(self.missing, key=_order):
            path, line, rule = site
            lines.append(f"  missing     {_where(site)} {rule}  | {_source_line(root / path, line)}")
        for site in sorted(self.unexpected, key=_order):
            for finding in self.findings[site]:
                lines.append(f"  unexpected  {_where(site)} {site[2]}  | {finding.message.en}")
        return "\n".join(lines)


def _order(site: Site) -> tuple[str, int, str]:
    return (site[0], site[1] or 0, site[2])


def _where(site: Site) -> str:
    return f"{site[0]}:{site[1]}" if site[1] is not None else f"{site[0]} (file)"


def _source_line(path: Path, line: int | None) -> str:
    if line is None or not path.is_file():
        return ""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else "<no such line>"


@cache
def run_project(name: str) -> Outcome:
    """Check one project as its team would: its folder, its config files, its convention file."""
    project = PROJECTS_DIR / name
    targets = (str(project), *(str(project / extra) for extra in CONFIG_FILES.get(name, ())))
    settings = settings_for(Overrides(config=project / "rediscipline.toml"))
    result = check_code(CodeCheckOptions(targets), settings, root=project)
    assert not result.problems, f"{name}: files that do not parse: {result.problems}"
    by_site: dict[Site, list[Finding]] = {}
    for finding in result.report.findings:
        for place in places(finding):
            site: Site = (place.path or "", place.line, finding.rule_id)
            by_site.setdefault(site, []).append(finding)
    return Outcome(
        name=name,
        expected=frozenset(expectations(project)),
        found=frozenset(by_site),
        findings={site: tuple(findings) for site, findings in by_site.items()},
        all_findings=result.report.findings,
    )


@pytest.mark.parametrize("name", PROJECTS)
def test_one_finding_per_key_name_fact(name: str) -> None:
    """A key pattern breaking a naming rule at several places of one file is one finding with the other
    places attached, never one finding per place."""
    seen: dict[tuple[str, str, str | None, bytes], int] = {}
    for finding in run_project(name).all_findings:
        if finding.rule_id.startswith("KEY") and finding.pattern is not None and finding.subject is None:
            fact = (finding.rule_id, finding.code, finding.location.path, finding.pattern)
            seen[fact] = seen.get(fact, 0) + 1
            assert len(finding.related) == finding.count - 1
    assert not [fact for fact, times in seen.items() if times > 1]


def test_the_corpus_has_key_name_facts_at_several_places() -> None:
    folded = [f for name in PROJECTS for f in run_project(name).all_findings if f.related]
    assert folded, "no project builds one offending key at several places: the folding is not exercised"
    assert all(f.count == len(f.related) + 1 and f.rule_id.startswith("KEY") for f in folded)


# ---- the corpus is well formed ---------------------------------------------------------------------------


def test_every_project_folder_is_listed() -> None:
    folders = {path.name for path in PROJECTS_DIR.iterdir() if path.is_dir() and not path.name.startswith(("_", "."))}
    assert folders == set(PROJECTS)


@pytest.mark.parametrize("name", PROJECTS)
def test_project_layout(name: str) -> None:
    """A package of 3–6 modules, a convention file, and at least a handful of annotated violations."""
    project = PROJECTS_DIR / name
    package = project / name
    modules = [p for p in package.glob("*.py") if p.name != "__init__.py"]
    assert (package / "__init__.py").is_file()
    assert 3 <= len(modules) <= 6, sorted(p.name for p in modules)
    assert (project / "rediscipline.toml").is_file()
    assert len(expectations(project)) >= 15


def test_expectation_parser_reads_comments_only() -> None:
    source = 'r.keys("a:*")  # error: CMD001, TTL006\ns = "# error: KEY001"\nx = 1  # no expectation\n'
    assert python_expectations(source, "m.py") == {("m.py", 1, "CMD001"), ("m.py", 1, "TTL006")}


def test_expectation_parser_refuses_typos() -> None:
    with pytest.raises(CorpusError, match=r"m\.py:1: malformed"):
        python_expectations("r.keys('a:*')  # error: CMD01\n", "m.py")


# ---- the tool against the corpus ------------------------------------------------------------------------


@pytest.mark.parametrize("name", PROJECTS)
def test_project_findings_match_annotations(name: str) -> None:
    outcome = run_project(name)
    assert outcome.found == outcome.expected, outcome.report()


def test_recall_and_precision_over_all_projects(capsys: pytest.CaptureFixture[str]) -> None:
    outcomes = [run_project(name) for name in PROJECTS]
    expected = sum(len(o.expected) for o in outcomes)
    found = sum(len(o.found) for o in outcomes)
    hits = sum(len(o.expected & o.found) for o in outcomes)
    recall = hits / expected if expected else 1.0
    precision = hits / found if found else 1.0
    with capsys.disabled():
        print(f"\nprojects corpus: {expected} expected, {found} found, {hits} matched")
        for outcome in outcomes:
            print(f"  {outcome.name:8} missing {len(outcome.missing):3}  unexpected {len(outcome.unexpected):3}")
        print(f"  recall {recall:.1%} (target {RECALL_TARGET:.0%})", end=", ")
        print(f"precision {precision:.1%} (target {PRECISION_TARGET:.0%})")
    assert recall >= RECALL_TARGET, "\n".join(o.report() for o in outcomes)
    assert precision >= PRECISION_TARGET, "\n".join(o.report() for o in outcomes)
