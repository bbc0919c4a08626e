"""SUP001: unused, unknown and malformed suppressions become findings on the comment, with stable fingerprints."""

from __future__ import annotations

from rediscipline.engine.runner import Engine
from rediscipline.model.code import Directive, FileDirectives
from rediscipline.model.location import Location
from rediscipline.model.severity import Severity
from rediscipline.sources.code.directives import read_directives
from rediscipline.suppress.apply import Unused, suppress
from tests.suppress.helpers import REGISTRY, configured, finding, unused_findings

ALL = configured("ALL")


def _report(source: str, *rules: str, findings: tuple[str, ...] = ()) -> list[tuple[str, int, int, str, str]]:
    files = {"app.py": read_directives(source, "app.py")}
    result = suppress([finding(rule_id, line=1) for rule_id in findings], files, {}, REGISTRY.resolve)
    out = unused_findings(result.unused, configured(*rules) if rules else ALL, REGISTRY)
    return [(f.rule_id, f.location.line or 0, f.location.column or 0, f.code, f.message.en) for f in out]


def test_unused_codes_named_with_their_slugs() -> None:
    source = "r.keys('*')  # rediscipline: ignore[CMD001, KEY005, hgetall]\n"
    assert _report(source, findings=("CMD001",)) == [
        (
            "SUP001",
            1,
            14,
            "unused",
            "unused suppression in `# rediscipline: ignore[CMD001,KEY005,hgetall]`: KEY005 (key-length) "
            "reported nothing here; remove the unused code",
        ),
        (
            "SUP001",
            1,
            14,
            "unknown-rule",
            "unknown rule 'hgetall' in `# rediscipline: ignore[CMD001,KEY005,hgetall]`: use a rule id such as "
            "CMD001 or a slug such as keys-command (`rediscipline rules` lists them)",
        ),
    ]


def test_whole_directive_unused_and_blanket_and_file_forms() -> None:
    source = "x = 1  # rediscipline: ignore[CMD001]\n# rediscipline: ignore\n# rediscipline: file-ignore[CMD002]\n"
    assert [(line, message) for _r, line, _c, _k, message in _report(source)] == [
        (
            1,
            "unused suppression in `# rediscipline: ignore[CMD001]`: CMD001 (keys-command) reported nothing "
            "here; remove it",
        ),
        (2, "unused suppression `# rediscipline: ignore`: no finding here to suppress; remove it"),
        (
            3,
            "unused suppression in `# rediscipline: file-ignore[CMD002]`: CMD002 (flush-command) reported nothing in "
            "this file; remove it",
        ),
    ]


def test_malformed_is_reported_with_the_text_escaped() -> None:
    directives = {"app.py": FileDirectives("app.py", (Directive(2, 5, ("rediscipline: ignore CMD001\x1b[31m",)),))}
    result = suppress([], directives, {}, REGISTRY.resolve)
    [only] = unused_findings(result.unused, ALL, REGISTRY)
    assert (only.code, only.location.line, only.location.column) == ("malformed", 2, 5)
    assert only.message.en == (
        "malformed suppression comment `# rediscipline: ignore CMD001\\x1b[31m`: write "
        "`# rediscipline: ignore[CMD001]`, `# rediscipline: ignore` or `# rediscipline: file-ignore[CMD001]`"
    )
    assert only.message.zh.startswith("抑制注释 `# rediscipline: ignore CMD001\\x1b[31m` 格式错误")


def test_rules_disabled_in_this_run_are_not_called_unused() -> None:
    source = "x = 1  # rediscipline: ignore[KEY005, NOPE001]\ny = 2  # rediscipline: ignore\n"
    # only CMD rules run: KEY005 might still fire in a full run, the blanket too; an unknown rule never will
    assert [(k, m.split(":")[0]) for _r, _l, _c, k, m in _report(source, "CMD001", "SUP001")] == [
        ("unknown-rule", "unknown rule 'NOPE001' in `# rediscipline")
    ]
    assert [(line, k) for _r, line, _c, k, _m in _report(source)] == [(1, "unused"), (1, "unknown-rule"), (2, "unused")]


def test_nothing_when_sup001_is_not_enabled() -> None:
    source = "x = 1  # rediscipline: ignore[NOPE001]\n"
    assert _report(source, "CMD001") == []


def test_configured_severity_and_location() -> None:
    unused = [Unused("app.py", Directive(7, 12, ("CMD001",)), "CMD001")]
    [only] = unused_findings(unused, configured("ALL", severity=Severity.ERROR), REGISTRY)
    assert only.severity is Severity.ERROR
    assert (only.location.source, only.location.path, only.location.line, only.location.end_line) == (
        "code",
        "app.py",
        7,
        7,
    )
    assert only.location.context == "ignore[CMD001]"


def test_fingerprints_survive_line_moves_and_number_repeats() -> None:
    def fingerprints(source: str) -> list[str]:
        result = suppress([], {"app.py": read_directives(source, "app.py")}, {}, REGISTRY.resolve)
        return [f.fingerprint for f in unused_findings(result.unused, ALL, REGISTRY)]

    before = fingerprints("a = 1  # rediscipline: ignore[CMD001]\nb = 2  # rediscipline: ignore[ CMD001 ]\n")
    after = fingerprints(
        "\n\n\nimport os\na = 1  # rediscipline: ignore[CMD001]\n\nb = 2  # rediscipline:ignore[CMD001]\n"
    )
    assert before == after
    assert before[1] == f"{before[0]}.2"  # the same directive twice in one file: numbered in file order
    other = fingerprints("a = 1  # rediscipline: ignore[CMD002]\n")
    assert other[0] != before[0]


def test_the_engine_runs_no_tool_rule() -> None:
    """SUP001 is enabled with ALL and handed to the engine with the rest: it judges no fact and never fires."""
    sup001 = [r for r in ALL if r.id == "SUP001"]
    engine = Engine(sup001)
    engine.begin_input(Location("keys", "keys.txt"))
    engine.feed_name(b"user:1:profile", 1, None)
    assert engine.finish("keys").findings == ()
