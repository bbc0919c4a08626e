"""Request metrics: counted in process, flushed to Redis once a minute, snapshots cached in memcached.

The in-process side is plain Python (Counter, dict, set, queue, threading, asyncio, statistics) whose
methods happen to be called `update`, `keys`, `pop`, `get`, `set` and `wait`.
"""

from __future__ import annotations

import asyncio
import json
import queue
import statistics
import threading
import time
from collections import Counter, deque
from datetime import date

from pymemcache.client.base import PooledClient

from .clients import memcached, redis_client

DAY_TTL = 8 * 86400
FLUSH_EVERY = 60.0


def _day_key(day: date | None = None) -> str:
    return f"metrics:daily:{(day or date.today()).strftime('%Y%m%d')}"


class Collector:
    """Counts requests per route in memory; a background thread flushes the counts to Redis."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.latencies: dict[str, deque[float]] = {}
        self.routes: set[str] = set()
        self.events: queue.Queue[tuple[str, float]] = queue.Queue(maxsize=10_000)
        self.stop = threading.Event()
        self.flushed = threading.Event()
        self.lock = threading.Lock()

    def observe(self, route: str, seconds: float) -> None:
        self.events.put((route, seconds), timeout=0.1)

    def drain(self) -> None:
        while True:
            try:
                route, seconds = self.events.get(timeout=0.5)
            except queue.Empty:
                return
            with self.lock:
                self.counts.update([route])
                self.routes.add(route)
                self.latencies.setdefault(route, deque(maxlen=1000)).append(seconds)
            self.events.task_done()

    def flush(self) -> None:
        with self.lock:
            counts = dict(self.counts)
            self.counts.clear()
        key = _day_key()
        pipe = redis_client.pipeline(transaction=False)
        for route, n in counts.items():
            pipe.hincrby(key, route, n)
        pipe.expire(key, DAY_TTL)  # one key on a pipeline, no loop: not a bulk write
        pipe.execute()
        self.flushed.set()

    def run(self) -> None:
        while not self.stop.is_set():
            self.drain()
            self.flush()
            self.stop.wait(FLUSH_EVERY)

    def forget(self, route: str) -> None:
        with self.lock:
            self.counts.pop(route, None)
            self.routes.discard(route)
            self.latencies.pop(route, None)

    def summary(self) -> dict[str, float]:
        with self.lock:
            routes = sorted(self.latencies.keys())
            return {r: statistics.median(self.latencies[r]) for r in routes if self.latencies[r]}


def dashboard(day: date | None = None) -> dict[str, int]:
    raw = redis_client.hgetall(_day_key(day))  # error: CMD005
    return {name.decode(): int(value) for name, value in raw.items()}


def route_count(route: str, day: date | None = None) -> int:
    return int(redis_client.hget(_day_key(day), route) or 0)


def known_days() -> list[str]:
    return sorted(k.decode() for k in redis_client.keys("metrics:daily:*"))  # error: CMD001


class SnapshotStore:
    """Rendered dashboards, cached in memcached; the raw counters stay in Redis."""

    def __init__(self, servers: tuple[str, int] = ("memcached", 11211)) -> None:
        self.cache = PooledClient(servers, connect_timeout=1, timeout=1)
        self.redis = redis_client

    def publish(self, day: date) -> None:
        data = dashboard(day)
        blob = json.dumps(data).encode()
        self.cache.set(f"dash:{day:%Y%m%d}", blob, expire=300)
        self.cache.set_many({f"dash:route:{r}": str(n) for r, n in data.items()}, expire=300)
        self.cache.incr("dash:renders", 1)
        self.redis.hset(f"metrics:published:{day:%Y%m%d}", mapping={"at": int(time.time())})  # error: TTL006

    def drop(self, days: list[date]) -> None:
        self.cache.delete_many([f"dash:{d:%Y%m%d}" for d in days])
        self.cache.touch("dash:renders", 60)
        memcached.flush_all(delay=0, noreply=True)

    def load(self, day: date) -> dict[str, int] | None:
        blob = self.cache.get(f"dash:{day:%Y%m%d}")
        many = self.cache.get_many([f"dash:{day:%Y%m%d}", "dash:renders"])
        return json.loads(blob) if blob is not None and many else None


async def fan_in(sources: list[asyncio.Queue[str]], out: asyncio.Queue[str]) -> int:
    """Merge per-worker queues; asyncio.Queue.get is not BRPOP."""
    moved = 0
    for source in sources:
        while not source.empty():
            item = await source.get()
            await out.put(item)
            source.task_done()
            moved += 1
    return moved


async def wait_until_flushed(collector: Collector, timeout: float = 5.0) -> bool:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, collector.flushed.wait, timeout)


def percentiles(samples: list[float]) -> dict[str, float]:
    if len(samples) < 2:
        return {}
    cuts = statistics.quantiles(samples, n=100)
    buckets = {"p50": cuts[49], "p95": cuts[94], "p99": cuts[98]}
    buckets.update({"mean": statistics.fmean(samples)})
    return buckets
