"""A trace of accesses replayed through a server's eviction (`evict.c`, `performEvictions`) for one policy and
one `maxmemory`: how many accesses hit, what was evicted, and which writes a full server refused.

Each access is a cache read-through: a GET of the key and, when it misses, a SET of a value of the access's
size (with the access's TTL, if any). Before every command the server frees memory while `used_memory` is
above `maxmemory`, one key at a time:

* LRU, LFU and volatile-ttl policies: each eviction first samples `maxmemory-samples` distinct keys of every
  database (all keys, or only those with a TTL for `volatile-*`; all of them when there are fewer) into the
  eviction pool (`pool`), then evicts the pool's best candidate that still exists. The server's sample is a
  run of neighbouring hash buckets from a random one (`dictGetSomeKeys`); the keys' places in the table have
  nothing to do with their access times, so a uniform sample is drawn here. LRU scores by idle time on the
  server's LRU clock (1 s resolution), LFU by 255 − the decayed counter (`lfu`), volatile-ttl by the nearest
  expiry;
* random policies: a random key of the next database in turn;
* nothing to evict (noeviction, or a volatile policy with no volatile key): the SET is refused, an OOM error,
  and the GETs go on being served.

Memory is counted as the server's allocator counts it, in the layout of its version (`memory`): a baseline,
every key (with what its TTL adds when it has one), and the bucket arrays of each database's two dicts (its
keys, and its keys with a TTL), each of which grows when full only when `maxmemory` allows the new array
(always past 1.618 times full), and whose old array is freed at the next cron tick (`hz`).

Time comes from the trace (milliseconds); a key whose TTL passed is deleted when it is next read (lazy
expiry). Active expiry (keys expired by the server's cycle while nobody reads them) is not replayed here, so
on traces with short TTLs expired keys keep their memory until read or evicted.

Sampling uses a seeded generator (`rng`): the server's own sampling is random too, so a simulated hit ratio is
one draw, not the mean; the calibration tests compare it with a real server's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rediscipline import compiled
from rediscipline.simulate.lfu import LFU_INIT_VAL, LFU_MAX, decayed, incremented, minutes
from rediscipline.simulate.memory import MAX_LOAD, REDIS_70, MemoryModel
from rediscipline.simulate.pool import EvictionPool
from rediscipline.simulate.rng import SplitMix64, distinct_sample

#: The eight values of `maxmemory-policy`, as the server spells them.
POLICIES = (
    "noeviction",
    "allkeys-lru",
    "allkeys-lfu",
    "allkeys-random",
    "volatile-lru",
    "volatile-lfu",
    "volatile-random",
    "volatile-ttl",
)

#: The server's defaults: `maxmemory-samples`, `lfu-log-factor`, `lfu-decay-time` (minutes), `hz`.
DEFAULT_SAMPLES = 5
DEFAULT_LOG_FACTOR = 10
DEFAULT_DECAY_TIME = 1
DEFAULT_HZ = 10

#: The LRU clock: seconds, 24 bits (`LRU_CLOCK_MAX`, `LRU_CLOCK_RESOLUTION`).
LRU_CLOCK_MAX = (1 << 24) - 1


@dataclass(frozen=True, slots=True)
class Trace:
    """Accesses in columns, in order: `times` (ms, non-decreasing), `keys` (numbers into `names`), `sizes` (the
    value's bytes), `ttls` (ms, 0: none) and `dbs`; `names` are the keys' bytes by number. A key number
    stands for one key of one database: a name used in two databases has two numbers."""

    times: Sequence[int]
    keys: Sequence[int]
    sizes: Sequence[int]
    ttls: Sequence[int]
    dbs: Sequence[int]
    names: Sequence[bytes]

    def __len__(self) -> int:
        return len(self.keys)


@dataclass(frozen=True, slots=True)
class EvictionSettings:
    policy: str
    maxmemory: int
    samples: int = DEFAULT_SAMPLES
    log_factor: int = DEFAULT_LOG_FACTOR
    decay_time: int = DEFAULT_DECAY_TIME
    hz: int = DEFAULT_HZ
    memory: MemoryModel = REDIS_70
    seed: int = 0


@dataclass(slots=True)
class Outcome:
    """What one replay gave: GETs that hit and missed, keys and bytes evicted (`evicted` by key number),
    SETs refused for memory, the most `used_memory` reached and the keys held at the end."""

    hits: int = 0
    misses: int = 0
    evicted_keys: int = 0
    evicted_bytes: int = 0
    oom_errors: int = 0
    peak_memory: int = 0
    keys_at_end: int = 0
    evicted: dict[int, int] = field(default_factory=dict)  # key number → times it was evicted

    @property
    def hit_ratio(self) -> float | None:
        reads = self.hits + self.misses
        return self.hits / reads if reads else None


class _Table:
    """A dict's bucket arrays: the one in use, and the one being rehashed away (freed at the next cron tick)."""

    __slots__ = ("buckets", "old_buckets")

    def __init__(self) -> None:
        self.buckets = 0
        self.old_buckets = 0


class _Database:
    """The keys of one database, with dense lists to sample from in O(1): every key, and those with a TTL; and
    its two dicts' arrays (`main`, `expires`)."""

    __slots__ = ("all", "all_at", "expires", "main", "volatile", "volatile_at")

    def __init__(self) -> None:
        self.all: list[int] = []
        self.all_at: dict[int, int] = {}
        self.volatile: list[int] = []
        self.volatile_at: dict[int, int] = {}
        self.main = _Table()
        self.expires = _Table()


def _add(members: list[int], at: dict[int, int], key: int) -> None:
    at[key] = len(members)
    members.append(key)


def _remove(members: list[int], at: dict[int, int], key: int) -> None:
    index = at.pop(key)
    last = members.pop()
    if last != key:
        members[index] = last
        at[last] = index


class _Replay:
    """The state of one replay (see the module docstring)."""

    def __init__(self, trace: Trace, settings: EvictionSettings) -> None:
        if settings.policy not in POLICIES:
            raise ValueError(f"unknown policy {settings.policy!r}: one of {', '.join(POLICIES)}")
        self.trace, self.settings = trace, settings
        self.random = SplitMix64(settings.seed)
        self.allkeys = settings.policy.startswith("allkeys-")
        self.kind = settings.policy.split("-", 1)[1] if "-" in settings.policy else ""
        self.memory = settings.memory
        self.used = settings.memory.baseline
        self.dbs: dict[int, _Database] = {}
        self.next_db = 0
        self.pool = EvictionPool()
        self.cost: dict[int, int] = {}  # key number → its bytes, for the keys held
        self.expires: dict[int, int] = {}  # key number → expiry (ms), for the keys held with a TTL
        self.clock: dict[int, int] = {}  # key number → LRU clock (s), or LFU minutes << 8 | counter
        self.db_of: dict[int, int] = {}  # key number → its database (a number stands for one key of one db)
        self.rehash_until = 0
        self.cron = 1000 // max(settings.hz, 1)  # ms between cron ticks
        self.outcome = Outcome()

    def run(self) -> Outcome:
        trace, outcome = self.trace, self.outcome
        for index in range(len(trace)):
            now = trace.times[index]
            if self.rehash_until and now >= self.rehash_until:
                self._finish_rehash()
            key, db = trace.keys[index], trace.dbs[index]
            fits = self._make_room(now)  # before the GET
            expiry = self.expires.get(key)
            if expiry is not None and expiry < now:  # keyIsExpired: the key lives through its own millisecond
                self._delete(key, db)  # lazy expiry: the GET finds it gone
            if key in self.cost:
                outcome.hits += 1
                self._touch(key, now)
                continue
            outcome.misses += 1
            fits = self._make_room(now)  # before the SET
            if not fits:
                outcome.oom_errors += 1
                continue
            self._insert(key, db, trace.sizes[index], trace.ttls[index], now)
        outcome.keys_at_end = len(self.cost)
        return outcome

    # ---- keys

    def _insert(self, key: int, db: int, size: int, ttl: int, now: int) -> None:
        database = self.dbs.get(db)
        if database is None:
            database = self.dbs[db] = _Database()
        self._grow(database.main, len(database.all), now)
        if ttl > 0:
            self._grow(database.expires, len(database.volatile), now)
        cost = self.memory.key_bytes(len(self.trace.names[key]), size, ttl > 0)
        self.cost[key] = cost
        self.db_of[key] = db
        self.used += cost
        _add(database.all, database.all_at, key)
        if ttl > 0:
            self.expires[key] = now + ttl
            _add(database.volatile, database.volatile_at, key)
        self.clock[key] = self._new_clock(now)
        self.outcome.peak_memory = max(self.outcome.peak_memory, self.used)

    def _grow(self, table: _Table, held: int, now: int) -> None:
        """A dict's array before one more key (`held`: the keys it has): created at its smallest, grown when
        full and `maxmemory` allows the new array (or past MAX_LOAD whatever it costs)."""
        memory = self.memory
        if table.buckets == 0:
            table.buckets = memory.table_buckets(1)
            self.used += memory.table_bytes(table.buckets)
            return
        capacity = memory.capacity(table.buckets)
        if held < capacity or table.old_buckets:
            return
        bigger = memory.table_buckets(held + 1)
        more = memory.table_bytes(bigger)
        maxmemory = self.settings.maxmemory
        if held / capacity <= MAX_LOAD and maxmemory and self.used + more > maxmemory:
            return
        table.old_buckets, table.buckets = table.buckets, bigger
        self.used += more
        self.rehash_until = (now // self.cron + 1) * self.cron
        self.outcome.peak_memory = max(self.outcome.peak_memory, self.used)

    def _finish_rehash(self) -> None:
        for database in self.dbs.values():
            for table in (database.main, database.expires):
                if table.old_buckets:
                    self.used -= self.memory.table_bytes(table.old_buckets)
                    table.old_buckets = 0
        self.rehash_until = 0

    def _delete(self, key: int, db: int) -> int:
        database = self.dbs[db]
        cost = self.cost.pop(key)
        self.used -= cost
        _remove(database.all, database.all_at, key)
        if self.expires.pop(key, None) is not None:
            _remove(database.volatile, database.volatile_at, key)
        del self.clock[key]
        return cost

    # ---- access clocks

    def _new_clock(self, now: int) -> int:
        if self.kind == "lfu":
            return minutes(now) << 8 | LFU_INIT_VAL
        return (now // 1000) & LRU_CLOCK_MAX

    def _touch(self, key: int, now: int) -> None:
        if self.kind != "lfu":
            self.clock[key] = (now // 1000) & LRU_CLOCK_MAX
            return
        stored = self.clock[key]
        minute = minutes(now)
        counter = decayed(stored & 255, stored >> 8, minute, self.settings.decay_time)
        counter = incremented(counter, self.settings.log_factor, self.random.random)
        self.clock[key] = minute << 8 | counter

    def _score(self, key: int, now: int) -> int:
        """How much the pool wants `key` evicted: higher first."""
        if self.kind == "lfu":
            stored = self.clock[key]
            return LFU_MAX - decayed(stored & 255, stored >> 8, minutes(now), self.settings.decay_time)
        if self.kind == "ttl":
            return -self.expires[key]
        lru = (now // 1000) & LRU_CLOCK_MAX
        stored = self.clock[key]
        idle = lru - stored if lru >= stored else LRU_CLOCK_MAX - stored + lru
        return idle * 1000

    # ---- eviction

    def _make_room(self, now: int) -> bool:
        """Evict until `used_memory` is at most `maxmemory`; False when nothing more can be evicted."""
        maxmemory = self.settings.maxmemory
        if not maxmemory or self.used <= maxmemory:
            return True
        if self.settings.policy == "noeviction":
            return False
        goal = self.used - maxmemory
        freed = 0
        while freed < goal:
            key = self._random_key() if self.kind == "random" else self._pooled_key(now)
            if key is None:
                return False
            cost = self._delete(key, self.db_of[key])
            freed += cost
            self.outcome.evicted_keys += 1
            self.outcome.evicted_bytes += cost
            self.outcome.evicted[key] = self.outcome.evicted.get(key, 0) + 1
        return True

    def _candidates(self, database: _Database) -> list[int]:
        return database.all if self.allkeys else database.volatile

    def _pooled_key(self, now: int) -> int | None:
        samples = self.settings.samples
        while True:
            total = 0
            for db in sorted(self.dbs):
                members = self._candidates(self.dbs[db])
                if not members:
                    continue
                total += len(members)
                for position in distinct_sample(self.random, len(members), samples):  # as dictGetSomeKeys gives
                    key = members[position]
                    self.pool.insert(key, self._score(key, now))
            if not total:
                return None
            taken = self.pool.take(self.cost if self.allkeys else self.expires)  # what may still be evicted
            if taken is not None:
                return taken

    def _random_key(self) -> int | None:
        order = sorted(self.dbs)
        for _ in range(len(order)):
            self.next_db += 1
            db = order[self.next_db % len(order)]
            members = self._candidates(self.dbs[db])
            if members:
                return members[self.random.below(len(members))]
        return None


def replay(trace: Trace, settings: EvictionSettings) -> Outcome:
    """Replay `trace` through the eviction `settings` describe (see the module docstring), with the compiled
    twin (`_replay`, the same steps and draws) when this install has it."""
    kernel = compiled.load("rediscipline.simulate._replay")
    if kernel is not None:
        return kernel.replay(trace, settings)  # type: ignore[no-any-return]
    return replay_in_python(trace, settings)


def replay_in_python(trace: Trace, settings: EvictionSettings) -> Outcome:
    """The pure-Python replay (what the compiled twin is checked against)."""
    return _Replay(trace, settings).run()
