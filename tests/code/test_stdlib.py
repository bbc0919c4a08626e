"""`rediscipline check` survives the whole CPython standard library of the running interpreter.

The standard library is the largest body of unusual but real Python at hand: every syntax feature of its
version, generated tables, deeply nested literals, test data written in Python 2, files in odd encodings and
files that are broken on purpose. Running the real command over it (a subprocess through `main()`, so an
unexpected exception would show up as the one-line "internal error" a user would see) proves what `check`
promises: no crash and no traceback on any file, and files that do not parse are reported as such, one line
each, and only those. Since `check` skips the walk of modules that cannot concern Redis, a third of the
modules also go through the extractor directly. About 45 s on two slow cores, so marked `slow`; it still
runs in the normal suite (`-m "not slow"` leaves it out of a quick local run).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import sysconfig
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rediscipline.sources.code.files import PYTHON_SUFFIXES, SKIPPED_DIRS, FileSelection, find_files
from rediscipline.sources.code.source import ParseProblem, parse_python

STDLIB = Path(sysconfig.get_paths()["stdlib"])

#: One stderr line per file that gave no facts. Parse errors carry a position; decoding errors may not.
PROBLEM_LINE = re.compile(
    r"rediscipline: error: (?P<path>.+?\.pyi?)"
    r"(?::(?P<line>\d+):(?P<column>\d+))?: (?P<what>does not parse|cannot decode): (?P<why>\S.*)"
)
#: Where the standard library keeps its broken-on-purpose files (CPython's own test data).
BROKEN_ON_PURPOSE = re.compile(r"bad|tokenizedata|lib2to3/tests/data")
#: `check` walks only modules whose text may concern Redis (almost none of the stdlib), so the extractor is
#: also forced through every STRIDE-th module, in path order (all of them: about 30 s here).
EXTRACTOR_STRIDE = 1


pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class CheckRun:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> CheckRun:
    """One run shared by the tests below: the whole standard library through the installed command."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "REDISCIPLINE_DEBUG")}
    done = subprocess.run(
        [
            sys.executable, "-m", "rediscipline", "check", str(STDLIB),
            "--format", "json", "--exit-zero", "--no-gitignore", "--isolated",
        ],
        capture_output=True,
        cwd=tmp_path_factory.mktemp("stdlib"),  # no convention file here; the stdlib is not under it: absolute paths
        env=env,
        timeout=900,
        check=False,
    )  # fmt: skip
    return CheckRun(
        done.returncode,
        done.stdout.decode("utf-8", errors="replace"),
        done.stderr.decode("utf-8", errors="replace"),
    )


def python_files() -> list[Path]:
    """The files `check` must read under the stdlib: *.py/*.pyi outside the folders it never walks into."""
    found: list[Path] = []
    for current, dirs, files in os.walk(STDLIB):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        found += [Path(current, name) for name in files if Path(name).suffix in PYTHON_SUFFIXES]
    return found


def reported(run: CheckRun) -> dict[Path, re.Match[str]]:
    """The files named on stderr, each with its parsed line; a line of any other shape fails the test."""
    problems: dict[Path, re.Match[str]] = {}
    for line in run.stderr.splitlines():
        match = PROBLEM_LINE.fullmatch(line)
        assert match is not None, f"unexpected stderr line: {line!r}"
        if match["what"] == "does not parse":
            assert match["line"] is not None, f"a parse error without a position: {line!r}"
        path = Path(match["path"])
        assert path not in problems, f"reported twice: {path}"
        problems[path] = match
    return problems


def compile_error(path: Path) -> SyntaxError | None:
    """Why CPython itself refuses the file (decoding it as Python does, from the bytes), or None."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        except SyntaxError as error:
            return error
    return None


def parses(path: Path) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(path.read_bytes(), str(path))
        except SyntaxError:
            return False
    return True


def test_no_traceback_and_no_internal_error(run: CheckRun) -> None:
    for stream in (run.stdout, run.stderr):
        assert "Traceback" not in stream
        assert "internal error" not in stream
    assert run.returncode in (0, 2), run.stderr[-2000:]


def test_every_reported_file_really_does_not_compile(run: CheckRun) -> None:
    problems = reported(run)
    for path, match in problems.items():
        error = compile_error(path)
        assert error is not None, f"{path} compiles, yet was reported: {match[0]}"
        if match["line"] is not None:
            assert int(match["line"]) == error.lineno, f"{match[0]} vs CPython's {error!r}"


def test_broken_on_purpose_files_are_all_reported(run: CheckRun) -> None:
    """The converse, on the files CPython keeps broken on purpose: each one that does not parse is named."""
    candidates = [p for p in python_files() if BROKEN_ON_PURPOSE.search(p.relative_to(STDLIB).as_posix())]
    broken = {p for p in candidates if not parses(p)}
    named = set(reported(run))
    assert broken <= named, f"not reported: {sorted(broken - named)}"


def test_the_extractor_survives_any_module() -> None:
    """Every construct of the language through the extractor, with no text pre-filter to skip a module."""
    files = find_files([str(STDLIB)], FileSelection(gitignore=False))[::EXTRACTOR_STRIDE]
    assert len(files) > 100
    for source in files:
        parsed = parse_python(source, force=True)
        if isinstance(parsed, ParseProblem):
            assert compile_error(source.path) is not None, f"{parsed} but it compiles"
            continue
        read = parsed.facts()  # an exception here fails the test with its traceback
        assert not isinstance(read, ParseProblem), str(read)


def test_exit_code_is_2_exactly_when_a_file_did_not_parse(run: CheckRun) -> None:
    assert run.returncode == (2 if reported(run) else 0)


def test_json_report_covers_every_file(run: CheckRun) -> None:
    report: dict[str, Any] = json.loads(run.stdout)
    assert report["run"]["command"] == "check"
    assert isinstance(report["findings"], list)
    assert f"{len(python_files())} Python file(s) checked" in report["notes"]
    problems = len(reported(run))
    unparsed = [note for note in report["notes"] if "could not be parsed" in note]
    assert unparsed == ([f"{problems} file(s) could not be parsed"] if problems else [])
