"""When the server's active expire cycle finds the keys that expired, when nobody reads them (`expire.c`,
`activeExpireCycle`), as three generations of servers run it (`ExpirySettings.algorithm`; `algorithm_for`
picks one from a server's flavor and version).

Each database's keys with a TTL sit in its `expires` table, a power-of-two array of buckets; a key's bucket is
its hash masked by the array's size (uniform: the server's hash has a random seed; here a seeded generator,
`rng`, draws it). Every cron tick (`hz` per second) the slow cycle visits each database, in a loop it repeats
while the loop found enough of what it looked at expired, checking its time every 16 loops against its limit
(25 % of a tick, + 2 points per effort step), and skipping a database whose table is under 1 % full. When a
slow cycle hit its limit, fast cycles (1,000 µs each, + 250 per effort step; at most one per two of their
durations) run between ticks until one ends within its limit. (Redis 6.0 and later and Valkey also mean to
start fast cycles when the stale share of their samples is high, but compare a fraction with a percentage
there, so only the time limit starts them.) What a loop looks at is what differs:

* `cursor`: Redis 6.0 to 7.0 as written there (`db->expires_cursor`), and the model for every later Redis and
  for Valkey up to 8.0. The loop reads bucket after bucket from a cursor the database keeps between calls until
  it has sampled `keys-per-loop` keys (20, + 5 per effort step) or read 20 times as many buckets, deletes the
  expired ones, and is repeated while more than `acceptable-stale` percent (10, − 1 per effort step) of what it
  sampled had expired (or it sampled nothing). A table the deletions left under 10 % full shrinks at the next
  tick, as the cron does (at once here, over a few ticks on the server). Not modelled: from Redis 7.2 (and in
  Valkey) the cursor walks the buckets in reverse-binary order (`dictScan`, which changes nothing when the hashes
  are uniform); from Redis 7.4 and in Valkey 8 (`kvstoreScan`) a database's loops also end for the call when the
  cursor wraps (a full pass, as `valkey9` models it).
* `random`: Redis 5.x and earlier. The loop looks up 20 keys drawn at random (`dictGetRandomKey`: a random
  bucket, again while it is empty, then a random key of its chain, so a key of a long chain is drawn less
  often; draws may repeat), deletes the expired ones, and is repeated while more than 5 of them (20 / 4) had
  expired. Those versions have no `active-expire-effort`: the effort setting changes nothing here, and their
  limits are effort 1's. Their fast cycles start only after a slow cycle's time limit, as modelled for all.
  The table shrinks as with `cursor`.
* `valkey9`: Valkey 8.1 and later. The cursor again, with a budget of 10 buckets per key wanted instead of 20
  (Valkey 9's; a loop reaches its keys within a few buckets, far under either budget, so 8.1 and 8.2 are modelled
  with it), in Valkey's hashtable (`hashtable.c`, since Valkey 8.1): a bucket holds 7 keys (more in the child
  buckets chained to it, which a scan reads with it), a table grows to keep at most 7 keys a bucket (a server
  that inserted `n` keys has the smallest power of two of buckets holding them), and shrinks as soon as a scan
  call left it at or under 13 % of its places, to the buckets 5/32 per key asks for; the 1 % test counts these
  buckets, so it never skips a table that shrinks that early. One bucket is read per scan call, so a loop reaches
  its 20 keys after 3 to 7 buckets, where `cursor` reads 20 to 40 (the reason the budget could be halved), and
  samples a few keys more than it wants (the rest of the last bucket). The scan's cursor walks the buckets in
  reverse-binary order and a shrink keeps the buckets already walked (modelled: the buckets are numbered here in
  the cursor's order, and a shrink keeps the cursor's leading bits); the loops of a database stop for the call
  when the cursor wraps (a full pass), and a table the 1 % test skips also ends them. Not modelled: the hash
  fields with a TTL (Valkey 9 expires them in a job of their own that alternates with the keys' and shares the
  time limit: here it finds nothing and costs nothing), the incremental rehashing of a shrink (the scan then
  reads both tables), cluster mode's table per slot (one table per database here).

So, with nothing expiring in bulk, a cursor sweeps about `keys-per-loop × hz` keys a second per database (200
by default): a key that expired waits for the cursor, up to the whole table's sweep (an hour and more for a
million keys); random lookups find expired keys at about that pace too, but anywhere, so many early and the last
ones late (there is no pass after which all were seen). When many keys expire together the loops repeat until
the time limit, and the fast cycles take up to half of the time between ticks: that is the storm a client feels
as latency.

What a loop costs is not in the code: `sample_us` per key sampled, `delete_us` per key deleted (plus
`delete_us_per_kb` of its value unless `lazyfree-lazy-expire` frees it in the background) are this model's
inputs, measured on the server (`benchmarks/`); they decide only how far a storm's loops get within a limit.

Keys are never read here (no lazy expiry). `simulate_expiry` runs the compiled twin (`_expire`: the same steps,
the same draws of the same generator, so the same outcome; about a second for ten million keys) when this
install has it, else the code here.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING

from rediscipline import compiled
from rediscipline.redis_meta.allocation import VALKEY_BUCKET_KEYS
from rediscipline.simulate.rng import SplitMix64

if TYPE_CHECKING:  # `--version` loads the compiled twin, which imports this module, without the model
    from rediscipline.model.simulation import ExpiryPoint

#: The cycles modelled (see the module docstring).
ALGORITHMS = ("cursor", "random", "valkey9")

#: `ACTIVE_EXPIRE_CYCLE_*` (expire.c; `LOOKUPS_PER_LOOP` before 6.0) and the smallest dict array
#: (`DICT_HT_INITIAL_SIZE`).
KEYS_PER_LOOP = 20
FAST_DURATION_US = 1000
SLOW_TIME_PERC = 25
ACCEPTABLE_STALE = 10
TABLE_MIN = 4
#: A dict under this percentage full is shrunk by the cron (`HASHTABLE_MIN_FILL`).
MIN_FILL = 10
#: The time limit is looked at once every this many loops (`(iteration & 0xf) == 0`).
TIME_CHECK_EVERY = 16
#: Buckets a cursor's loop may read per key it wants (`max_buckets = num*20`; Valkey 9: `num*10`).
BUCKETS_PER_KEY = 20
VALKEY9_BUCKETS_PER_KEY = 10
#: Redis 5's loop is repeated while more than this many of its lookups had expired (`LOOKUPS_PER_LOOP/4`).
RANDOM_REPEAT_ABOVE = KEYS_PER_LOOP // 4
#: Valkey's hashtable (hashtable.c, 64-bit): keys a bucket holds (`ENTRIES_PER_BUCKET`), the fill (percent of
#: its places) at or under which it shrinks (`MIN_FILL_PERCENT_SOFT`), the buckets a resize asks for per key
#: (`BUCKET_FACTOR / BUCKET_DIVISOR`).
BUCKET_KEYS = VALKEY_BUCKET_KEYS
HASHTABLE_MIN_FILL = 13
BUCKET_FACTOR = 5
BUCKET_DIVISOR = 32


@dataclass(frozen=True, slots=True)
class ExpirySettings:
    """The server's `hz`, `active-expire-effort` and `lazyfree-lazy-expire`, the model's costs (µs), the seed of
    the keys' places, and which server's cycle runs (`algorithm`, one of `ALGORITHMS`)."""

    hz: int = 10
    effort: int = 1  # active-expire-effort, 1 to 10
    lazyfree: bool = False  # lazyfree-lazy-expire
    # what a key costs the cycle on Redis 7.0 here (benchmarks/expiry_delete_cost.py, 3 runs): 0.80–0.93 µs for
    # 50-byte values, 1.9–2.1 µs for 4 KB, 4.0–4.1 µs for 32 KB (the 4 KB case is under-counted by ~0.7 µs)
    sample_us: float = 0.05
    delete_us: float = 0.85
    delete_us_per_kb: float = 0.1
    seed: int = 0
    algorithm: str = "cursor"  # one of ALGORITHMS

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown expire algorithm {self.algorithm!r}: one of {', '.join(ALGORITHMS)}")
        if self.hz < 1:
            raise ValueError(f"hz must be at least 1, not {self.hz}")
        if not 1 <= self.effort <= 10:
            raise ValueError(f"active-expire-effort must be 1 to 10, not {self.effort}")

    @property
    def effort_steps(self) -> int:
        """Effort above 1 (`effort - 1`); 0 for `random`: Redis 5 has no `active-expire-effort`."""
        return 0 if self.algorithm == "random" else self.effort - 1

    @property
    def keys_per_loop(self) -> int:
        return KEYS_PER_LOOP + KEYS_PER_LOOP // 4 * self.effort_steps

    @property
    def fast_duration_us(self) -> int:
        return FAST_DURATION_US + FAST_DURATION_US // 4 * self.effort_steps

    @property
    def slow_limit_us(self) -> int:
        return max((SLOW_TIME_PERC + 2 * self.effort_steps) * 1_000_000 // self.hz // 100, 1)

    @property
    def acceptable_stale(self) -> int:
        """Percent of a loop's keys expired above which it is repeated (`random`: 25, more than 5 of its 20)."""
        if self.algorithm == "random":
            return RANDOM_REPEAT_ABOVE * 100 // KEYS_PER_LOOP
        return ACCEPTABLE_STALE - self.effort_steps

    @property
    def buckets_per_key(self) -> int:
        """Buckets a cursor's loop may read per key it wants (`random` reads no run of buckets: 0)."""
        return {"cursor": BUCKETS_PER_KEY, "valkey9": VALKEY9_BUCKETS_PER_KEY}.get(self.algorithm, 0)


def algorithm_for(flavor: str, version: str) -> str:
    """The cycle (`ALGORITHMS`) of a server: `flavor` "redis" or "valkey", `version` as INFO gives it
    ("7.0.15"). Redis before 6.0 samples at random; Valkey from 8.1 (its hashtable) has its own cursor; every
    other version, an unknown flavor and a version that does not start with a number have the cursor."""
    match = re.match(r"\s*(\d+)(?:\.(\d+))?", version or "")
    if match is None:
        return "cursor"
    release = (int(match.group(1)), int(match.group(2) or 0))
    if flavor.lower() == "redis" and release < (6, 0):
        return "random"
    if flavor.lower() == "valkey" and release >= (8, 1):
        return "valkey9"
    return "cursor"


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


def table_size(keys: int, hashtable: bool) -> int:
    """The buckets of a table a server filled with `keys` keys: a dict grows to one bucket per key (at least
    4), Valkey's hashtable to at most 7 keys a bucket (at least 1)."""
    if hashtable:
        size = 1
        while size * BUCKET_KEYS < keys:
            size *= 2
        return size
    size = TABLE_MIN
    while size < keys:
        size *= 2
    return size


def hashtable_resized(keys: int) -> int:
    """The buckets Valkey's hashtable resizes to for `keys` keys (`nextBucketExp`: ceil(keys × 5 / 32), up to
    a power of two; at least one key's worth)."""
    wanted = (max(keys, 1) * BUCKET_FACTOR - 1) // BUCKET_DIVISOR + 1
    size = 1
    while size < wanted:
        size *= 2
    return size


class _Database:
    """One `expires` table: its buckets by place (only the non-empty ones are kept, each the indexes of its keys
    in the order placed), the cursor, and what was deleted.

    A bucket's place is where the cursor reads it: the hash's low bits for a dict (the cursor counts up, masked
    by the size), its high bits for Valkey's hashtable (the cursor's reverse-binary walk, read in order)."""

    def __init__(self, keys: VolatileKeys, rng: SplitMix64, algorithm: str) -> None:
        self.number = keys.db
        self.expires, self.sizes = keys.expires, keys.sizes
        self.hashtable = algorithm == "valkey9"
        count = len(keys.expires)
        self.size = table_size(count, self.hashtable)
        shift, mask = 64 - (self.size.bit_length() - 1), self.size - 1
        self.buckets: dict[int, list[int]] = {}
        buckets = self.buckets
        for index in range(count):
            hashed = rng.next()
            buckets.setdefault(hashed >> shift if self.hashtable else hashed & mask, []).append(index)
        self.held = count
        self.cursor = 0
        self.reclaimed = 0
        self.reclaimed_bytes = 0
        # the keys by expiry, and their bytes summed in that order: what has expired by a time, in O(log n)
        order = sorted(range(count), key=keys.expires.__getitem__)
        self.deadlines = [keys.expires[index] for index in order]
        self.bytes_by_deadline = list(accumulate((keys.sizes[index] for index in order), initial=0))

    def resize(self, size: int) -> None:
        """The keys placed in a table of `size` buckets (smaller), bucket after bucket in order of place, each
        bucket's keys in their order. Valkey's cursor keeps its leading bits (its place in the walk)."""
        shift = (self.size.bit_length() - 1) - (size.bit_length() - 1)
        old, mask = self.buckets, size - 1
        self.buckets = {}
        for place in sorted(old):
            bucket = old[place]
            if bucket:
                self.buckets.setdefault(place >> shift if self.hashtable else place & mask, []).extend(bucket)
        if self.hashtable:
            self.cursor >>= shift
        self.size = size

    def cron(self) -> None:
        """The cron's resize (`tryResizeHashTables`): a dict under 10 % full (`HASHTABLE_MIN_FILL`) shrinks to
        the smallest power of two holding its keys (done at once here; the server rehashes over a few ticks).
        Valkey's hashtable applies its own rule (`shrink_if_needed`)."""
        if self.hashtable:
            self.shrink_if_needed()
        elif self.size > TABLE_MIN and self.held * 100 // self.size < MIN_FILL:
            self.resize(table_size(self.held, False))

    def shrink_if_needed(self) -> None:
        """Valkey's `hashtableShrinkIfNeeded`, run when a scan call ends: at or under 13 % of its places full, the
        table shrinks to what `hashtable_resized` gives for its keys."""
        if self.held * 100 <= self.size * BUCKET_KEYS * HASHTABLE_MIN_FILL:
            size = hashtable_resized(self.held)
            if size < self.size:
                self.resize(size)

    def expire(self, bucket: list[int], now_ms: int, elapsed: float, costs: _Costs) -> tuple[float, int]:
        """Every key of `bucket` looked at: those expired (`activeExpireCycleTryExpire`: now > when) deleted,
        each costing its time. The time so far, and the keys deleted."""
        expires, sizes = self.expires, self.sizes
        kept = []
        for index in bucket:
            if expires[index] < now_ms:
                elapsed += costs.delete_us + costs.per_kb * sizes[index] / 1024
                self.reclaimed_bytes += sizes[index]
            else:
                kept.append(index)
        gone = len(bucket) - len(kept)
        if gone:
            self.held -= gone
            self.reclaimed += gone
            bucket[:] = kept
        return elapsed, gone

    def sweep(self, now_ms: int, wanted: int, budget: int, elapsed: float, costs: _Costs) -> tuple[float, int, int]:
        """`cursor`'s loop: buckets from the cursor until `wanted` keys were sampled or `budget` buckets read.
        The time so far, the keys sampled and those expired."""
        sampled = expired = checked = 0
        mask = self.size - 1
        while sampled < wanted and checked < budget:
            bucket = self.buckets.get(self.cursor & mask)
            checked += 1
            if bucket:
                sampled += len(bucket)
                elapsed, gone = self.expire(bucket, now_ms, elapsed, costs)
                expired += gone
            self.cursor += 1
        return elapsed, sampled, expired

    def scan(
        self, now_ms: int, wanted: int, budget: int, elapsed: float, costs: _Costs
    ) -> tuple[float, int, int, bool]:
        """`valkey9`'s loop: one bucket per scan call until `wanted` keys were sampled or `budget` buckets read,
        the table shrinking after a call that left it sparse. The time so far, the keys sampled and those
        expired, and whether the database is done for this call (the cursor wrapped, or the table was
        skipped)."""
        sampled = expired = checked = 0
        while sampled < wanted and checked < budget:
            if self.held * 100 // self.size < 1:  # the scan skips the table, and returns 0
                self.cursor = 0
                return elapsed, sampled, expired, True
            bucket = self.buckets.get(self.cursor)
            gone = 0
            if bucket:
                sampled += len(bucket)
                elapsed, gone = self.expire(bucket, now_ms, elapsed, costs)
                expired += gone
            self.cursor += 1
            wrapped = self.cursor == self.size
            if wrapped:
                self.cursor = 0
            if gone:
                self.shrink_if_needed()
            if wrapped:
                return elapsed, sampled, expired, True
            checked += 1
        return elapsed, sampled, expired, False

    def lookups(
        self, now_ms: int, wanted: int, rng: SplitMix64, elapsed: float, costs: _Costs
    ) -> tuple[float, int, int]:
        """`random`'s loop: `wanted` keys drawn as `dictGetRandomKey` draws them (a random non-empty bucket,
        then a random key of it), the expired ones deleted. The time so far, the lookups and the keys
        expired."""
        sampled = expired = 0
        mask = self.size - 1
        buckets, expires, sizes = self.buckets, self.expires, self.sizes
        for _ in range(wanted):
            if self.held == 0:
                break
            while True:
                bucket = buckets.get(rng.next() & mask)
                if bucket:
                    break
            at = rng.below(len(bucket))
            index = bucket[at]
            sampled += 1
            if expires[index] < now_ms:
                del bucket[at]
                expired += 1
                elapsed += costs.delete_us + costs.per_kb * sizes[index] / 1024
                self.held -= 1
                self.reclaimed += 1
                self.reclaimed_bytes += sizes[index]
        return elapsed, sampled, expired

    def expired_by(self, now_ms: int) -> tuple[int, int]:
        """Keys (and their bytes) whose TTL has passed at `now_ms` (expired: their time is before it), reclaimed
        or not."""
        count = bisect.bisect_left(self.deadlines, now_ms)
        return count, self.bytes_by_deadline[count]


@dataclass(frozen=True, slots=True)
class _Costs:
    delete_us: float
    per_kb: float  # 0 with lazyfree-lazy-expire


class _Cycle:
    """The expire cycle's state between calls (the statics of `activeExpireCycle`)."""

    def __init__(self, databases: list[_Database], settings: ExpirySettings, rng: SplitMix64) -> None:
        self.databases = databases
        self.settings = settings
        self.rng = rng
        self.costs = _Costs(settings.delete_us, 0.0 if settings.lazyfree else settings.delete_us_per_kb)
        self.timelimit_exit = False
        self.current_db = 0

    def run(self, now_ms: int, fast: bool) -> tuple[float, bool]:
        """One call at `now_ms`: the µs it took, and whether it stopped at its time limit."""
        settings, costs = self.settings, self.costs
        algorithm = settings.algorithm
        limit = settings.fast_duration_us if fast else settings.slow_limit_us
        per_call = len(self.databases)  # at most CRON_DBS_PER_CALL (16) or all: the models hold at most 16
        self.timelimit_exit = False
        elapsed = 0.0
        iteration = 0
        keys_per_loop, stale, per_key = settings.keys_per_loop, settings.acceptable_stale, settings.buckets_per_key
        hashtable = algorithm == "valkey9"  # its 1 % test is the scan's (`_Database.scan`)
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
                if not hashtable and database.size > TABLE_MIN and held * 100 // database.size < 1:
                    break
                wanted = min(held, keys_per_loop)
                if algorithm == "random":
                    elapsed, sampled, expired = database.lookups(now_ms, wanted, self.rng, elapsed, costs)
                    repeat = expired > RANDOM_REPEAT_ABOVE
                elif hashtable:
                    elapsed, sampled, expired, done = database.scan(now_ms, wanted, wanted * per_key, elapsed, costs)
                    repeat = not done and (sampled == 0 or expired * 100 // sampled > stale)
                else:
                    elapsed, sampled, expired = database.sweep(now_ms, wanted, wanted * per_key, elapsed, costs)
                    repeat = sampled == 0 or expired * 100 // sampled > stale
                elapsed += settings.sample_us * sampled
                if iteration % TIME_CHECK_EVERY == 0 and elapsed > limit:
                    self.timelimit_exit = True
                    break
                if not repeat:
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
    seconds (see the module docstring), with the compiled twin (`_expire`) when this install has it."""
    _check(keys, step)
    kernel = compiled.load("rediscipline.simulate._expire")
    if kernel is not None:
        return kernel.simulate_expiry(keys, start_ms, seconds, step, settings)  # type: ignore[no-any-return]
    return simulate_expiry_in_python(keys, start_ms, seconds, step, settings)


def _check(keys: Sequence[VolatileKeys], step: float) -> None:
    if not step > 0:
        raise ValueError(f"the step must be above 0, not {step}")
    for volatile in keys:
        if len(volatile.expires) != len(volatile.sizes):
            raise ValueError(f"db {volatile.db}: {len(volatile.expires)} expiries but {len(volatile.sizes)} sizes")


def simulate_expiry_in_python(
    keys: Sequence[VolatileKeys],
    start_ms: int,
    seconds: float,
    step: float,
    settings: ExpirySettings = ExpirySettings(),
) -> ExpiryOutcome:
    """The pure-Python simulation (what the compiled twin is checked against)."""
    _check(keys, step)
    rng = SplitMix64(settings.seed)
    databases = [_Database(k, rng, settings.algorithm) for k in sorted(keys, key=lambda k: k.db) if len(k.expires)]
    cycle = _Cycle(databases, settings, rng)
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
            database.cron()
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
    from rediscipline.model.simulation import ExpiryPoint

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
