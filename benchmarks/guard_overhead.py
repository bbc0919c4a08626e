"""What the runtime guard costs an application, beside plain redis-py in the same run, and what it keeps.

Overhead: one real Debian Redis 7.0 (/usr/bin/redis-server, persistence off, a free 127.0.0.1 port, started by
the test suite's fixture and stopped by its PID) and two loops of `--commands` commands over distinct keys
`user:profile:<n>`, each run with a plain `redis.Redis` and with the same client under `guard(mode="record",
select=["ALL"], isolated=True)` (every rule, no convention file):

  direct     SET key value EX ttl (ttl with random jitter, so no rule is broken) and GET key, alternately, each
             sent at once
  pipelined  the same commands on a `pipeline(transaction=False)` executed every 100 commands

The plain and guarded runs alternate (plain, guarded, plain, ...) `--repeat` times, so a slow phase of the
machine hits both; the table shows the median and min–max wall time of each, the overhead of the medians
and the cost per command in µs ((guarded − plain) / commands). `--pin` pins this process to CPU 0 and the
server to CPU 1. Targets (reported, not asserted): ≤ 5% for each loop.

Memory: a collector fed `--memory-commands` commands over `--memory-keys` distinct keys (SET with EX, GET,
HSET, EXPIRE, MGET of 10, in turn) through its hook, without a server (the collector's memory is what is
measured, not redis-py's): the process's RSS before the collector is made and after every tenth of the
commands. Target: ≤ 50 MB.

    .venv/bin/python benchmarks/guard_overhead.py [--commands 100000] [--repeat 5] [--pin]
        [--memory-commands 10000000] [--memory-keys 1000000] [--only overhead,memory] [--json FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support: the test suite's servers

from tests.support.servers import start_server

from rediscipline.guard import guard, new_collector, unguard
from rediscipline.guard.hooks import CLIENT, GuardState

PIPELINE_EVERY = 100


def rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def direct(client: Any, keys: list[str], ttls: list[int]) -> None:
    for i, key in enumerate(keys):
        if i & 1:
            client.get(key)
        else:
            client.set(key, b"value:0123456789", ex=ttls[i])


def pipelined(client: Any, keys: list[str], ttls: list[int]) -> None:
    pipe = client.pipeline(transaction=False)
    for i, key in enumerate(keys):
        if i & 1:
            pipe.get(key)
        else:
            pipe.set(key, b"value:0123456789", ex=ttls[i])
        if len(pipe) >= PIPELINE_EVERY:
            pipe.execute()
    pipe.execute()


def timed(loop: Callable[[Any, list[str], list[int]], None], client: Any, keys: list[str], ttls: list[int]) -> float:
    gc.collect()
    start = time.perf_counter()
    loop(client, keys, ttls)
    return time.perf_counter() - start


def overhead(commands: int, repeat: int, pin: bool, block: int) -> dict[str, Any]:
    """Whole loops of `commands`, plain and guarded in turn, `repeat` times; and the same loops cut in blocks
    of `block` commands, plain and guarded alternating block by block (a drift of the machine's speed then
    hits both alike): the overhead of the median block of each."""
    server = start_server("redis70", ["--save", "", "--appendonly", "no"])
    try:
        if pin and hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
            os.sched_setaffinity(0, {0})
            os.sched_setaffinity(server.pid, {1})
        keys = [f"user:profile:{n}" for n in range(commands)]
        rng = random.Random(7)
        ttls = [3600 + rng.randint(0, 360) for _ in range(commands)]
        client = redis.Redis(host="127.0.0.1", port=server.port)
        client.ping()
        owner = new_collector("record", select=["ALL"], isolated=True)
        results: dict[str, Any] = {}
        for name, loop in (("direct", direct), ("pipelined", pipelined)):
            plain: list[float] = []
            guarded: list[float] = []
            loop(client, keys[: commands // 10], ttls)  # warm the connection and the server's dict
            for _ in range(repeat):
                plain.append(timed(loop, client, keys, ttls))
                guard(client, collector=owner)
                guarded.append(timed(loop, client, keys, ttls))
                unguard(client)
            blocks_plain: list[float] = []
            blocks_guarded: list[float] = []
            for _ in range(repeat):
                for start in range(0, commands, block):
                    part, part_ttls = keys[start : start + block], ttls[start : start + block]
                    blocks_plain.append(timed(loop, client, part, part_ttls) / len(part))
                    guard(client, collector=owner)
                    blocks_guarded.append(timed(loop, client, part, part_ttls) / len(part))
                    unguard(client)
            p, g = statistics.median(plain), statistics.median(guarded)
            bp, bg = statistics.median(blocks_plain), statistics.median(blocks_guarded)
            results[name] = {
                "plain_s": plain,
                "guarded_s": guarded,
                "plain_median_s": p,
                "guarded_median_s": g,
                "overhead_pct": (g / p - 1) * 100,
                "us_per_command_plain": p / commands * 1e6,
                "us_per_command_added": (g - p) / commands * 1e6,
                "block_commands": block,
                "block_overhead_pct": (bg / bp - 1) * 100,
                "block_us_per_command_added": (bg - bp) * 1e6,
            }
        return results
    finally:
        server.stop()


def memory(commands: int, distinct: int) -> dict[str, Any]:
    gc.collect()
    before = rss_mb()
    collector = new_collector("record", select=["ALL"], isolated=True)
    state = GuardState(collector, CLIENT, "utf-8")
    keys = [f"user:session:{n}".encode() for n in range(distinct)]
    gc.collect()
    after_keys = rss_mb()  # the key list itself is the benchmark's, not the collector's
    points: list[tuple[int, float]] = []
    rng = random.Random(11)
    step = max(commands // 10, 1)
    for i in range(commands):
        key = keys[i % distinct]
        kind = i % 5
        if kind == 0:
            collector.before(("SET", key, b"v", "EX", 600 + rng.randint(0, 60)), state)
        elif kind == 1:
            collector.before(("GET", key), state)
        elif kind == 2:
            collector.before(("HSET", key + b":h", b"f", b"v"), state)
        elif kind == 3:
            collector.before(("EXPIRE", key + b":h", 600), state)
        else:
            collector.before(("MGET", *keys[i % distinct : i % distinct + 10]), state)
        if (i + 1) % step == 0:
            gc.collect()
            points.append((i + 1, rss_mb() - after_keys))
    return {
        "commands": commands,
        "distinct_keys": distinct,
        "rss_before_mb": before,
        "collector_mb": points,
        "collector_peak_mb": max(mb for _n, mb in points),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pin", action="store_true")
    parser.add_argument("--block", type=int, default=2000)
    parser.add_argument("--memory-commands", type=int, default=10_000_000)
    parser.add_argument("--memory-keys", type=int, default=1_000_000)
    parser.add_argument("--only", default="overhead,memory")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    only = set(args.only.split(","))
    out: dict[str, Any] = {}
    if "overhead" in only:
        out["overhead"] = overhead(args.commands, args.repeat, args.pin, args.block)
        for name, row in out["overhead"].items():
            plain, guarded = row["plain_s"], row["guarded_s"]
            print(
                f"{name:10} plain {row['plain_median_s']:.2f} s ({min(plain):.2f}–{max(plain):.2f})  "
                f"guarded {row['guarded_median_s']:.2f} s ({min(guarded):.2f}–{max(guarded):.2f})  "
                f"overhead {row['overhead_pct']:+.1f}%  plain {row['us_per_command_plain']:.1f} µs/command, "
                f"guard +{row['us_per_command_added']:.2f} µs/command; in blocks of {row['block_commands']}: "
                f"overhead {row['block_overhead_pct']:+.1f}%, +{row['block_us_per_command_added']:.2f} µs/command"
            )
    if "memory" in only:
        out["memory"] = memory(args.memory_commands, args.memory_keys)
        points = ", ".join(f"{n:,}: {mb:.1f}" for n, mb in out["memory"]["collector_mb"])
        print(f"collector RSS growth (MB) after N commands over {args.memory_keys:,} keys: {points}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
