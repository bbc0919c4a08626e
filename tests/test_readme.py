"""The README's examples print what the README shows.

Every `rediscipline` command in a ```console block that is followed by output lines is run from the repository
root (a fresh process, no convention file above the examples, no colour) and its output (standard output,
then standard error) must match the lines shown:

* a line `...` stands for any number of lines (none included); the other lines must appear in that order,
  consecutive between two `...`, and the output must start (end) with the first (last) shown line unless
  the sample starts (ends) with `...`;
* values that depend on the machine are compared by their shape only: the elapsed time of a run
  (`(0.02 s)`), the versions of Python, redis-py and hiredis that `--version` names, and its `core:` line
  (compiled or pure Python, depending on the install).

Commands without shown output are illustrations and are not run. A sample that needs what a test cannot give
(a server filled by `make demo`, whose memory figures and example keys vary with the server) is listed in
NOT_RUN with the reason; an entry that no longer matches a README command fails.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ELLIPSIS = "..."
#: Commands whose sample output no test can reproduce, with why.
NOT_RUN = {
    "rediscipline scan redis://127.0.0.1:6379": "the server `make demo` fills: its memory figures, timings and "
    "example keys (SCAN order) differ from run to run",
}
#: Machine-dependent values, compared by their shape: pattern → what both sides become.
SHAPES = (
    (re.compile(r"\(\d+(?:\.\d+)? s\)"), "(<seconds> s)"),
    (re.compile(r"\(Python [^,()]+, redis-py [^,()]+, hiredis [^,()]+\)"), "(Python <v>, redis-py <v>, hiredis <v>)"),
    (re.compile(r"^core: (?:compiled|pure Python) \(.+\)$"), "core: <compiled or pure Python> (<why>)"),
)


@dataclass(frozen=True)
class Example:
    command: str  # as written, without its trailing comment
    output: tuple[str, ...]
    line: int  # of the command in README.md


def examples(text: str) -> list[Example]:
    """The commands of ```console blocks that show output, with that output."""
    found: list[Example] = []
    command: tuple[str, int] | None = None
    output: list[str] = []
    in_block = False

    def close() -> None:
        if command is not None and output:
            found.append(Example(command[0], tuple(output), command[1]))

    for number, line in enumerate(text.splitlines(), 1):
        if not in_block:
            in_block = line.strip() == "```console"
            command, output = None, []
            continue
        if line.strip() == "```":
            close()
            in_block = False
        elif line.startswith("$ "):
            close()
            command, output = (" ".join(shlex.split(line[2:], comments=True)), number), []
        elif command is not None:
            output.append(line)
    return found


def shape(line: str) -> str:
    line = line.rstrip()
    for pattern, replacement in SHAPES:
        line = pattern.sub(replacement, line)
    return line


def matches(shown: tuple[str, ...], actual: list[str]) -> bool:
    """Whether `actual` has the shown lines, `...` standing for any lines (see the module docstring)."""
    segments: list[list[str]] = [[]]
    for line in shown:
        if line == ELLIPSIS:
            segments.append([])
        else:
            segments[-1].append(shape(line))
    lines = [shape(line) for line in actual]
    if len(segments) == 1:
        return lines == segments[0]
    open_start, open_end = shown[0] == ELLIPSIS, shown[-1] == ELLIPSIS
    first, last = segments[0], segments[-1]
    if not open_start and lines[: len(first)] != first:
        return False
    if not open_end and (len(lines) < len(last) or lines[len(lines) - len(last) :] != last):
        return False
    position = 0 if open_start else len(first)
    end = len(lines) if open_end else len(lines) - len(last)
    for segment in segments[1:-1]:
        at = next((i for i in range(position, end - len(segment) + 1) if lines[i : i + len(segment)] == segment), None)
        if at is None:
            return False
        position = at + len(segment)
    return position <= end


README_EXAMPLES = examples(README.read_text(encoding="utf-8"))
RUN = [example for example in README_EXAMPLES if example.command not in NOT_RUN]


def test_the_readme_has_examples_to_run() -> None:
    assert len(RUN) >= 5, [example.command for example in README_EXAMPLES]
    assert {example.command for example in README_EXAMPLES} >= set(NOT_RUN), "NOT_RUN names a command gone from README"


@pytest.mark.parametrize("example", RUN, ids=[example.command for example in RUN])
def test_readme_example(example: Example) -> None:
    argv = shlex.split(example.command)
    assert argv[0] == "rediscipline", f"README.md:{example.line}: only rediscipline commands are run"
    drop = ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "REDIS_URL", "PYTHONWARNINGS")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("REDISCIPLINE_")}
    done = subprocess.run(
        [sys.executable, "-m", "rediscipline", *argv[1:]],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    actual = (done.stdout + done.stderr).splitlines()
    shown = "\n".join(example.output)
    assert matches(example.output, actual), (
        f"README.md:{example.line}: `{example.command}` printed\n{done.stdout}{done.stderr}\n--- README shows\n{shown}"
    )


@pytest.mark.parametrize(
    ("shown", "actual", "expected"),
    [
        (("a", "b"), ["a", "b"], True),
        (("a", "b"), ["a", "b", "c"], False),  # the end is anchored
        (("a",), ["a", "a"], False),
        (("a", ELLIPSIS), ["a", "b", "c"], True),
        ((ELLIPSIS, "c"), ["a", "b", "c"], True),
        ((ELLIPSIS, "b"), ["a", "b", "c"], False),
        (("a", ELLIPSIS, "c", "d", ELLIPSIS), ["a", "x", "c", "d", "y"], True),
        (("a", ELLIPSIS, "c", "d", ELLIPSIS), ["a", "c", "x", "d"], False),  # shown lines are consecutive
        (("a", ELLIPSIS, "b"), ["a", "b"], True),  # `...` may stand for no line
        (("a", ELLIPSIS, "a"), ["a"], False),  # one output line is not shown twice
        ((ELLIPSIS, "x", ELLIPSIS, "y", ELLIPSIS), ["y", "x"], False),  # in order
        (("took (0.02 s)",), ["took (1.5 s)"], True),
        (("took (0.02 s)",), ["took 0.02 s"], False),
        (("core: compiled (Cython 3.1.2, modules: a._b)",), ["core: pure Python (REDISCIPLINE_PURE=1)"], True),
        (("core: compiled (Cython 3.1.2, modules: a._b)",), ["core: compiled"], False),
    ],
)
def test_matching(shown: tuple[str, ...], actual: list[str], expected: bool) -> None:
    assert matches(shown, actual) is expected


def test_examples_are_read_from_console_blocks_only() -> None:
    text = "\n".join(
        [
            "```console",
            "$ rediscipline keys a.txt   # a comment",
            "out 1",
            "$ rediscipline --help",
            "$ rediscipline rule KEY005",
            "out 2",
            "```",
            "```python",
            "$ rediscipline not-this",
            "x",
            "```",
        ]
    )
    assert examples(text) == [
        Example("rediscipline keys a.txt", ("out 1",), 2),
        Example("rediscipline rule KEY005", ("out 2",), 5),
    ]
