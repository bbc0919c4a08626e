"""What `rediscipline traffic` finds and what it costs the server, on a Zipf workload over a real Redis 7.0.

One Debian Redis 7.0 (/usr/bin/redis-server, persistence off, `maxmemory-policy allkeys-lfu`, a free 127.0.0.1
port, started through tests/support/servers.py and stopped by its PID) holds `--keys` string keys `bench:<rank>`.
A workload process reads them with GETs drawn from Zipf(`--alpha`) over the ranks, pipelined `--pipeline` at a
time, as fast as it can (it counts every key it sends). Then, `--repeat` times, alternating:

  alone      the workload runs for `--duration` seconds and nothing else touches the server
  observed   `rediscipline traffic URL --duration D --format json` runs (its own process); the workload keeps going
  monitored  the same with `--monitor` (a MONITOR sample after the window's first fifth, at most 2 s)

For each, the server's own rate is `total_commands_processed` over the window (read from INFO by this script
before and after, minus its own two INFO calls); the table gives the median and min-max of each and the drop of
the medians. Recall: of the workload's true top 10 keys (by what it sent), how many the traffic report's 10
hottest keys hold (from OBJECT FREQ under the LFU policy; with --monitor, from the MONITOR sample). Rate
error (monitored): for each of the true top 10 keys the report lists, its reported accesses per second against
its true rate (its share of the workload's GETs times the server's rate during the sample, which the report's
`monitor.cost.ops_during` gives). MONITOR's cost: the report's own `monitor.cost.drop`. Peak RSS of a monitored
run: its `ru_maxrss` against a run without it (the sketches are bounded whatever the traffic). Census: the
commands `rediscipline traffic` sent, counted by the server (`INFO commandstats` of a fresh server with no
workload, before and after one run).

Targets (issue 20; reported, not asserted): throughput drop without --monitor <= 1 %, <= 20 commands plus one
OBJECT FREQ per key read, recall >= 0.8 from OBJECT FREQ, recall >= 0.9 from MONITOR with the rates within
20 %, sketch memory <= 50 MB, the window ending within 1 s of --duration.

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
from typing import Any

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


def observe(server: ServerProcess, duration: float, pin: bool, *extra: str) -> tuple[dict[str, Any], float]:
    """One `rediscipline traffic` run (with `extra` options): its JSON report and its peak RSS in MB."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "traffic.json"
        argv = [sys.executable, "-m", "rediscipline", "traffic", server.url, "--duration", str(duration), *extra]
        argv += ["--format", "json", "--output", str(out), "--exit-zero", "--isolated"]
        if pin:
            argv = ["taskset", "-c", str(CLIENT_CPU), *argv]
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _pid, status, usage = os.wait4(process.pid, 0)  # taskset execs the command: the same process
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"rediscipline traffic failed: {process.stderr.read().decode() if process.stderr else ''}")
        return json.loads(out.read_text()), usage.ru_maxrss / 1024


def hot_keys(report: dict[str, Any]) -> list[tuple[bytes, float]]:
    """The report's hot keys with their accesses per second, hottest first."""
    hot = report.get("traffic", [{}])[0].get("hot_keys", [])
    return [
        (
            base64.b64decode(item["key_b64"]) if "key_b64" in item else item["key"].encode(),
            item["ops_per_second"] or 0.0,
        )
        for item in hot
    ]


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
        rates: dict[str, list[float]] = {"alone": [], "observed": [], "monitored": []}
        peaks: dict[str, list[float]] = {"observed": [], "monitored": []}
        overruns: list[float] = []
        reports: dict[str, list[dict[str, Any]]] = {"observed": [], "monitored": []}
        for round_ in range(args.repeat):
            for kind in ("alone", "observed", "monitored"):
                first, began = processed(client), time.perf_counter()
                if kind == "alone":
                    time.sleep(args.duration)
                else:
                    extra = ("--monitor",) if kind == "monitored" else ()
                    report, peak = observe(server, args.duration, args.pin, *extra)
                    peaks[kind].append(peak)
                    reports[kind].append(report)
                    traffic = report["traffic"][0] if report.get("traffic") else None
                    seconds = traffic["seconds"] if traffic else args.duration
                    overruns.append(seconds - args.duration)
                seconds_taken = time.perf_counter() - began
                rate = (processed(client) - first - 1) / seconds_taken
                rates[kind].append(rate)
                print(f"round {round_ + 1}/{args.repeat} {kind:<9} {rate:>10,.0f} commands/s", flush=True)
        stop_here.send(True)
        sent: dict[int, int] = result_here.recv()
        worker.join()
    finally:
        server.stop()
    total_sent = sum(sent.values())
    share = {b"bench:%d" % rank: n / total_sent for rank, n in sent.items()}
    top = [b"bench:%d" % rank for rank, _n in Counter(sent).most_common(10)]
    lfu_recalls = [len(set(top) & {key for key, _r in hot_keys(r)[:10]}) / 10 for r in reports["observed"]]
    monitor_recalls, errors, drops = [], [], []
    for report in reports["monitored"]:
        found = dict(hot_keys(report)[:10])
        monitor_recalls.append(len(set(top) & set(found)) / 10)
        sample = report["traffic"][0]["monitor"]
        cost = sample["cost"] if sample else None
        if cost:
            drops.append(cost["drop"])
            during = cost["ops_during"]
            errors.append(
                max(abs(found[key] - share[key] * during) / (share[key] * during) for key in top if key in found)
            )
    print()
    for kind, values in rates.items():
        print(f"{kind:<10} median {statistics.median(values):,.0f}/s (min-max {min(values):,.0f}-{max(values):,.0f})")
    alone, observed = statistics.median(rates["alone"]), statistics.median(rates["observed"])
    print(f"drop of the medians without --monitor: {100 * (alone - observed) / alone:.2f} % (target <= 1 %)")
    print(f"recall of the true top 10 from OBJECT FREQ, per round: {lfu_recalls} (target >= 0.8)")
    print(f"recall of the true top 10 from MONITOR, per round: {monitor_recalls} (target >= 0.9)")
    print(f"largest rate error of the top 10 from MONITOR, per round: {[f'{e:.1%}' for e in errors]} (target <= 20 %)")
    print(f"MONITOR's cost (the report's drop), per round: {[f'{d:.1%}' for d in drops]}")
    observed_rss, monitored_rss = max(peaks["observed"]), max(peaks["monitored"])
    print(f"peak RSS of a traffic run: {observed_rss:.1f} MB, with --monitor {monitored_rss:.1f} MB: the sample took "
          f"{monitored_rss - observed_rss:.1f} MB (sketches: target <= 50 MB)")  # fmt: skip
    print(f"window length beyond --duration: max {max(overruns):.3f} s (target <= 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
