"""Start-up time of the `rediscipline` command: `--version`, `--help` and `rules`, each a fresh process.

    python benchmarks/startup.py [--runs 10] [--command "python -m rediscipline"]

Each run is one subprocess, timed from spawn to exit (wall clock); the commands alternate (A B C A B C ...) so
that a change in machine load touches all of them alike. Prints the median and the min–max per command. The
default command is the console script next to this interpreter, as users run it; `--command` measures
another (e.g. `--command "python -m rediscipline"`, or an older checkout with PYTHONPATH set). The target is
`--version` and `--help` at or under 0.3 s.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

CASES = (("--version",), ("--help",), ("rules",))
TARGET_SECONDS = 0.3


def default_command() -> list[str]:
    script = Path(sys.executable).with_name("rediscipline")
    return [str(script)] if script.exists() else [sys.executable, "-m", "rediscipline"]


def time_once(command: list[str], args: tuple[str, ...]) -> float:
    started = time.perf_counter()
    done = subprocess.run([*command, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"`{shlex.join([*command, *args])}` exited with {done.returncode}: {done.stderr[-500:]!r}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10, help="runs per command (at least 5; default 10)")
    parser.add_argument("--command", help="the command to measure (default: the console script of this venv)")
    args = parser.parse_args()
    runs = max(args.runs, 5)
    command = shlex.split(args.command) if args.command else default_command()
    for case in CASES:  # one warm-up each: the first run pays for cold file caches
        time_once(command, case)
    samples: dict[tuple[str, ...], list[float]] = {case: [] for case in CASES}
    for _ in range(runs):
        for case in CASES:
            samples[case].append(time_once(command, case))
    print(f"{shlex.join(command)}: {runs} runs each, alternating, wall time per process")
    print(f"{'command':<12} {'median':>8} {'min':>8} {'max':>8}")
    for case, times in samples.items():
        print(f"{' '.join(case):<12} {statistics.median(times):>7.3f}s {min(times):>7.3f}s {max(times):>7.3f}s")
    slow = [" ".join(c) for c in CASES[:2] if statistics.median(samples[c]) > TARGET_SECONDS]
    if slow:
        print(f"over the {TARGET_SECONDS} s target: {', '.join(slow)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
