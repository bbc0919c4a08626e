"""Throughput of `rediscipline check` against bandit, side by side on the same Python files.

Both tools read every file, parse it into an AST and walk it, so bandit (the usual AST-based Python checker
run in CI) is the reference for "fast enough to run on every pull request". The corpus is the standard
library of the running interpreter by default (`sysconfig.get_paths()["stdlib"]`, ~1,800 files and ~860,000
lines on CPython 3.11), or `--corpus DIR`. To give both tools exactly the same files, the *.py files that
`check` would read under the corpus (its own file selection: no site-packages, no venv or build folders,
.gitignore not applied) are first copied into a temporary folder, and both run on that folder:

  rediscipline  `rediscipline check MIRROR --format json --exit-zero --isolated --no-gitignore`
  bandit        `bandit -r MIRROR -q -f json --exit-zero`

Each is a fresh process (interpreter start-up included) with the JSON report written to a file and checked
afterwards (it parses; rediscipline read every file; how many files each could not parse; findings). The
tools run `--repeat` times alternately (one round = each tool once) so a slow phase of this shared machine
hits both; the files are read once first so both find them in the page cache. Reported per tool: the best
(lowest) wall time, the median in brackets, files/s and lines/s from the best time, and peak RSS from GNU
`/usr/bin/time -f %M` (benchmarks/timing.py; "-" without GNU time). Then the ratio rediscipline ÷ bandit
throughput (bandit's best wall time / ours); the target is >= 2. `rediscipline check` exits with 2
when a file does not parse (the stdlib has a few broken on purpose), so 2 counts as success when the report
is complete.

    .venv/bin/python benchmarks/code_throughput.py [--corpus DIR] [--repeat 3] [--check-args '...']
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import statistics
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scan_throughput import run_measured
from timing import gnu_time

from rediscipline.sources.code.files import FileSelection, find_files

TARGET_RATIO = 2.0


@dataclass(frozen=True)
class Corpus:
    source: Path  # what was asked for
    mirror: Path  # the copy both tools read
    files: int
    lines: int
    megabytes: float

    def summary(self) -> str:
        return f"{self.files:,} files, {self.lines:,} lines, {self.megabytes:.1f} MB"


@dataclass
class Outcome:
    """What one run's report says, checked: None fields mean the report could not be read."""

    files: int | None = None
    unparsed: int | None = None
    findings: int | None = None
    problem: str | None = None  # why the run does not count


@dataclass
class Run:
    wall: float
    rss_mb: float
    outcome: Outcome


@dataclass
class Tool:
    name: str
    argv: list[str]
    runs: list[Run] = field(default_factory=list)

    @property
    def ok(self) -> list[Run]:
        return [r for r in self.runs if r.outcome.problem is None]

    @property
    def best(self) -> float | None:
        return min(r.wall for r in self.ok) if self.ok else None

    @property
    def median(self) -> float | None:
        return statistics.median(r.wall for r in self.ok) if self.ok else None

    @property
    def rss(self) -> float | None:
        peaks = [r.rss_mb for r in self.ok if not math.isnan(r.rss_mb)]
        return max(peaks) if peaks else None


# ---- the corpus ----------------------------------------------------------------------------------------------


def mirror_corpus(source: Path, into: Path) -> Corpus:
    """Copy the *.py files `check` selects under `source` into `into` (same relative paths); count them."""
    root = source.resolve()
    files = lines = size = 0
    for found in find_files([str(root)], FileSelection(gitignore=False), root=root):
        if found.path.suffix != ".py" or found.shown.startswith("/"):
            continue  # bandit reads no .pyi; a symlink out of the corpus is not part of it
        data = found.path.read_bytes()
        target = into / found.shown
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        files += 1
        size += len(data)
        lines += data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    if not files:
        raise SystemExit(f"no Python files under {source}")
    return Corpus(source, into, files, lines, size / 1e6)


def warm(folder: Path) -> None:
    """Read every file once so both tools find them in the page cache."""
    for current, _dirs, names in os.walk(folder):
        for name in names:
            Path(current, name).read_bytes()


# ---- running -------------------------------------------------------------------------------------------------


def executable(name: str) -> str:
    """A console script of this virtualenv (next to the interpreter), else from PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install the dev dependencies (make venv)")
    return found


def read_ours(code: int, stdout: bytes, stderr: str, corpus: Corpus) -> Outcome:
    """Our report: exit 0, or 2 with one `does not parse` / `cannot decode` line per broken file."""
    errors = [line for line in stderr.splitlines() if line.strip()]
    unexpected = [e for e in errors if "does not parse" not in e and "cannot decode" not in e]
    if code not in (0, 2) or unexpected or (code == 2) != bool(errors):
        return Outcome(problem=f"exit {code}: {(unexpected or errors or ['no message'])[-1][:300]}")
    try:
        report: dict[str, Any] = json.loads(stdout)
        checked = next(int(n.split()[0]) for n in report["notes"] if n.endswith("Python file(s) checked"))
        outcome = Outcome(checked, len(errors), len(report["findings"]))
    except (ValueError, KeyError, TypeError, StopIteration) as error:
        return Outcome(problem=f"unreadable JSON report: {error!r}")
    if checked != corpus.files:
        outcome.problem = f"checked {checked} files of {corpus.files}"
    return outcome


def read_bandit(code: int, stdout: bytes, stderr: str, corpus: Corpus) -> Outcome:
    """Bandit's report: exit 0 (--exit-zero); files it could not parse are listed under "errors"."""
    if code != 0:
        return Outcome(problem=f"exit {code}: {stderr.strip()[-300:]}")
    try:
        report: dict[str, Any] = json.loads(stdout)
        seen = len([name for name in report["metrics"] if name != "_totals"])
        return Outcome(seen, len(report["errors"]), len(report["results"]))
    except (ValueError, KeyError, TypeError) as error:
        return Outcome(problem=f"unreadable JSON report: {error!r}")


READERS = {"rediscipline": read_ours, "bandit": read_bandit}


def measure(tools: list[Tool], corpus: Corpus, repeat: int, timer: str | None) -> None:
    for round_number in range(1, repeat + 1):
        for tool in tools:
            with tempfile.TemporaryDirectory(prefix="code-bench-run-") as tmp:
                report = Path(tmp) / "stdout"
                run = run_measured(tool.name, tool.argv, timer, stdout=report, cwd=Path(tmp))
                outcome = READERS[tool.name](run.returncode, report.read_bytes(), run.stderr, corpus)
            wall, rss = run.wall, run.rss_mb
            tool.runs.append(Run(wall, rss, outcome))
            status = f"  NOT COUNTED: {outcome.problem}" if outcome.problem else ""
            print(
                f"  round {round_number}/{repeat}  {tool.name:<13} {wall:8.2f} s  {corpus.files / wall:7.1f} files/s"
                f"  {fmt(rss, '.1f', 7)} MB  {outcome.findings if outcome.findings is not None else '-'} findings"
                f"{status}",
                flush=True,
            )


# ---- report --------------------------------------------------------------------------------------------------


def fmt(value: float | None, spec: str, width: int) -> str:
    if value is None or math.isnan(value):
        return f"{'-':>{width}}"
    return f"{value:{width}{spec}}"


def print_table(tools: list[Tool], corpus: Corpus, repeat: int) -> None:
    header = (
        f"{'tool':<13} {'best s':>8} {'(median)':>10} {'files/s':>8} {'lines/s':>9} {'peak RSS MB':>11}"
        f" {'files':>6} {'unparsed':>8} {'findings':>8}"
    )
    print(f"\n==== best of {repeat} run(s), median in brackets; page cache warm; {corpus.summary()} ====")
    print(header)
    print("-" * len(header))
    for tool in tools:
        best, median = tool.best, tool.median
        last = tool.ok[-1].outcome if tool.ok else Outcome()
        counts = [last.files, last.unparsed, last.findings]
        files, unparsed, findings = ("-" if n is None else str(n) for n in counts)
        print(
            f"{tool.name:<13} {fmt(best, '.2f', 8)} {f'({median:.2f})' if median else '-':>10}"
            f" {fmt(corpus.files / best if best else None, ',.1f', 8)}"
            f" {fmt(corpus.lines / best if best else None, ',.0f', 9)} {fmt(tool.rss, '.1f', 11)}"
            f" {files:>6} {unparsed:>8} {findings:>8}"
        )


def print_ratio(ours: Tool, bandit: Tool) -> bool:
    """The verdict: rediscipline ÷ bandit throughput (same files, so bandit's time / ours); False: no ratio."""
    if ours.best is None or bandit.best is None:
        print("\nrediscipline ÷ bandit throughput: not measured (a tool had no counted run)")
        return False
    ratio = bandit.best / ours.best
    verdict = "ok" if ratio >= TARGET_RATIO else "MISSED"
    print(f"\nrediscipline ÷ bandit throughput: {ratio:.2f}×  (target ≥ {TARGET_RATIO:g}×: {verdict})")
    return True


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} CPU(s), load average {load}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Throughput of `rediscipline check` vs bandit on the same files.")
    parser.add_argument(
        "--corpus",
        type=Path,
        default=Path(sysconfig.get_paths()["stdlib"]),
        help="folder of Python files (default: this interpreter's standard library)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tool, alternating (default 3)")
    parser.add_argument(
        "--check-args", type=shlex.split, default=[], help="extra options for rediscipline check, e.g. '--select CMD'"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat wants a positive integer")
    if not args.corpus.is_dir():
        parser.error(f"--corpus {args.corpus}: not a folder")
    timer = gnu_time()
    with tempfile.TemporaryDirectory(prefix="code-bench-corpus-") as tmp:
        corpus = mirror_corpus(args.corpus, Path(tmp))
        warm(corpus.mirror)
        check = ["check", str(corpus.mirror), "--format", "json", "--exit-zero", "--isolated", "--no-gitignore"]
        ours = Tool("rediscipline", [executable("rediscipline"), *check, *args.check_args])
        bandit = Tool("bandit", [executable("bandit"), "-r", str(corpus.mirror), "-q", "-f", "json", "--exit-zero"])
        print(f"corpus: {corpus.source} → {corpus.summary()}")
        print(f"machine: {machine()}; peak RSS: {'GNU time' if timer else 'not measured (no GNU time)'}")
        for tool in (ours, bandit):
            print(f"  {tool.name:<13} {shlex.join(tool.argv)}")
        try:
            measure([ours, bandit], corpus, args.repeat, timer)
        except KeyboardInterrupt:
            return 130
        print_table([ours, bandit], corpus, args.repeat)
        measured = print_ratio(ours, bandit)
        print(f"machine after: {machine()}")
    return 0 if measured else 1  # a missed target is reported, not an error


if __name__ == "__main__":
    sys.exit(main())
