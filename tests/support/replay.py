"""Zipf access traces, and a trace replayed against a real server as the eviction simulator models it: each
access a GET and, on a miss, a SET of its size (`SET key value NX GET`: one command, so a pipeline keeps the
order), paced by the trace's times; returns the server's own hit ratio and the times each access was sent,
which the simulator then replays with."""

from __future__ import annotations

import bisect
import random
import time
from dataclasses import dataclass
from typing import Any

import redis

from rediscipline.simulate.eviction import Trace
from rediscipline.simulate.memory import REDIS_70, MemoryModel, model_for

#: Accesses sent per pipeline.
BATCH = 50
#: The servers the suite runs, each with the memory model of its version's layout and its build's allocator.
SERVER_MODELS = {
    "redis70": model_for("redis-7.0", "jemalloc16"),
    "redis82": model_for("redis-8.2", "jemalloc"),
    "valkey91": model_for("valkey-9.1", "libc"),
}


def zipf_trace(keys: int, alpha: float, accesses: int, *, seed: int, size: int, rate: int) -> Trace:
    """`accesses` to `keys` keys `obj:N` drawn from Zipf(`alpha`) (ranks shuffled over the names), values of
    `size` bytes, `rate` accesses per second from 0 ms."""
    rng = random.Random(seed)
    cumulative, total = [], 0.0
    for rank in range(keys):
        total += 1 / (rank + 1) ** alpha
        cumulative.append(total)
    order = list(range(keys))
    rng.shuffle(order)
    drawn = [order[bisect.bisect_left(cumulative, rng.random() * total)] for _ in range(accesses)]
    times = [index * 1000 // rate for index in range(accesses)]
    names = [b"obj:%d" % number for number in range(keys)]
    return Trace(times, drawn, [size] * accesses, [0] * accesses, [0] * accesses, names)


@dataclass(frozen=True)
class Replayed:
    hit_ratio: float
    evicted_keys: int
    trace: Trace  # the trace with the times (Unix ms) its accesses were sent at
    baseline: int  # the server's used_memory less its keys at the end: itself and this client's buffers


def replay_on_server(client: redis.Redis, trace: Trace, memory: MemoryModel = REDIS_70) -> Replayed:
    """Send `trace` to the server of `client` at the pace of its times, starting now; `memory`: the model of
    that server, which its baseline is measured with."""
    start_wall = time.time()
    first = trace.times[0]
    sent: list[int] = []
    for begin in range(0, len(trace), BATCH):
        end = min(begin + BATCH, len(trace))
        delay = start_wall + (trace.times[begin] - first) / 1000 - time.time()
        if delay > 0:
            time.sleep(delay)
        now = int(time.time() * 1000)
        pipe = client.pipeline(transaction=False)
        for index in range(begin, end):
            pipe.set(trace.names[trace.keys[index]], b"x" * trace.sizes[index], nx=True, get=True)
        pipe.execute()
        sent += [now] * (end - begin)
    stats = client.info("stats")
    hits, misses = int(stats["keyspace_hits"]), int(stats["keyspace_misses"])
    timed = Trace(sent, trace.keys, trace.sizes, trace.ttls, trace.dbs, trace.names)
    baseline = _baseline(client, trace, memory)
    return Replayed(hits / (hits + misses), int(stats["evicted_keys"]), timed, baseline)


def _baseline(client: redis.Redis, trace: Trace, memory: MemoryModel) -> int:
    """`used_memory` less what the keys held take (each key held as the memory model counts it, and the dicts'
    bucket arrays as MEMORY STATS gives them): what the server spends besides its keys while this client
    replays, its query and reply buffers included."""
    used = int(client.info("memory")["used_memory"])
    stats = client.memory_stats()
    size = {number: trace.sizes[index] for index, number in enumerate(trace.keys)}
    number = {name: at for at, name in enumerate(trace.names)}
    keys = sum(memory.key_bytes(len(name), size[number[name]]) for name in client.scan_iter(count=1000))
    return used - keys - _tables(client, stats)


def _tables(client: redis.Redis, stats: dict[str, Any]) -> int:
    """The bytes of the databases' bucket arrays: `overhead.db.hashtable.lut` (Redis 8, Valkey 8+), or from
    Redis 7's `overhead.hashtable.main` (keys × (24 + 16) + buckets × 8), allocated as jemalloc16 does."""
    if "overhead.db.hashtable.lut" in stats:
        return int(stats["overhead.db.hashtable.lut"])
    buckets = (int(stats["db.0"]["overhead.hashtable.main"]) - client.dbsize() * 40) // 8
    return REDIS_70.table_bytes(buckets)
