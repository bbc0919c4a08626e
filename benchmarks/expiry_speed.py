"""How fast `simulate.expiry` predicts the active expire cycle of a big keyspace. Target (issue): 10M volatile
keys in at most 1 s.

Two keyspaces of one database, built in memory first as array('q') columns (not timed; lists of ints are
converted to such columns first, which the last line times):
* spread: `--keys` keys whose TTLs are spread evenly over the next hour, values of 100 to 599 bytes;
* storm: the same keys, `--storm` of them (spread over the table) expiring in the same second, at 600 s.
Each is simulated for 3600 s with a point every 60 s (defaults: hz 10, effort 1), and the spread one for 0 s too
(laying out the table and counting its expiries by point: what any span costs first), with each of `--algorithms`,
`--repeat` times, alternating the keyspaces and algorithms: the simulation alone, with the compiled core this
install has (`_expire`), and with the pure-Python code on `--pure-keys` keys (the storm scaled to the same share
of them): the pure code takes minutes on 10M keys, and its time grows about linearly with the keys. Each time is
the wall clock of one `simulate_expiry` call: laying out the tables (fresh memory: the page faults are part of
it), then the cycles. Printed: median (min–max) seconds.

    .venv/bin/python benchmarks/expiry_speed.py [--repeat 3] [--pin] [--keys 10000000] [--storm 2000000]
        [--pure-keys 1000000] [--algorithms cursor valkey9 random] [--skip-pure]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from array import array
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rediscipline import compiled  # noqa: E402
from rediscipline.simulate.expiry import (  # noqa: E402
    ALGORITHMS,
    ExpiryOutcome,
    ExpirySettings,
    VolatileKeys,
    simulate_expiry,
    simulate_expiry_in_python,
)

START_MS = 1_795_000_000_000
HOUR_MS = 3_600_000
SECONDS, STEP = 3600, 60
STORM_AT_MS = 600_000
Simulate = Callable[[list[VolatileKeys], int, float, float, ExpirySettings], ExpiryOutcome]


def keyspace(keys: int, storm: int) -> VolatileKeys:
    """`keys` TTLs spread over the next hour, `storm` of them (every keys // storm-th) moved into one second."""
    expires = array("q", (START_MS + index * HOUR_MS // keys for index in range(keys)))
    if storm:
        every = keys // storm
        for number in range(storm):
            expires[number * every] = START_MS + STORM_AT_MS + number % 1000
    return VolatileKeys(0, expires, array("q", (100 + index % 500 for index in range(keys))))


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def measure(label: str, run: Simulate, keys: int, storm: int, args: argparse.Namespace) -> None:
    spread = keyspace(keys, 0)
    cases = {"spread": (spread, SECONDS), "storm": (keyspace(keys, storm), SECONDS), "spread, 0 s": (spread, 0)}
    seconds: dict[tuple[str, str], list[float]] = {(case, a): [] for case in cases for a in args.algorithms}
    reclaimed: dict[tuple[str, str], int] = {}
    for _repeat in range(args.repeat):
        for case, (volatile, span) in cases.items():
            for algorithm in args.algorithms:
                settings = ExpirySettings(algorithm=algorithm)
                started = time.perf_counter()
                outcome = run([volatile], START_MS, span, STEP, settings)
                seconds[(case, algorithm)].append(time.perf_counter() - started)
                reclaimed[(case, algorithm)] = outcome.series[-1].reclaimed
    print(f"\n{label}: {keys:,} keys (storm: {storm:,} of them in one second), {SECONDS} s (or 0) at a {STEP} s step")
    print("| keyspace | algorithm | seconds: median (min–max) | reclaimed at the end |")
    print("|---|---|---|---|")
    for (case, algorithm), values in seconds.items():
        print(f"| {case} | {algorithm} | {_spread(values)} | {reclaimed[(case, algorithm)]:,} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=10_000_000)
    parser.add_argument("--storm", type=int, default=2_000_000)
    parser.add_argument("--pure-keys", type=int, default=1_000_000)
    parser.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, default=list(ALGORITHMS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-pure", action="store_true", help="time the compiled core only")
    parser.add_argument("--pin", action="store_true", help="pin this process to CPU 1")
    args = parser.parse_args()
    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    if compiled.load("rediscipline.simulate._expire") is None:
        print("no compiled core in this install (make build-ext): the first table is the pure-Python code too")
    measure("compiled core", simulate_expiry, args.keys, args.storm, args)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS so far: {peak:,.0f} MB (the keyspaces' columns included)")
    if not args.skip_pure:
        pure_storm = args.storm * args.pure_keys // args.keys
        measure("pure Python", simulate_expiry_in_python, args.pure_keys, pure_storm, args)
    listed = list(range(args.keys))
    started = time.perf_counter()
    array("q", listed)
    print(f"\nconverting a list of {args.keys:,} ints to array('q'): {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
