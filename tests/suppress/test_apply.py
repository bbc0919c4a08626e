"""Applying line and file directives and per-file globs to findings, and listing what suppressed nothing."""

from __future__ import annotations

from rediscipline.model.code import Directive, FileDirectives
from rediscipline.model.location import SOURCE_CONFIG, SOURCE_LIVE
from rediscipline.sources.code.directives import read_directives
from rediscipline.suppress.apply import Unused, suppress
from tests.suppress.helpers import REGISTRY, finding


def _files(*files: FileDirectives) -> dict[str, FileDirectives]:
    return {f.path: f for f in files}


def test_line_directive_suppresses_its_rule_on_its_line_only() -> None:
    directive = Directive(3, 20, ("CMD001",))
    findings = [finding("CMD001", line=3), finding("CMD005", line=3), finding("CMD001", line=4)]
    result = suppress(findings, _files(FileDirectives("app.py", (directive,))), {}, REGISTRY.resolve)
    assert [(f.rule_id, f.location.line) for f in result.kept] == [("CMD005", 3), ("CMD001", 4)]
    assert result.suppressed == 1
    assert result.unused == []


def test_blanket_slug_and_lowercase_id() -> None:
    directives = (Directive(1, 9, ()), Directive(2, 9, ("keys-command",)), Directive(3, 9, ("cmd001",)))
    findings = [
        finding("CMD001", line=1),
        finding("CMD005", line=1),
        finding("CMD001", line=2),
        finding("CMD001", line=3),
    ]
    result = suppress(findings, _files(FileDirectives("app.py", directives)), {}, REGISTRY.resolve)
    assert result.kept == [] and result.suppressed == 4 and result.unused == []


def test_directive_on_any_line_of_a_multi_line_call() -> None:
    """A finding spans its call (line 4 to 7): a comment on lines 4–7 covers it, one outside does not."""
    source = (
        "import redis\n"
        "r = redis.Redis()\n"
        "\n"
        "r.set(  # rediscipline: ignore[CMD002]\n"
        '    "session:1",\n'
        "    payload,\n"
        ")  # rediscipline: ignore[CMD001]\n"
        "r.ping()  # rediscipline: ignore[CMD005]\n"
    )
    files = _files(read_directives(source, "app.py"))
    on_call = [finding("CMD001", line=4, end_line=7), finding("CMD002", line=4, end_line=7)]
    below = finding("CMD005", line=3, end_line=3)
    result = suppress([*on_call, below], files, {}, REGISTRY.resolve)
    assert result.kept == [below]
    assert result.unused == [Unused("app.py", Directive(8, 11, ("CMD005",)), "CMD005")]


def test_file_directive_covers_the_whole_file_and_only_it() -> None:
    files = _files(FileDirectives("a.py", (Directive(40, 1, ("CMD", "CMD001"), whole_file=True),)))
    findings = [finding("CMD001", "a.py", 2), finding("CMD001", "a.py", None), finding("CMD001", "b.py", 2)]
    result = suppress(findings, files, {}, REGISTRY.resolve)
    assert [f.location.path for f in result.kept] == ["b.py"]
    # `CMD` is a family, not a rule id or slug: directives name rules, so it is an unknown code
    assert result.unused == [Unused("a.py", Directive(40, 1, ("CMD", "CMD001"), whole_file=True), "CMD")]


def test_per_file_globs_relative_to_the_root() -> None:
    ignores = {"tests/**": frozenset({"CMD001"}), "scripts/*.py": frozenset(REGISTRY.ids())}
    findings = [
        finding("CMD001", "tests/unit/test_cache.py"),
        finding("CMD005", "tests/unit/test_cache.py"),
        finding("CMD001", "/repo/tests/test_a.py"),
        finding("CMD001", "/elsewhere/tests/test_a.py"),
        finding("KEY005", "scripts/seed.py"),
        finding("KEY005", "scripts/sub/seed.py"),
        finding("CMD001", "src/tests.py"),
        finding("CFG001", "scripts/redis.py", source=SOURCE_CONFIG),
        finding("CMD001", "tests/live", source=SOURCE_LIVE),
    ]
    result = suppress(findings, {}, ignores, REGISTRY.resolve, root="/repo")
    assert [(f.rule_id, f.location.path) for f in result.kept] == [
        ("CMD005", "tests/unit/test_cache.py"),
        ("CMD001", "/elsewhere/tests/test_a.py"),
        ("KEY005", "scripts/sub/seed.py"),
        ("CMD001", "src/tests.py"),
        ("CMD001", "tests/live"),  # a live finding's path is a server, never a file of the project
    ]
    assert result.suppressed == 4


def test_unused_lists_each_code_and_blanket_directives_that_suppressed_nothing() -> None:
    used_one = Directive(1, 9, ("CMD001", "KEY005", "NOPE999"))
    blanket = Directive(2, 9, ())
    malformed = Directive(3, 9, ("rediscipline: ignore[",))
    unused_file = Directive(4, 1, ("TTL001",), whole_file=True)
    files = _files(FileDirectives("a.py", (used_one, blanket, malformed, unused_file)), FileDirectives("b.py", ()))
    result = suppress([finding("CMD001", "a.py", 1)], files, {}, REGISTRY.resolve)
    assert result.kept == []
    assert result.unused == [
        Unused("a.py", used_one, "KEY005"),
        Unused("a.py", used_one, "NOPE999"),
        Unused("a.py", blanket, None),
        Unused("a.py", malformed, "rediscipline: ignore["),
        Unused("a.py", unused_file, "TTL001"),
    ]


def test_every_matching_mechanism_counts_as_used() -> None:
    """A line directive repeating a file directive (or a per-file glob) is not reported as unused."""
    line = Directive(5, 9, ("CMD001",))
    whole = Directive(1, 1, ("CMD001",), whole_file=True)
    files = _files(FileDirectives("tests/a.py", (whole, line)))
    result = suppress([finding("CMD001", "tests/a.py", 5)], files, {"tests": frozenset({"CMD001"})}, REGISTRY.resolve)
    assert result.suppressed == 1 and result.unused == []


def test_sup001_silences_unused_reports() -> None:
    """Naming SUP001 in the directive, in a file directive or a per-file glob keeps unused ones quiet."""
    own = Directive(1, 9, ("CMD001", "SUP001"))
    result = suppress([], _files(FileDirectives("a.py", (own,))), {}, REGISTRY.resolve)
    assert result.unused == []
    whole = Directive(9, 1, ("unused-suppression",), whole_file=True)
    result = suppress([], _files(FileDirectives("a.py", (Directive(1, 9, ("CMD001",)), whole))), {}, REGISTRY.resolve)
    assert result.unused == []
    globbed = suppress([], _files(FileDirectives("a.py", (own,))), {"*.py": frozenset({"SUP001"})}, REGISTRY.resolve)
    assert globbed.unused == []
    plain = suppress([], _files(FileDirectives("a.py", (Directive(1, 9, ("CMD001",)),))), {}, REGISTRY.resolve)
    assert plain.unused == [Unused("a.py", Directive(1, 9, ("CMD001",)), "CMD001")]


def test_findings_without_a_path_or_line_pass_through() -> None:
    files = _files(FileDirectives("app.py", (Directive(1, 1, ()),)))
    server = finding("CFG001", None, None, source=SOURCE_LIVE)
    whole_file = finding("CMD001", "app.py", None)
    result = suppress([server, whole_file], files, {}, REGISTRY.resolve)
    assert result.kept == [server, whole_file]
    assert result.unused == [Unused("app.py", Directive(1, 1, ()), None)]
