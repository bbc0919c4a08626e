"""One finding per fact, test code told apart, and findings ranked, through `check` as a team runs it.

A project with a key built at several places of a file (library and tests), calls in test files of every
built-in kind, and a convention file: each test checks one promise of the report on real code, end to end
through the driver (suppressions per place, baselines per fact, the `tests` mode, the ranking).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.defaults import settings_for
from rediscipline.engine.runner import Engine
from rediscipline.model.finding import CONTEXT_LIBRARY, CONTEXT_TEST, Finding
from rediscipline.model.report import Report
from rediscipline.render.notes import note_text
from rediscipline.settings.errors import ConfigError
from rediscipline.settings.loader import Overrides
from rediscipline.sources.checked_files import split_files
from rediscipline.sources.code.files import FileSelection, find_files
from rediscipline.sources.code.source import CodeSource
from rediscipline.suppress.baseline import load_baseline, write_baseline

LIBRARY = """\
import redis

r = redis.Redis()


def profile(uid):
    r.set(f"USER:{uid}", 1, ex=60)
    return r.get(f"USER:{uid}")


def drop(uid):
    r.delete(f"USER:{uid}")
    r.keys("*")
"""

TEST = """\
import redis

r = redis.Redis()


def test_profile():
    r.set("probe:key:1", 1, ex=5)
    assert r.get("TEMP") is None
    assert r.get("TEMP") is None
    r.flushall()
"""

#: A file of each built-in kind of test path, each with one KEYS call (an error).
TEST_FILES = ("tests/helpers.py", "pkg/test/util.py", "test_x.py", "pkg/x_test.py", "pkg/x_tests.py", "conftest.py")


def _project(root: Path, config: str = "") -> Path:
    (root / "app").mkdir()
    (root / "app" / "cache.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_cache.py").write_text(TEST)
    (root / "rediscipline.toml").write_text(config)
    return root


def _check(root: Path, baseline: Path | None = None) -> Report:
    settings = settings_for(Overrides(config=root / "rediscipline.toml"))
    return check_code(CodeCheckOptions((str(root),), baseline=baseline), settings, root=root).report


def _path(finding: Finding, root: Path) -> str:
    path = Path(finding.location.path or "")
    return str(path.relative_to(root) if path.is_absolute() else path)


def _shown(findings: tuple[Finding, ...], root: Path) -> list[tuple[str, str, int | None, int, str | None]]:
    return [(f.rule_id, _path(f, root), f.location.line, f.count, f.context) for f in findings]


def test_a_key_built_at_three_places_is_one_finding_with_two_related(tmp_path: Path) -> None:
    report = _check(_project(tmp_path))
    key = [f for f in report.findings if f.rule_id in {"KEY006"} and _path(f, tmp_path) == "app/cache.py"]
    assert [(f.rule_id, f.location.line, f.count, [r.line for r in f.related]) for f in key] == [
        ("KEY006", 7, 3, [8, 12]),
    ]
    assert all(f.related[0].column == 12 for f in key)  # `r.get(` starts at column 12 … its key argument
    calls = [(f.rule_id, f.location.line) for f in report.findings if f.rule_id.startswith(("CMD", "TTL"))]
    assert sorted(calls) == [("CMD001", 13), ("CMD002", 10)]  # command findings stay one per call


def test_report_is_ranked_severity_then_library_then_count(tmp_path: Path) -> None:
    report = _check(_project(tmp_path))
    assert _shown(report.findings, tmp_path) == [
        ("CMD001", "app/cache.py", 13, 1, CONTEXT_LIBRARY),
        ("CMD002", "tests/test_cache.py", 10, 1, CONTEXT_TEST),
        ("KEY006", "app/cache.py", 7, 3, CONTEXT_LIBRARY),
        ("KEY006", "tests/test_cache.py", 8, 2, CONTEXT_TEST),
        ("KEY008", "tests/test_cache.py", 8, 2, CONTEXT_TEST),
    ]


def test_a_comment_on_one_place_silences_that_place_only(tmp_path: Path) -> None:
    root = _project(tmp_path)
    path = root / "app" / "cache.py"
    path.write_text(
        LIBRARY.replace('return r.get(f"USER:{uid}")', 'return r.get(f"USER:{uid}")  # rediscipline: ignore[KEY006]')
    )
    report = _check(root)
    [key] = [f for f in report.findings if f.rule_id == "KEY006" and f.context == CONTEXT_LIBRARY]
    assert (key.location.line, key.count, [r.line for r in key.related]) == (7, 2, [12])
    assert [n.params for n in report.notes if n.code == "suppressed"] == [{"findings": 1}]
    assert not [f for f in report.findings if f.rule_id == "SUP001"]  # the directive was used
    path.write_text("# rediscipline: file-ignore[KEY006]\n" + LIBRARY)
    assert not [f for f in _check(root).findings if f.rule_id == "KEY006" and f.context == CONTEXT_LIBRARY]


def test_a_baseline_holds_a_fact_while_its_places_move_and_multiply(tmp_path: Path) -> None:
    root = _project(tmp_path)
    baseline = tmp_path / "baseline.json"
    write_baseline(_check(root).findings, baseline, root=str(root))
    assert len(load_baseline(baseline).entries) == 5
    moved = "# a comment\n\n" + LIBRARY + '\n\ndef more(uid):\n    return r.get(f"USER:{uid}")\n'
    (root / "app" / "cache.py").write_text(moved)
    report = _check(root, baseline)
    assert report.findings == ()
    assert [n.params["matched"] for n in report.notes if n.code == "baseline"] == [5]
    (root / "app" / "cache.py").write_text(moved + '\n\ndef other():\n    return r.get("OTHER:1")\n')
    assert [(f.rule_id, f.pattern) for f in _check(root, baseline).findings] == [("KEY006", b"OTHER:*")]


def test_a_baseline_of_single_places_still_hides_them(tmp_path: Path) -> None:
    """Entries that hold a fact place by place (each place's own fingerprint) still match, all of them."""
    root = _project(tmp_path)
    baseline = tmp_path / "baseline.json"
    places = _engine_places(root)
    assert len(places) == 9  # three places of a library key, two of a test key (two rules), two calls
    write_baseline(places, baseline, root=str(root))
    report = _check(root, baseline)
    assert report.findings == ()
    [note] = [n for n in report.notes if n.code == "baseline"]
    assert (note.params["matched"], note.params["fixed"]) == (9, 0)


def _engine_places(root: Path) -> list[Finding]:
    """The findings one place each, as the engine records them before the driver folds them."""
    settings = settings_for(Overrides(config=root / "rediscipline.toml"))
    python, _configs = split_files(find_files((str(root),), FileSelection(), root))
    engine = Engine(tuple(r for r in settings.rules if "code" in r.rule.meta.where), settings.namespaces, {})
    engine.consume(CodeSource(python).facts(engine.plan))
    return list(engine.finish("code").findings)


@pytest.mark.parametrize("path", TEST_FILES)
def test_built_in_test_paths(tmp_path: Path, path: str) -> None:
    root = tmp_path
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text("import redis\n\nredis.Redis().keys('*')\n")
    (root / "lib.py").write_text("import redis\n\nredis.Redis().keys('*')\n")
    (root / "rediscipline.toml").write_text("")
    assert [(_path(f, root), f.context) for f in _check(root).findings] == [
        ("lib.py", CONTEXT_LIBRARY),
        (path, CONTEXT_TEST),
    ]


def test_test_paths_add_to_the_built_in_ones(tmp_path: Path) -> None:
    root = _project(tmp_path, 'test-paths = ["app/**"]\n')
    assert {f.context for f in _check(root).findings} == {CONTEXT_TEST}


@pytest.mark.parametrize(
    ("mode", "kept", "left_out"),
    [
        ("report", {"CMD001", "CMD002", "KEY006", "KEY008"}, 0),
        ("errors-only", {"CMD001", "CMD002", "KEY006"}, 2),
        ("ignore", {"CMD001", "KEY006"}, 3),
    ],
)
def test_tests_mode(tmp_path: Path, mode: str, kept: set[str], left_out: int) -> None:
    report = _check(_project(tmp_path, f'tests = "{mode}"\n'))
    assert {f.rule_id for f in report.findings} == kept
    notes = [n for n in report.notes if n.code == "tests-left-out"]
    assert [n.params["findings"] for n in notes] == ([left_out] if left_out else [])
    if notes:
        assert f'(tests = "{mode}")' in note_text(notes[0], "en")


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('tests = "skip"\n', "tests: 'skip' is not allowed (allowed: report, errors-only, ignore)"),
        ("test-paths = 3\n", "test-paths: expected a list of strings"),
        ('test-paths = ["/"]\n', "test-paths: '/' is not a path glob"),
    ],
)
def test_bad_test_settings_name_the_file_and_key(tmp_path: Path, config: str, message: str) -> None:
    (tmp_path / "rediscipline.toml").write_text(config)
    with pytest.raises(ConfigError) as caught:
        settings_for(Overrides(config=tmp_path / "rediscipline.toml"))
    assert str(caught.value).endswith(message)
    assert "rediscipline.toml" in str(caught.value)


def test_json_and_findings_elsewhere_have_no_context(tmp_path: Path) -> None:
    from rediscipline.api.keys import check_key_names
    from rediscipline.render.json_output import report_to_dict

    assert all(f.context is None for f in check_key_names([b"UserProfile:1", b"UserProfile:2"]).findings)
    document = report_to_dict(_check(_project(tmp_path)))
    first = document["findings"][2]
    assert (first["rule"], first["context"], [r["line"] for r in first["related"]]) == ("KEY006", "library", [8, 12])
    assert "related" not in document["findings"][0]
    json.dumps(document)
