"""When the server's active expire cycle finds the keys that expired, when nobody reads them (`expire.c`,
`activeExpireCycle`, Redis 6.0 to 7.0 as written there).

Each database's keys with a TTL sit in its `expires` dict, a power-of-two array of buckets; a key's bucket is
its hash masked by the array's size (uniform: the server's hash has a random seed). Every cron tick (`hz` per
second) the slow cycle visits each database from a cursor it keeps between calls: it reads bucket after bucket
until it has sampled `keys-per-loop` keys (20, + 5 per effort step) or checked 20 times as many buckets,
deletes the expired ones, moves on, and repeats that loop while more than `acceptable-stale` percent (10, − 1
per effort step) of what it sampled had expired, checking its time every 16 loops against its limit (25 % of a
tick, + 2 points per effort step). A database whose dict is under 1 % full is skipped. When a slow cycle hit its
limit, fast cycles (1,000 µs each, + 250 per effort step; at most one per two of their durations) run between
ticks until one ends within its limit. (The server also means to start fast cycles when the stale share of its
samples is high, but compares a fraction with a percentage there, so only the time limit starts them.)

So, with nothing expiring in bulk, the cursor sweeps about `keys-per-loop × hz` keys a second per database (200
by default): a key that expired waits for the cursor, up to the whole dict's sweep (an hour and more for a
million keys). When many keys expire together the loops repeat until the time limit, and the fast cycles take
up to half of the time between ticks: that is the storm a client feels as latency.

What a loop costs is not in the code: `sample_us` per key sampled, `delete_us` per key deleted (plus
`delete_us_per_kb` of its value unless `lazyfree-lazy-expire` frees it in the background) are this model's
inputs, measured on the server (`benchmarks/`); they decide only how far a storm's loops get within a limit.

Keys are never read here (no lazy expiry). A dict the deletions left under 10 % full is shrunk at the next tick, as
the cron does (at once here, over a few ticks on the server).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from rediscipline.model.simulation import ExpiryPoint

#: `ACTIVE_EXPIRE_CYCLE_*` (expire.c) and the smallest dict array (`DICT_HT_INITIAL_SIZE`).
KEYS_PER_LOOP = 20
FAST_DURATION_US = 1000
SLOW_TIME_PERC = 25
ACCEPTABLE_STALE = 10
TABLE_MIN = 4
#: A dict under this percentage full is shrunk by the cron (`HASHTABLE_MIN_FILL`).
MIN_FILL = 10
#: The time limit is looked at once every this many loops (`(iteration & 0xf) == 0`).
TIME_CHECK_EVERY = 16


@dataclass(frozen=True, slots=True)
class ExpirySettings:
    hz: int = 10
    effort: int = 1  # active-expire-effort, 1 to 10
    lazyfree: bool = False  # lazyfree-lazy-expire
    sample_us: float = 0.05
    delete_us: float = 1.0
    delete_us_per_kb: float = 0.05
    seed: int = 0

    @property
    def keys_per_loop(self) -> int:
        return KEYS_PER_LOOP + KEYS_PER_LOOP // 4 * (self.effort - 1)

    @property
    def fast_duration_us(self) -> int:
        return FAST_DURATION_US + FAST_DURATION_US // 4 * (self.effort - 1)

    @property
    def slow_limit_us(self) -> int:
        return max((SLOW_TIME_PERC + 2 * (self.effort - 1)) * 1_000_000 // self.hz // 100, 1)

    @property
    def acceptable_stale(self) -> int:
        return ACCEPTABLE_STALE - (self.effort - 1)


@dataclass(frozen=True, slots=True)
class VolatileKeys:
    """One database's keys with a TTL: when each expires (Unix ms) and its value's bytes."""

    db: int
    expires: Sequence[int]
    sizes: Sequence[int]


@dataclass(slots=True)
class ExpiryOutcome:
    """The series (per step and database), and per step the share of the server's time the cycles took, the
    slow cycles that hit their limit and the longest cycle (µs): what a storm costs."""

    series: list[ExpiryPoint] = field(default_factory=list)
    cpu_share: list[tuple[float, float]] = field(default_factory=list)  # (t, share of the step)
    time_limit_hits: list[tuple[float, int]] = field(default_factory=list)  # (t, slow cycles at their limit)
    longest_cycle_us: list[tuple[float, float]] = field(default_factory=list)


class _Database:
    """One `expires` dict: its buckets (only the non-empty ones are kept), the cursor, and what was deleted."""

    def __init__(self, keys: VolatileKeys, rng: random.Random) -> None:
        self.number = keys.db
        self.expires, self.sizes = keys.expires, keys.sizes
        self.hashes = [rng.getrandbits(64) for _ in range(len(keys.expires))]
        self.size = _table_size(len(keys.expires))
        self.buckets: dict[int, list[int]] = {}
        self._place(range(len(keys.expires)))
        self.held = len(keys.expires)
        self.cursor = 0
        self.reclaimed = 0
        self.reclaimed_bytes = 0
        # the keys by expiry, and their bytes summed in that order: what has expired by a time, in O(log n)
        order = sorted(range(len(keys.expires)), key=keys.expires.__getitem__)
        self.deadlines = [keys.expires[index] for index in order]
        self.bytes_by_deadline = list(accumulate((keys.sizes[index] for index in order), initial=0))

    def _place(self, indexes: Iterable[int]) -> None:
        mask = self.size - 1
        buckets = self.buckets
        for index in indexes:
            buckets.setdefault(self.hashes[index] & mask, []).append(index)

    def resize_if_sparse(self) -> None:
        """The cron's `tryResizeHashTables`: a dict under 10 % full (`HASHTABLE_MIN_FILL`) shrinks to the
        smallest power of two holding its keys (done at once here; the server rehashes over a few ticks)."""
        if self.size > TABLE_MIN and self.held * 100 // self.size < MIN_FILL:
            held = [index for bucket in self.buckets.values() for index in bucket]
            self.size = _table_size(len(held))
            self.buckets = {}
            self._place(held)

    def expired_by(self, now_ms: int) -> tuple[int, int]:
        """Keys (and their bytes) whose TTL has passed at `now_ms` (expired: their time is before it), reclaimed
        or not."""
        count = bisect.bisect_left(self.deadlines, now_ms)
        return count, self.bytes_by_deadline[count]


def _table_size(keys: int) -> int:
    size = TABLE_MIN
    while size < keys:
        size *= 2
    return size


class _Cycle:
    """The expire cycle's state between calls (the statics of `activeExpireCycle`)."""

    def __init__(self, databases: list[_Database], settings: ExpirySettings) -> None:
        self.databases = databases
        self.settings = settings
        self.timelimit_exit = False
        self.current_db = 0

    def run(self, now_ms: int, fast: bool) -> tuple[float, bool]:
        """One call at `now_ms`: the µs it took, and whether it stopped at its time limit."""
        settings = self.settings
        limit = settings.fast_duration_us if fast else settings.slow_limit_us
        per_call = len(self.databases)  # at most CRON_DBS_PER_CALL (16) or all: the models hold at most 16
        self.timelimit_exit = False
        elapsed = 0.0
        iteration = 0
        keys_per_loop, stale = settings.keys_per_loop, settings.acceptable_stale
        per_kb = 0.0 if settings.lazyfree else settings.delete_us_per_kb
        for _ in range(per_call):
            if self.timelimit_exit or not self.databases:
                break
            database = self.databases[self.current_db % len(self.databases)]
            self.current_db += 1
            while True:
                iteration += 1
                held = database.held
                if held == 0:
                    break
                if database.size > TABLE_MIN and held * 100 // database.size < 1:
                    break
                wanted = min(held, keys_per_loop)
                sampled = expired = checked = 0
                while sampled < wanted and checked < wanted * 20:
                    bucket = database.buckets.get(database.cursor & (database.size - 1))
                    checked += 1
                    if bucket:
                        kept = []
                        for index in bucket:
                            sampled += 1
                            if database.expires[index] < now_ms:  # activeExpireCycleTryExpire: now > when
                                expired += 1
                                elapsed += settings.delete_us + per_kb * database.sizes[index] / 1024
                                database.reclaimed_bytes += database.sizes[index]
                            else:
                                kept.append(index)
                        if len(kept) != len(bucket):
                            database.held -= len(bucket) - len(kept)
                            database.reclaimed += len(bucket) - len(kept)
                            bucket[:] = kept
                    database.cursor += 1
                elapsed += settings.sample_us * sampled
                if iteration % TIME_CHECK_EVERY == 0 and elapsed > limit:
                    self.timelimit_exit = True
                    break
                if sampled and expired * 100 // sampled <= stale:
                    break
        return elapsed, self.timelimit_exit


def simulate_expiry(
    keys: Sequence[VolatileKeys],
    start_ms: int,
    seconds: float,
    step: float,
    settings: ExpirySettings = ExpirySettings(),
) -> ExpiryOutcome:
    """The databases of `keys` from `start_ms` (Unix ms) for `seconds`, a point of the series every `step`
    seconds (see the module docstring)."""
    rng = random.Random(settings.seed)
    databases = [_Database(k, rng) for k in sorted(keys, key=lambda k: k.db) if len(k.expires)]
    cycle = _Cycle(databases, settings)
    outcome = ExpiryOutcome()
    tick_ms = 1000 / settings.hz
    gap_us = 2 * settings.fast_duration_us
    next_point, now = 0.0, 0.0
    busy, hits, longest = 0.0, 0, 0.0
    point_start = 0.0
    while now <= seconds * 1000:
        while next_point * 1000 <= now:
            _record(outcome, databases, start_ms + round(next_point * 1000), next_point)
            if next_point > 0:
                span = (next_point - point_start) * 1_000_000
                outcome.cpu_share.append((next_point, busy / span if span else 0.0))
                outcome.time_limit_hits.append((next_point, hits))
                outcome.longest_cycle_us.append((next_point, longest))
                busy, hits, longest, point_start = 0.0, 0, 0.0, next_point
            next_point += step
        took, at_limit = cycle.run(start_ms + round(now), fast=False)
        for database in databases:
            database.resize_if_sparse()
        busy += took
        longest = max(longest, took)
        hits += at_limit
        fast_at = now + (took + gap_us) / 1000  # fast cycles run between ticks while the limit is being hit
        while at_limit and fast_at < now + tick_ms:
            took, at_limit = cycle.run(start_ms + round(fast_at), fast=True)
            busy += took
            longest = max(longest, took)
            fast_at += max(took, gap_us) / 1000
        now += tick_ms
    return outcome


def _record(outcome: ExpiryOutcome, databases: list[_Database], now_ms: int, t: float) -> None:
    for database in databases:
        expired, expired_bytes = database.expired_by(now_ms)
        outcome.series.append(
            ExpiryPoint(
                database.number,
                round(t, 3),
                expired - database.reclaimed,
                expired_bytes - database.reclaimed_bytes,
                database.reclaimed,
            )
        )
