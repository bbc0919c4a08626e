"""`pytest --rediscipline` on a real project against a real Redis: the report, strict mode, the marker.

Each test runs pytest in-process on the shop project of `tests.pytest_plugin.inner` (its clients talk to a
real redis-server) and reads what the session produced: the JSON report file, each test's outcome, the
terminal summary. Every seeded break must be at its call site with its rule, nothing else may be reported.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.pytest_plugin.inner import STRICT_OUTCOMES, TESTS, Project, write_project
from tests.support.servers import ServerProcess

pytest_plugins = ["pytester"]

Finding = tuple[str, str, int, int]  # rule, path, line, count


def report_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def findings_of(report: dict[str, Any]) -> set[Finding]:
    return {(f["rule"], f["location"]["path"], f["location"]["line"], f["count"]) for f in report["findings"]}


def every_break(project: Project) -> set[Finding]:
    """What the shop project's session reports: every seeded break but the exempt one (see `inner`)."""
    return {
        ("CMD001", "app.py", project.line("app.py", "keys-in-app"), 1),
        ("TTL006", "app.py", project.line("app.py", "set-forever"), 1),
        ("CMD001", "test_shop.py", project.line("test_shop.py", "keys-in-test"), 1),
        ("CMD001", "test_shop.py", project.line("test_shop.py", "keys-at-import"), 1),
        ("CMD002", "test_shop.py", project.line("test_shop.py", "flush-teardown"), len(STRICT_OUTCOMES)),
    }


def outcomes(recorder: pytest.HookRecorder) -> dict[str, str]:
    """Each test's outcome (a failure in any phase counts), by test name."""
    found: dict[str, str] = {}
    for report in recorder.getreports("pytest_runtest_logreport"):
        name = report.nodeid.rpartition("::")[2]
        if report.when == "call" or report.failed:
            found[name] = report.outcome
    return found


def failures(recorder: pytest.HookRecorder) -> dict[str, str]:
    return {
        r.nodeid.rpartition("::")[2]: r.longreprtext
        for r in recorder.getreports("pytest_runtest_logreport")
        if r.failed
    }


def keys_message(report: dict[str, Any]) -> str:
    messages = {f["messages"]["en"] for f in report["findings"] if f["rule"] == "CMD001"}
    assert len(messages) == 1
    return messages.pop()


@pytest.fixture
def shop(pytester: pytest.Pytester, shop_server: ServerProcess) -> Project:
    return write_project(pytester, shop_server.port)


def test_the_report_lists_every_break_at_its_call_site(pytester: pytest.Pytester, shop: Project) -> None:
    constructor = redis.Redis.__dict__["__init__"]
    result = pytester.runpytest_inprocess("--rediscipline", "--rediscipline-report", "out.json")
    result.assert_outcomes(passed=len(STRICT_OUTCOMES))
    report = report_of(shop.path / "out.json")
    assert findings_of(report) == every_break(shop)
    assert report["run"]["command"] == "guard"
    contexts = {(f["location"]["path"], f["context"]) for f in report["findings"]}
    assert contexts == {("app.py", "library"), ("test_shop.py", "test")}
    # the terminal summary is the text report: a line per finding, at its call site
    text = result.stdout.str()
    section = text[text.index("= rediscipline =") :]
    for rule, path, line, _count in every_break(shop):
        assert f"\n{path}:{line}: {rule} [" in section, f"{path}:{line} {rule} not in the terminal summary"
    assert "rediscipline: json report written to " + str(shop.path / "out.json") in section
    assert redis.Redis.__dict__["__init__"] is constructor  # the session's end put the class back


def test_strict_fails_exactly_the_tests_whose_call_broke_an_error_rule(
    pytester: pytest.Pytester, shop: Project
) -> None:
    recorder = pytester.inline_run("--rediscipline=strict", "--rediscipline-report=out.json")
    assert outcomes(recorder) == STRICT_OUTCOMES
    report = report_of(shop.path / "out.json")
    assert findings_of(report) == every_break(shop)
    head = "rediscipline: 1 violation of the conventions at or above error:"
    message = keys_message(report)
    assert failures(recorder) == {
        "test_keys_in_app": f"{head}\n  {shop.site('app.py', 'keys-in-app')}: CMD001 [error] {message}",
        "test_keys_in_test": f"{head}\n  {shop.site('test_shop.py', 'keys-in-test')}: CMD001 [error] {message}",
    }


def test_fail_on_warning_also_fails_the_test_that_wrote_without_a_ttl(pytester: pytest.Pytester, shop: Project) -> None:
    recorder = pytester.inline_run("--rediscipline=strict", "--rediscipline-fail-on", "warning")
    assert outcomes(recorder) == {**STRICT_OUTCOMES, "test_ttl_warning": "failed"}
    failed = failures(recorder)["test_ttl_warning"]
    assert failed.startswith("rediscipline: 1 violation of the conventions at or above warning:\n")
    assert (
        f"\n  {shop.site('app.py', 'set-forever')}: TTL006 [warning] SET writes `shop:user:*` without a TTL" in failed
    )


def test_a_failure_counts_each_break_per_call_site(pytester: pytest.Pytester, shop_server: ServerProcess) -> None:
    tests = (
        "import app\n"
        "PORT = {port}\n"
        "def test_loop():\n"
        "    client = app.connect(PORT)\n"
        "    for _ in range(3):\n"
        '        client.keys("shop:*")  # seed: loop\n'
        "    client.flushall()  # seed: flush\n"
    )
    project = write_project(pytester, shop_server.port, tests)
    recorder = pytester.inline_run("--rediscipline=strict")
    text = failures(recorder)["test_loop"]
    lines = text.splitlines()
    assert lines[0] == "rediscipline: 4 violations of the conventions at or above error:"
    assert lines[1].startswith(f"  {project.site('test_shop.py', 'loop')}: CMD001 [error] KEYS ")
    assert lines[1].endswith(" (×3)")
    assert lines[2].startswith(f"  {project.site('test_shop.py', 'flush')}: CMD002 [error] FLUSHALL ")
    assert len(lines) == 3


def test_a_test_that_fails_on_its_own_keeps_its_own_failure(
    pytester: pytest.Pytester, shop_server: ServerProcess
) -> None:
    tests = (
        "import app\n"
        "PORT = {port}\n"
        "def test_broken():\n"
        '    app.connect(PORT).keys("shop:*")\n'
        '    assert 1 == 2, "the test\'s own assertion"\n'
    )
    write_project(pytester, shop_server.port, tests)
    recorder = pytester.inline_run("--rediscipline=strict")
    text = failures(recorder)["test_broken"]
    assert "the test's own assertion" in text
    assert "rediscipline:" not in text


def test_a_module_marker_exempts_its_tests_but_not_its_import(
    pytester: pytest.Pytester, shop_server: ServerProcess
) -> None:
    marked = TESTS.replace("PORT =", 'pytestmark = pytest.mark.rediscipline(ignore=["keys-command"])\nPORT =', 1)
    project = write_project(pytester, shop_server.port, marked)
    recorder = pytester.inline_run("--rediscipline=strict", "--rediscipline-report=out.json")
    assert outcomes(recorder) == dict.fromkeys(STRICT_OUTCOMES, "passed")
    assert findings_of(report_of(project.path / "out.json")) == {
        ("TTL006", "app.py", project.line("app.py", "set-forever"), 1),
        ("CMD001", "test_shop.py", project.line("test_shop.py", "keys-at-import"), 1),
        ("CMD002", "test_shop.py", project.line("test_shop.py", "flush-teardown"), len(STRICT_OUTCOMES)),
    }


def test_the_convention_file_decides_what_fails_as_what_is_reported(pytester: pytest.Pytester, shop: Project) -> None:
    """`per-file-ignores` drops app.py's KEYS from the report, so strict mode does not fail the test for it;
    `tests = "errors-only"` keeps the test code's errors, so the KEYS in the test still fails."""
    (shop.path / "team.toml").write_text(
        'preset = "default"\ntests = "errors-only"\n\n[per-file-ignores]\n"app.py" = ["CMD001"]\n', encoding="utf-8"
    )
    recorder = pytester.inline_run(
        "--rediscipline=strict", "--rediscipline-config=team.toml", "--rediscipline-report=o.json"
    )
    assert outcomes(recorder) == {**STRICT_OUTCOMES, "test_keys_in_app": "passed"}
    assert findings_of(report_of(shop.path / "o.json")) == every_break(shop) - {
        ("CMD001", "app.py", shop.line("app.py", "keys-in-app"), 1)
    }


def test_tests_ignored_by_the_convention_file_never_fail(pytester: pytest.Pytester, shop: Project) -> None:
    (shop.path / "rediscipline.toml").write_text('preset = "default"\ntests = "ignore"\n', encoding="utf-8")
    recorder = pytester.inline_run("--rediscipline=strict", "--rediscipline-report=o.json")
    assert outcomes(recorder) == {**STRICT_OUTCOMES, "test_keys_in_test": "passed"}
    assert findings_of(report_of(shop.path / "o.json")) == {
        ("CMD001", "app.py", shop.line("app.py", "keys-in-app"), 1),
        ("TTL006", "app.py", shop.line("app.py", "set-forever"), 1),
    }


def test_the_ini_file_turns_strict_mode_on_and_names_the_report(pytester: pytest.Pytester, shop: Project) -> None:
    (shop.path / "reports").mkdir()
    pytester.makeini("[pytest]\nrediscipline = strict\nrediscipline_report = reports/shop.sarif\n")
    recorder = pytester.inline_run()
    assert outcomes(recorder) == STRICT_OUTCOMES
    sarif = json.loads((shop.path / "reports" / "shop.sarif").read_text(encoding="utf-8"))
    results = {
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in sarif["runs"][0]["results"]
    }
    assert results == {(rule, path, line) for rule, path, line, _count in every_break(shop)}


def test_off_on_the_command_line_wins_over_the_ini_file(pytester: pytest.Pytester, shop: Project) -> None:
    pytester.makeini("[pytest]\nrediscipline = strict\n")
    result = pytester.runpytest_inprocess("--rediscipline=off")
    result.assert_outcomes(passed=len(STRICT_OUTCOMES))
    assert " rediscipline " not in result.stdout.str()
    assert "rediscipline:" not in result.stdout.str()


def test_the_report_file_takes_any_output_format(pytester: pytest.Pytester, shop: Project) -> None:
    result = pytester.runpytest_inprocess(
        "--rediscipline", "--rediscipline-report=out.txt", "--rediscipline-format=github"
    )
    result.assert_outcomes(passed=len(STRICT_OUTCOMES))
    annotations = (shop.path / "out.txt").read_text(encoding="utf-8").splitlines()
    places = {line.split("::")[1].split(",title=")[0] for line in annotations if line.startswith("::")}
    assert places == {
        f"error file={path},line={line}" for rule, path, line, _ in every_break(shop) if rule != "TTL006"
    } | {f"warning file=app.py,line={shop.line('app.py', 'set-forever')}"}
    text = pytester.runpytest_inprocess("--rediscipline", "--rediscipline-report=out.txt")
    text.assert_outcomes(passed=len(STRICT_OUTCOMES))
    written = (shop.path / "out.txt").read_text(encoding="utf-8")
    assert f"{shop.site('app.py', 'keys-in-app')}: CMD001 [error] KEYS " in written


def test_guard_report_in_a_test_reads_the_session(pytester: pytest.Pytester, shop_server: ServerProcess) -> None:
    tests = (
        "import app\n"
        "from rediscipline.guard import guard_report\n"
        "PORT = {port}\n"
        "def test_sees_its_own_break():\n"
        '    app.connect(PORT).keys("shop:*")  # seed: keys\n'
        "    sites = {{(f.rule_id, f.location.path, f.location.line) for f in guard_report().findings}}\n"
        "    assert sites == {{('CMD001', 'test_shop.py', 5)}}\n"
    )
    project = write_project(pytester, shop_server.port, tests)
    assert project.line("test_shop.py", "keys") == 5
    result = pytester.runpytest_inprocess("--rediscipline")
    result.assert_outcomes(passed=1)


def test_clients_made_by_test_modules_are_guarded_but_not_those_of_the_root_conftest(
    pytester: pytest.Pytester, shop_server: ServerProcess
) -> None:
    """The plugin starts guarding at `pytest_configure`: after the root conftest.py is imported, before the
    test modules are."""
    pytester.makeconftest(f"import app\nEARLY = app.connect({shop_server.port})\n")
    tests = (
        "import app\n"
        "from conftest import EARLY\n"
        "LATE = app.connect({port})\n"
        "def test_both():\n"
        '    EARLY.keys("shop:*")  # seed: early\n'
        '    LATE.keys("shop:*")  # seed: late\n'
    )
    project = write_project(pytester, shop_server.port, tests)
    pytester.runpytest_inprocess("--rediscipline", "--rediscipline-report=out.json").assert_outcomes(passed=1)
    assert findings_of(report_of(project.path / "out.json")) == {
        ("CMD001", "test_shop.py", project.line("test_shop.py", "late"), 1)
    }


def test_asyncio_and_valkey_clients_are_guarded_too(pytester: pytest.Pytester, shop_server: ServerProcess) -> None:
    tests = (
        "import asyncio\n"
        "import redis.asyncio\n"
        "import valkey\n"
        "PORT = {port}\n"
        "async def scan_all():\n"
        "    client = redis.asyncio.Redis(port=PORT)\n"
        '    found = await client.keys("shop:*")  # seed: async-keys\n'
        "    await client.aclose()\n"
        "    return found\n"
        "def test_asyncio():\n"
        "    assert asyncio.run(scan_all()) == []\n"
        "def test_valkey():\n"
        '    assert valkey.Valkey(port=PORT).keys("shop:*") == []  # seed: valkey-keys\n'
    )
    project = write_project(pytester, shop_server.port, tests)
    recorder = pytester.inline_run("--rediscipline=strict", "--rediscipline-report=out.json")
    assert outcomes(recorder) == {"test_asyncio": "failed", "test_valkey": "failed"}
    failed = failures(recorder)
    assert f"\n  {project.site('test_shop.py', 'async-keys')}: CMD001 [error] KEYS " in failed["test_asyncio"]
    assert f"\n  {project.site('test_shop.py', 'valkey-keys')}: CMD001 [error] KEYS " in failed["test_valkey"]
    assert findings_of(report_of(project.path / "out.json")) == {
        ("CMD001", "test_shop.py", project.line("test_shop.py", "async-keys"), 1),
        ("CMD001", "test_shop.py", project.line("test_shop.py", "valkey-keys"), 1),
    }
