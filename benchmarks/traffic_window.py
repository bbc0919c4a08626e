"""What `rediscipline traffic` finds and what it costs the server, on a Zipf workload over a real Redis 7.0.

One Debian Redis 7.0 (/usr/bin/redis-server, persistence off, `maxmemory-policy allkeys-lfu`, a free 127.0.0.1
port, started through tests/support/servers.py and stopped by its PID) holds `--keys` string keys `bench:<rank>`.
A workload process reads them with GETs drawn from Zipf(`--alpha`) over the ranks, pipelined `--pipeline` at a
time, as fast as it can (it counts every key it sends). Then, `--repeat` times, alternating:

  alone     the workload runs for `--duration` seconds and nothing else touches the server
  observed  `rediscipline traffic URL --duration D --format json` runs (its own process); the workload keeps going

For both, the server's own rate is `total_commands_processed` over the window (read from INFO by this script
before and after, minus its own two INFO calls); the table gives the median and min-max of each and the drop of
the medians. Recall: of the workload's true top 10 keys (by what it sent), how many the traffic report's 10
hottest keys hold (from OBJECT FREQ under the LFU policy). Census: the commands `rediscipline traffic` sent,
counted by the server (`INFO commandstats` of a fresh server with no workload, before and after one run).

Targets (issue 20; reported, not asserted): throughput drop without --monitor <= 1 %, <= 20 commands plus one
OBJECT FREQ per key read, recall >= 0.8 from OBJECT FREQ, the window ending within 1 s of --duration.

    .venv/bin/python benchmarks/traffic_window.py [--keys 100000] [--alpha 1.0] [--duration 10] [--repeat 3]
        [--pipeline 50] [--pin]
"""

from __future__ import annotations

import argparse
import base64
import bisect
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from itertools import accumulate
from multiprocessing.connection import Connection
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support.servers: the project's way to run a real server

from tests.support.servers import ServerProcess, start_server  # noqa: E402

SERVER_CPU, CLIENT_CPU = 0, 1


def workload(port: int, keys: int, alpha: float, pipeline: int, *, stop: Connection, out: Connection) -> None:
    """GETs of Zipf-drawn keys until told to stop; sends back the keys it sent, by rank."""
    cumulative = list(accumulate(1.0 / rank**alpha for rank in range(1, keys + 1)))
    total = cumulative[-1]
    chooser = random.Random(1)
    client = redis.Redis(port=port)
    sent: Counter[int] = Counter()
    while not stop.poll():
        pipe = client.pipeline(transaction=False)
        for _ in range(pipeline):
            rank = bisect.bisect_left(cumulative, chooser.random() * total) + 1
            sent[rank] += 1
            pipe.get(b"bench:%d" % rank)
        pipe.execute()
    out.send(dict(sent))


def processed(client: redis.Redis) -> int:
    return int(client.info("stats")["total_commands_processed"])


def observe(server: ServerProcess, duration: float, pin: bool) -> tuple[dict[str, object], float]:
    """One `rediscipline traffic` run: its JSON report and its wall time."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "traffic.json"
        argv = [sys.executable, "-m", "rediscipline", "traffic", server.url, "--duration", str(duration)]
        argv += ["--format", "json", "--output", str(out), "--exit-zero", "--isolated"]
        if pin:
            argv = ["taskset", "-c", str(CLIENT_CPU), *argv]
        started = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        return json.loads(out.read_text()), time.perf_counter() - started


def census(duration: float) -> Counter[str]:
    """The commands one `rediscipline traffic` run sends, counted by a fresh idle server."""
    server = start_server("redis70", ["--maxmemory-policy", "allkeys-lfu"])
    try:
        client = redis.Redis(port=server.port)
        client.mset({b"bench:%d" % n: b"v" for n in range(1, 1001)})
        before = {k: v["calls"] for k, v in client.info("commandstats").items()}
        observe(server, duration, pin=False)
        after = {k: v["calls"] for k, v in client.info("commandstats").items()}
    finally:
        server.stop()
    counted = Counter({name: after[name] - before.get(name, 0) for name in after})
    counted["cmdstat_info"] -= 1  # this script's own INFO commandstats (the second one)
    return +counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pipeline", type=int, default=50)
    parser.add_argument("--pin", action="store_true", help="taskset: the server on CPU 0, the clients on CPU 1")
    args = parser.parse_args()

    calls = census(1.0)
    print(f"census (one run, 1,000 keys): {sum(calls.values())} commands: " + ", ".join(
        f"{name.removeprefix('cmdstat_')} {n}" for name, n in sorted(calls.items())
    ))  # fmt: skip
    server = start_server("redis70", ["--maxmemory-policy", "allkeys-lfu", "--save", ""])
    context = multiprocessing.get_context("spawn")
    stop_here, stop_there = context.Pipe()
    result_there, result_here = context.Pipe()
    try:
        if args.pin:
            os.sched_setaffinity(server.pid, {SERVER_CPU})
            os.sched_setaffinity(0, {CLIENT_CPU})
        client = redis.Redis(port=server.port)
        for start in range(1, args.keys + 1, 10_000):
            client.mset({b"bench:%d" % n: b"v" for n in range(start, min(start + 10_000, args.keys + 1))})
        worker = context.Process(
            target=workload,
            args=(server.port, args.keys, args.alpha, args.pipeline),
            kwargs={"stop": stop_there, "out": result_there},
        )
        worker.start()
        time.sleep(3.0)  # the LFU counters of the hot keys climb before any window
        rates: dict[str, list[float]] = {"alone": [], "observed": []}
        recalls: list[float] = []
        overruns: list[float] = []
        report: dict[str, object] = {}
        for round_ in range(args.repeat):
            for kind in ("alone", "observed"):
                first, began = processed(client), time.perf_counter()
                if kind == "alone":
                    time.sleep(args.duration)
                else:
                    report, _wall = observe(server, args.duration, args.pin)
                    traffic = report["traffic"][0] if report.get("traffic") else None  # type: ignore[index]
                    seconds = traffic["seconds"] if traffic else args.duration  # type: ignore[index]
                    overruns.append(seconds - args.duration)
                seconds_taken = time.perf_counter() - began
                rate = (processed(client) - first - 1) / seconds_taken
                rates[kind].append(rate)
                print(f"round {round_ + 1}/{args.repeat} {kind:<9} {rate:>10,.0f} commands/s", flush=True)
        stop_here.send(True)
        sent: dict[int, int] = result_here.recv()
        worker.join()
        top = {b"bench:%d" % rank for rank, _n in Counter(sent).most_common(10)}
        hot = report.get("traffic", [{}])[0].get("hot_keys", [])  # type: ignore[union-attr,index]
        found = [base64.b64decode(item["key_b64"]) if "key_b64" in item else item["key"].encode() for item in hot[:10]]
        recalls.append(len(top & set(found)) / 10)
    finally:
        server.stop()
    alone, observed = statistics.median(rates["alone"]), statistics.median(rates["observed"])
    print(f"\nalone     median {alone:,.0f}/s (min-max {min(rates['alone']):,.0f}-{max(rates['alone']):,.0f})")
    print(f"observed  median {observed:,.0f}/s (min-max {min(rates['observed']):,.0f}-{max(rates['observed']):,.0f})")
    print(f"drop of the medians: {100 * (alone - observed) / alone:.2f} % (target <= 1 %)")
    print(f"recall of the true top 10 from OBJECT FREQ: {recalls[-1]:.1f} (target >= 0.8)")
    print(f"window length beyond --duration: max {max(overruns):.3f} s (target <= 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
