"""Usage errors are one line on stderr that names the option and what it accepts, and exit with 2.

click would print four lines (usage, "Try --help", a blank line, the error); the README promises one.
"""

from __future__ import annotations

import pytest

from tests.cli.conftest import Run

CASES = {
    "out of range": (
        ("scan", "--batch", "0"),
        "--batch: 0 is not in the range 10<=x<=1000",
    ),
    "open range": (
        ("scan", "--timeout", "0.1"),
        "--timeout: 0.1 is not in the range x>=0.5",
    ),
    "bad choice": (
        ("check", "--format", "xml"),
        "--format: 'xml' is not one of 'text', 'json', 'sarif', 'github', 'html', 'markdown'",
    ),
    "bad choice of a shared option": (
        ("keys", "--fail-on", "fatal"),
        "--fail-on: 'fatal' is not one of 'note', 'warning', 'error'",
    ),
    "bad type": (
        ("scan", "--seed", "abc"),
        "--seed: 'abc' is not a valid integer",
    ),
    "bad type of a range names the range": (
        ("scan", "--memory-samples", "many"),
        "--memory-samples: 'many' is not a valid integer range (allowed: 1<=x<=64)",
    ),
    "option without its value names the choices": (
        ("keys", "--lang"),
        "--lang: requires an argument (allowed: en, zh)",
    ),
    "option without its value names the range": (
        ("scan", "--batch"),
        "--batch: requires an argument (allowed: 10<=x<=1000)",
    ),
    "flag given a value": (
        ("scan", "--progress=yes"),
        "--progress: does not take a value",
    ),
    "unknown option": (
        ("keys", "--no-such-flag"),
        "no such option --no-such-flag",
    ),
    "unknown option with close matches": (
        ("keys", "--formt", "json"),
        "no such option --formt (did you mean one of --format, --input-format?)",
    ),
    "unknown option of the group": (
        ("--versoin",),
        "no such option --versoin (did you mean --version?)",
    ),
    "missing argument": (
        ("rule",),
        "missing argument ID|SLUG...",
    ),
    "unknown command": (
        ("lint",),
        "no such command 'lint'",
    ),
    "unknown command with close matches": (
        ("rulez",),
        "no such command 'rulez' (did you mean one of rule, rules?)",
    ),
    "unknown subcommand": (
        ("baseline", "creat"),
        "no such command 'creat' (did you mean create?)",
    ),
    "extra argument": (
        ("rules", "extra"),
        "got unexpected extra argument (extra)",
    ),
}


@pytest.mark.parametrize(("args", "expected"), list(CASES.values()), ids=list(CASES))
def test_usage_error_is_one_line(run: Run, args: tuple[str, ...], expected: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode() == f"rediscipline: error: {expected}\n"


def test_usage_error_raised_by_a_command_is_one_line(run: Run) -> None:
    result = run("scan", "redis://127.0.0.1:1", "dump.rdb")
    assert result.returncode == 2
    assert result.stderr.decode() == "rediscipline: error: give either one server URL or dump files, not both\n"


def test_no_arguments_shows_the_help(run: Run) -> None:
    result = run()
    assert result.returncode == 2
    text = (result.stdout + result.stderr).decode()
    assert text.startswith("Usage: rediscipline [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in text
