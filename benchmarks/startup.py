"""Start-up time of the `rediscipline` command: the fixed cost every run pays, each case a fresh process.

    python benchmarks/startup.py [--runs 10] [--command "python -m rediscipline"] [--against OLD/src]

Cases: `--version`, `--help`, `rules`, `check` of one small Python file (the sample project's cache module),
and `scan` of the small `probe` dump of benchmarks/rdb_datasets.py (a few keys of every type, < 1 MB; built
with the local Redis 7.0 on first use, then cached) writing JSON to a file and text to stdout, every rule on.
On such inputs the run's own work is a few hundredths of a second: what is left is start-up.

Each run is one subprocess, timed from spawn to exit (wall clock); the cases alternate (A B C A B C ...) so
that a change in machine load touches all of them alike, after one warm-up run each. The runs see the
environment without PYTHONDONTWRITEBYTECODE: an install from a wheel has its .pyc files, and a run that
recompiles every module it imports measures the compiler. Prints the median and the min–max per case.

The default command is the console script next to this interpreter, as users run it; `--command` measures
another (e.g. `--command "python -m rediscipline"`). `--against DIR` times every case a second time with
PYTHONPATH=DIR, alternating with the first (DIR: the `src` folder of another checkout, e.g. a copy of main's,
with its compiled modules built): before/after figures from one run. The targets: `--version` and `--help` at
or under 0.3 s, the JSON scan of the probe dump at or under 0.18 s.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from rdb_datasets import DEFAULT_DIR, ensure

ROOT = Path(__file__).resolve().parent.parent
SMALL_PYTHON_FILE = ROOT / "examples" / "sample-project" / "shop" / "cache.py"
TARGETS = {"--version": 0.3, "--help": 0.3, "scan probe (json)": 0.18}
SCAN = ("--isolated", "--select", "ALL", "--exit-zero", "--no-progress")


def default_command() -> list[str]:
    script = Path(sys.executable).with_name("rediscipline")
    return [str(script)] if script.exists() else [sys.executable, "-m", "rediscipline"]


def cases(folder: Path, probe: Path | None) -> dict[str, tuple[str, ...]]:
    """Each case's name and arguments; the scans only when the probe dump is there."""
    found = {
        "--version": ("--version",),
        "--help": ("--help",),
        "rules": ("rules",),
        "check file": ("check", str(SMALL_PYTHON_FILE), "--isolated", "--exit-zero"),
    }
    if probe is not None:
        report = str(folder / "report.json")
        found["scan probe (json)"] = ("scan", str(probe), *SCAN, "--format", "json", "--output", report)
        found["scan probe (text)"] = ("scan", str(probe), *SCAN, "--format", "text")
    return found


def time_once(command: list[str], args: tuple[str, ...], env: Mapping[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [*command, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"`{shlex.join([*command, *args])}` exited with {done.returncode}: {done.stderr[-500:]!r}")
    return elapsed


def probe_copy(folder: Path) -> Path | None:
    """A copy of the cached probe dump in `folder` (the cache itself is only read), None when it cannot be had."""
    try:
        dataset = ensure("probe", DEFAULT_DIR)
    except Exception as error:  # no redis-server to build it with: the scan rows are left out, and why
        print(f"no probe dump, the scans are left out: {error}", file=sys.stderr)
        return None
    return Path(shutil.copy(dataset.path, folder / "probe.rdb"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10, help="runs per case (at least 5; default 10)")
    parser.add_argument("--command", help="the command to measure (default: the console script of this venv)")
    parser.add_argument("--against", type=Path, metavar="DIR", help="also time every case with PYTHONPATH=DIR")
    args = parser.parse_args()
    runs = max(args.runs, 5)
    command = shlex.split(args.command) if args.command else default_command()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    sides: dict[str, dict[str, str]] = {"": env}
    if args.against is not None:
        sides = {"after": env, "before": {**env, "PYTHONPATH": str(args.against.resolve())}}
    with tempfile.TemporaryDirectory(prefix="rediscipline-startup-") as temporary:
        folder = Path(temporary)
        measured = cases(folder, probe_copy(folder))
        for side_env in sides.values():  # one warm-up each: it writes the .pyc files and fills the file cache
            for case in measured.values():
                time_once(command, case, side_env)
        samples: dict[tuple[str, str], list[float]] = {(side, name): [] for side in sides for name in measured}
        for _ in range(runs):
            for name, case in measured.items():
                for side, side_env in sides.items():
                    samples[side, name].append(time_once(command, case, side_env))
    print(f"{shlex.join(command)}: {runs} runs each, alternating, wall time per process")
    print(f"{'case':<20} {'side':<7} {'median':>8} {'min':>8} {'max':>8}")
    for name in measured:
        for side in sides:
            times = samples[side, name]
            print(
                f"{name:<20} {side or '-':<7} {statistics.median(times):>7.3f}s {min(times):>7.3f}s {max(times):>7.3f}s"
            )
    first = next(iter(sides))
    slow = [
        name for name, limit in TARGETS.items() if name in measured and statistics.median(samples[first, name]) > limit
    ]
    if slow:
        print(f"over target ({', '.join(f'{name} {TARGETS[name]} s' for name in slow)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
