"""The plugin off (the default), its options, and bad input: one line and pytest's usage-error exit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rediscipline.pytest_plugin.options import FORMATS, format_for, rewrite_bare_flag
from rediscipline.render import RENDERERS
from tests.pytest_plugin.inner import STRICT_OUTCOMES, write_project
from tests.support.servers import ServerProcess

pytest_plugins = ["pytester"]

UNGUARDED = """\
import sys

import pytest

import app

PORT = {port}


@pytest.mark.rediscipline(ignore=["CMD001"])
def test_nothing_is_guarded():
    client = app.connect(PORT)
    assert client.keys("shop:*") == []
    assert "_rediscipline_guard" not in vars(client)
    assert not any(name.startswith("rediscipline.guard") for name in sys.modules)
"""


def test_off_the_plugin_guards_nothing_prints_nothing_and_imports_no_guard(
    pytester: pytest.Pytester, shop_server: ServerProcess
) -> None:
    write_project(pytester, shop_server.port, UNGUARDED)
    result = pytester.runpytest_subprocess("--strict-markers")  # the marker is known even when off
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert "rediscipline-0.1.0" in out  # the plugin was loaded, from its entry point
    assert " rediscipline " not in out and "rediscipline:" not in out
    assert result.stderr.str() == ""
    # the same test fails under the plugin: its client is guarded
    on = pytester.runpytest_inprocess("--rediscipline")
    on.assert_outcomes(failed=1)


def test_importing_the_plugin_loads_neither_the_guard_nor_redis_nor_rich() -> None:
    probe = (
        "import json, sys\n"
        "import rediscipline.pytest_plugin\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('rediscipline', 'redis', 'rich'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(done.stdout) == [
        "rediscipline",
        "rediscipline.model",
        "rediscipline.model.severity",
        "rediscipline.pytest_plugin",
        "rediscipline.pytest_plugin.options",
    ]


def test_the_bare_flag_before_a_path_is_the_flag_and_the_path(
    pytester: pytest.Pytester, shop_server: ServerProcess
) -> None:
    write_project(pytester, shop_server.port)
    pytester.makepyfile(test_other="def test_not_collected():\n    raise AssertionError('collected')\n")
    result = pytester.runpytest_inprocess("--rediscipline", "test_shop.py")
    result.assert_outcomes(passed=len(STRICT_OUTCOMES))
    assert "= rediscipline =" in result.stdout.str()


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--rediscipline=loud",), "ERROR: --rediscipline: unknown mode 'loud' (use off, report, strict)"),
        (
            ("--rediscipline", "--rediscipline-fail-on=fatal"),
            "ERROR: --rediscipline-fail-on: unknown severity 'fatal' (allowed: note, warning, error)",
        ),
        (
            ("--rediscipline", "--rediscipline-format=xml"),
            "ERROR: --rediscipline-format: unknown format 'xml' (use text, json, sarif, github, markdown)",
        ),
        (
            ("--rediscipline", "--rediscipline-report=missing/out.json"),
            "ERROR: --rediscipline-report: {path}/missing/out.json: the folder {path}/missing does not exist",
        ),
        (
            ("--rediscipline", "--rediscipline-config=absent.toml"),
            "ERROR: --rediscipline-config: {path}/absent.toml is not a file",
        ),
        (
            ("--rediscipline", "--rediscipline-config=broken.toml"),
            "ERROR: rediscipline: {path}/broken.toml: unknown key 'colour' (allowed: preset, overlays, select, "
            "extend-select, ignore, fail-on, lang, rules, namespaces, per-key-ignores, per-file-ignores, "
            "pattern-cap, test-paths, tests, library-keys)",
        ),
    ],
)
def test_bad_options_are_one_line_and_a_usage_error(
    pytester: pytest.Pytester, args: tuple[str, ...], error: str
) -> None:
    pytester.makepyfile(test_one="def test_one():\n    pass\n")
    (pytester.path / "broken.toml").write_text('colour = "red"\n', encoding="utf-8")
    result = pytester.runpytest_inprocess(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.errlines if line.strip()] == [error.format(path=pytester.path)]
    assert "Traceback" not in result.stdout.str()


def test_bad_options_do_not_matter_while_the_plugin_is_off(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="def test_one():\n    pass\n")
    result = pytester.runpytest_inprocess("--rediscipline-fail-on=fatal", "--rediscipline-format=xml")
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("marker", "error"),
    [
        ('ignore=["CMD999"]', "unknown rule selector 'CMD999'"),
        ("ignore=5", "ignore= takes a list of rules, not 5"),
        ("ignore=[1]", "ignore= takes rule names, not 1"),
        ('"CMD001"', "takes ignore=[RULES] and nothing else"),
    ],
)
def test_a_bad_marker_stops_the_run_before_any_test(pytester: pytest.Pytester, marker: str, error: str) -> None:
    pytester.makepyfile(test_one=f"import pytest\n\n@pytest.mark.rediscipline({marker})\ndef test_one():\n    pass\n")
    result = pytester.runpytest_inprocess("--rediscipline")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    lines = [line for line in result.errlines if line.strip()]
    assert len(lines) == 1
    assert lines[0].startswith("ERROR: test_one.py::test_one: @pytest.mark.rediscipline")
    assert error in lines[0]


def test_a_marker_may_name_a_single_rule_a_family_or_all(pytester: pytest.Pytester, shop_server: ServerProcess) -> None:
    tests = (
        "import pytest\n"
        "import app\n"
        "PORT = {port}\n"
        '@pytest.mark.rediscipline(ignore="CMD001")\n'
        "def test_one_rule():\n"
        '    app.connect(PORT).keys("shop:*")\n'
        '@pytest.mark.rediscipline(ignore=["CMD"])\n'
        "def test_family():\n"
        "    app.connect(PORT).flushall()\n"
        '@pytest.mark.rediscipline(ignore=["ALL"])\n'
        "def test_all():\n"
        "    app.connect(PORT).flushdb()\n"
        "def test_not_exempt():\n"
        "    app.connect(PORT).flushdb()\n"
    )
    write_project(pytester, shop_server.port, tests)
    result = pytester.runpytest_inprocess("--rediscipline=strict")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["FAILED test_shop.py::test_not_exempt - Failed: rediscipline: 1 violation*"])


def test_a_report_file_that_cannot_be_written_is_said_and_fails_the_session(
    pytester: pytest.Pytester, shop_server: ServerProcess
) -> None:
    """The folder is checked before the tests run; a folder removed during the session is reported at its end."""
    write_project(pytester, shop_server.port)
    gone = pytester.path / "gone"
    gone.mkdir()
    pytester.makeconftest(
        f"import shutil\n\ndef pytest_collection_finish(session):\n    shutil.rmtree({str(gone)!r})\n"
    )
    result = pytester.runpytest_inprocess("--rediscipline", "--rediscipline-report=gone/out.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"rediscipline: cannot write {gone / 'out.json'}: No such file or directory" in result.outlines


def test_rewriting_the_bare_flag() -> None:
    cases = {
        ("--rediscipline",): ["--rediscipline"],
        ("--rediscipline", "tests/"): ["--rediscipline=report", "tests/"],
        ("--rediscipline", "-x"): ["--rediscipline=report", "-x"],
        ("--rediscipline", "strict"): ["--rediscipline", "strict"],
        ("--rediscipline", "off", "tests"): ["--rediscipline", "off", "tests"],
        ("--rediscipline=strict", "tests"): ["--rediscipline=strict", "tests"],
        ("-k", "x", "--rediscipline-report", "out.json"): ["-k", "x", "--rediscipline-report", "out.json"],
    }
    for given, expected in cases.items():
        args = list(given)
        rewrite_bare_flag(args)
        assert args == expected, given


def test_the_report_format_follows_the_file_name() -> None:
    assert tuple(RENDERERS) == FORMATS
    names = {
        "a.json": "json",
        "A.JSON": "json",
        "a.sarif": "sarif",
        "a.sarif.json": "sarif",
        "a.txt": "text",
        "a.md": "markdown",
        "a": "text",
    }
    assert {name: format_for(Path(name)) for name in names} == names
    assert format_for(None) == "text"
