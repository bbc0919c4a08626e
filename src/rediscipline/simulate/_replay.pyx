# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of `simulate.eviction.replay`: the same replay, step for step, with the keys' state in C
arrays.

Every decision is the pure code's: the same generator (`rng.SplitMix64`, its steps written out here) drawn at
the same moments, the same distinct sample, pool, LFU counter, memory accounting and rehash, so that both give
the same `Outcome` for the same trace and settings (tests/simulate/test_replay_parity.py). What keys and dict
arrays cost is the model's (`memory.MemoryModel`), asked once per key and size and when an array grows.
"""

from array import array

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

from rediscipline.simulate.eviction import LRU_CLOCK_MAX, POLICIES, Outcome
from rediscipline.simulate.memory import MAX_LOAD
from rediscipline.simulate.pool import POOL_SIZE

cdef enum:
    POOL = 16
    MAX_SAMPLES = 64
    LFU_INIT = 5
    LFU_MAX = 255
    MINUTES_MASK = 65535
    KIND_LRU = 0
    KIND_LFU = 1
    KIND_RANDOM = 2
    KIND_TTL = 3

assert POOL_SIZE == POOL


cdef struct Rng:
    uint64_t state


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    rng.state += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = rng.state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline double rng_random(Rng* rng) noexcept nogil:
    return <double>(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int64_t rng_below(Rng* rng, int64_t n) noexcept nogil:
    return <int64_t>(rng_next(rng) % <uint64_t>n)


cdef double _MAX_LOAD = MAX_LOAD
cdef int64_t _LRU_CLOCK_MAX = LRU_CLOCK_MAX


cdef inline int64_t decayed(int64_t counter, int64_t stored, int64_t now, int64_t decay_time) noexcept nogil:
    if decay_time <= 0:
        return counter
    cdef int64_t elapsed = now - stored if now >= stored else MINUTES_MASK - stored + now
    cdef int64_t periods = elapsed // decay_time
    return 0 if periods > counter else counter - periods


cdef inline int64_t minutes(int64_t ms) noexcept nogil:
    return (ms // 60000) & MINUTES_MASK


cdef struct Table:
    int64_t buckets
    int64_t old_buckets


cdef struct Database:
    int64_t* all
    int64_t count
    int64_t* volatile
    int64_t volatile_count
    Table main
    Table expires
    bint created


cdef class _Kernel:
    cdef Rng rng
    cdef int kind
    cdef bint allkeys, noeviction
    cdef int64_t maxmemory, samples, log_factor, decay_time, cron
    cdef int64_t used, peak, rehash_until, next_db
    cdef int64_t hits, misses, evicted_keys, evicted_bytes, oom_errors, held
    cdef int64_t nkeys, ndbs
    cdef int64_t* cost
    cdef int64_t* clock
    cdef int64_t* expire
    cdef int64_t* at_all
    cdef int64_t* at_volatile
    cdef int64_t* name_length
    cdef int64_t* cost_code  # the size × 2 + TTL or not that `cost_of` was asked for (-1: not yet)
    cdef int64_t* cost_of
    cdef object memory
    cdef dict costs  # (name length, size × 2 + TTL or not) → bytes, for every key of that shape
    cdef int64_t bucket_keys
    cdef int64_t* evicted
    cdef Database* dbs
    cdef int64_t* db_of
    cdef int64_t pool_keys[POOL]
    cdef int64_t pool_scores[POOL]

    def __cinit__(self) -> None:
        self.cost = NULL
        self.clock = NULL
        self.expire = NULL
        self.at_all = NULL
        self.at_volatile = NULL
        self.name_length = NULL
        self.cost_code = NULL
        self.cost_of = NULL
        self.evicted = NULL
        self.db_of = NULL
        self.dbs = NULL
        self.ndbs = 0

    def __dealloc__(self) -> None:
        cdef int64_t index
        if self.dbs != NULL:
            for index in range(self.ndbs):
                free(self.dbs[index].all)
                free(self.dbs[index].volatile)
            free(self.dbs)
        free(self.cost)
        free(self.clock)
        free(self.expire)
        free(self.at_all)
        free(self.at_volatile)
        free(self.name_length)
        free(self.cost_code)
        free(self.cost_of)
        free(self.evicted)
        free(self.db_of)

    # ---- keys

    cdef void insert(self, int64_t key, int64_t db, int64_t size, int64_t ttl, int64_t now) noexcept:
        cdef Database* database = &self.dbs[db]
        database.created = True
        self.grow(&database.main, database.count, now)
        if ttl > 0:
            self.grow(&database.expires, database.volatile_count, now)
        cdef int64_t code = size * 2 + (1 if ttl > 0 else 0)
        cdef object shape, known
        if self.cost_code[key] != code:
            self.cost_code[key] = code
            shape = (self.name_length[key], code)
            known = self.costs.get(shape)
            if known is None:
                known = self.costs[shape] = self.memory.key_bytes(self.name_length[key], size, ttl > 0)
            self.cost_of[key] = known
        cdef int64_t cost = self.cost_of[key]
        self.cost[key] = cost
        self.used += cost
        self.held += 1
        self.at_all[key] = database.count
        database.all[database.count] = key
        database.count += 1
        if ttl > 0:
            self.expire[key] = now + ttl
            self.at_volatile[key] = database.volatile_count
            database.volatile[database.volatile_count] = key
            database.volatile_count += 1
        if self.kind == KIND_LFU:
            self.clock[key] = minutes(now) << 8 | LFU_INIT
        else:
            self.clock[key] = (now // 1000) & _LRU_CLOCK_MAX
        if self.used > self.peak:
            self.peak = self.used

    cdef void grow(self, Table* table, int64_t held, int64_t now) noexcept:
        if table.buckets == 0:
            table.buckets = self.memory.table_buckets(1)
            self.used += self.memory.table_bytes(table.buckets)
            return
        cdef int64_t capacity = table.buckets * self.bucket_keys
        if held < capacity or table.old_buckets:
            return
        cdef int64_t bigger = self.memory.table_buckets(held + 1)
        cdef int64_t more = self.memory.table_bytes(bigger)
        if <double>held / <double>capacity <= _MAX_LOAD and self.maxmemory and self.used + more > self.maxmemory:
            return
        table.old_buckets = table.buckets
        table.buckets = bigger
        self.used += more
        self.rehash_until = (now // self.cron + 1) * self.cron
        if self.used > self.peak:
            self.peak = self.used

    cdef void finish_rehash(self) noexcept:
        cdef int64_t index
        for index in range(self.ndbs):
            if self.dbs[index].main.old_buckets:
                self.used -= self.memory.table_bytes(self.dbs[index].main.old_buckets)
                self.dbs[index].main.old_buckets = 0
            if self.dbs[index].expires.old_buckets:
                self.used -= self.memory.table_bytes(self.dbs[index].expires.old_buckets)
                self.dbs[index].expires.old_buckets = 0
        self.rehash_until = 0

    cdef int64_t delete(self, int64_t key, int64_t db) noexcept:
        cdef Database* database = &self.dbs[db]
        cdef int64_t cost = self.cost[key]
        cdef int64_t index, last
        self.cost[key] = 0
        self.used -= cost
        self.held -= 1
        index = self.at_all[key]
        database.count -= 1
        last = database.all[database.count]
        if last != key:
            database.all[index] = last
            self.at_all[last] = index
        if self.expire[key] >= 0:
            self.expire[key] = -1
            index = self.at_volatile[key]
            database.volatile_count -= 1
            last = database.volatile[database.volatile_count]
            if last != key:
                database.volatile[index] = last
                self.at_volatile[last] = index
        return cost

    # ---- access clocks

    cdef void touch(self, int64_t key, int64_t now) noexcept:
        if self.kind != KIND_LFU:
            self.clock[key] = (now // 1000) & _LRU_CLOCK_MAX
            return
        cdef int64_t stored = self.clock[key]
        cdef int64_t minute = minutes(now)
        cdef int64_t counter = decayed(stored & 255, stored >> 8, minute, self.decay_time)
        cdef int64_t base
        if counter < LFU_MAX:
            base = counter - LFU_INIT
            if base < 0:
                base = 0
            if rng_random(&self.rng) < 1.0 / <double>(base * self.log_factor + 1):
                counter += 1
        self.clock[key] = minute << 8 | counter

    cdef int64_t score(self, int64_t key, int64_t now) noexcept:
        cdef int64_t stored, lru
        if self.kind == KIND_LFU:
            stored = self.clock[key]
            return LFU_MAX - decayed(stored & 255, stored >> 8, minutes(now), self.decay_time)
        if self.kind == KIND_TTL:
            return -self.expire[key]
        lru = (now // 1000) & _LRU_CLOCK_MAX
        stored = self.clock[key]
        return (lru - stored if lru >= stored else _LRU_CLOCK_MAX - stored + lru) * 1000

    # ---- the pool

    cdef void pool_insert(self, int64_t key, int64_t score) noexcept:
        cdef int64_t k = 0
        cdef int64_t index
        while k < POOL and self.pool_keys[k] >= 0 and self.pool_scores[k] < score:
            k += 1
        if k == 0 and self.pool_keys[POOL - 1] >= 0:
            return
        if k < POOL and self.pool_keys[k] < 0:
            pass
        elif self.pool_keys[POOL - 1] < 0:
            index = POOL - 1
            while index > k:
                self.pool_keys[index] = self.pool_keys[index - 1]
                self.pool_scores[index] = self.pool_scores[index - 1]
                index -= 1
        else:
            k -= 1
            for index in range(k):
                self.pool_keys[index] = self.pool_keys[index + 1]
                self.pool_scores[index] = self.pool_scores[index + 1]
        self.pool_keys[k] = key
        self.pool_scores[k] = score

    cdef int64_t* members(self, int64_t db, int64_t* count) noexcept:
        """The keys eviction may take in database `db` (all, or those with a TTL), and how many."""
        if self.allkeys:
            count[0] = self.dbs[db].count
            return self.dbs[db].all
        count[0] = self.dbs[db].volatile_count
        return self.dbs[db].volatile

    cdef bint candidate(self, int64_t key) noexcept:
        if self.allkeys:
            return self.cost[key] > 0
        return self.cost[key] > 0 and self.expire[key] >= 0

    cdef bint pooled_key(self, int64_t now, int64_t* key, int64_t* db) noexcept:
        cdef int64_t total, index, count, n, position, drawn, seen
        cdef int64_t* members
        cdef int64_t chosen[MAX_SAMPLES]
        cdef int64_t k
        while True:
            total = 0
            for index in range(self.ndbs):
                if not self.dbs[index].created:
                    continue
                members = self.members(index, &n)
                if n == 0:
                    continue
                total += n
                if n <= self.samples:
                    for position in range(n):
                        self.pool_insert(members[position], self.score(members[position], now))
                    continue
                drawn = 0
                while drawn < self.samples:
                    position = rng_below(&self.rng, n)
                    seen = 0
                    for k in range(drawn):
                        if chosen[k] == position:
                            seen = 1
                            break
                    if not seen:
                        chosen[drawn] = position
                        drawn += 1
                for k in range(drawn):
                    self.pool_insert(members[chosen[k]], self.score(members[chosen[k]], now))
            if total == 0:
                return False
            for k in range(POOL - 1, -1, -1):
                if self.pool_keys[k] < 0:
                    continue
                key[0] = self.pool_keys[k]
                db[0] = self.db_of[key[0]]
                self.pool_keys[k] = -1
                self.pool_scores[k] = 0
                if self.candidate(key[0]):
                    return True

    cdef bint random_key(self, int64_t* key, int64_t* db) noexcept:
        cdef int64_t created = 0
        cdef int64_t index, tries, at, n, seen
        cdef int64_t* members
        for index in range(self.ndbs):
            if self.dbs[index].created:
                created += 1
        for tries in range(created):
            self.next_db += 1
            at = self.next_db % created
            seen = -1
            for index in range(self.ndbs):
                if self.dbs[index].created:
                    seen += 1
                    if seen == at:
                        break
            members = self.members(index, &n)
            if n:
                key[0] = members[rng_below(&self.rng, n)]
                db[0] = index
                return True
        return False

    cdef bint make_room(self, int64_t now) noexcept:
        if not self.maxmemory or self.used <= self.maxmemory:
            return True
        if self.noeviction:
            return False
        cdef int64_t goal = self.used - self.maxmemory
        cdef int64_t freed = 0
        cdef int64_t key = 0, db = 0, cost
        cdef bint found
        while freed < goal:
            if self.kind == KIND_RANDOM:
                found = self.random_key(&key, &db)
            else:
                found = self.pooled_key(now, &key, &db)
            if not found:
                return False
            cost = self.delete(key, db)
            freed += cost
            self.evicted_keys += 1
            self.evicted_bytes += cost
            self.evicted[key] += 1
        return True


def _column(values: object) -> object:
    """A trace column as a buffer of 64-bit integers (array('q') as it is, anything else copied)."""
    if isinstance(values, array) and values.typecode == "q":
        return values
    return array("q", values)


def replay(trace: object, settings: object) -> object:
    """`simulate.eviction.replay`, compiled (see the module docstring)."""
    if settings.policy not in POLICIES:
        raise ValueError(f"unknown policy {settings.policy!r}: one of {', '.join(POLICIES)}")
    cdef const int64_t[:] times = _column(trace.times)
    cdef const int64_t[:] keys = _column(trace.keys)
    cdef const int64_t[:] sizes = _column(trace.sizes)
    cdef const int64_t[:] ttls = _column(trace.ttls)
    cdef const int64_t[:] dbs = _column(trace.dbs)
    names = trace.names
    cdef int64_t accesses = keys.shape[0]
    cdef int64_t nkeys = len(names)
    cdef _Kernel kernel = _Kernel()
    cdef str policy = settings.policy
    kernel.rng.state = <uint64_t>(settings.seed & 0xFFFFFFFFFFFFFFFF)
    kernel.allkeys = policy.startswith("allkeys-")
    kernel.noeviction = policy == "noeviction"
    kind = policy.split("-", 1)[1] if "-" in policy else ""
    kernel.kind = KIND_LFU if kind == "lfu" else KIND_RANDOM if kind == "random" else KIND_TTL if kind == "ttl" else KIND_LRU
    if not 1 <= settings.samples <= MAX_SAMPLES:
        raise ValueError(f"maxmemory-samples must be 1 to {MAX_SAMPLES}")
    kernel.maxmemory = settings.maxmemory
    kernel.samples = settings.samples
    kernel.log_factor = settings.log_factor
    kernel.decay_time = settings.decay_time
    kernel.cron = 1000 // max(settings.hz, 1)
    kernel.memory = settings.memory
    kernel.costs = {}
    kernel.bucket_keys = settings.memory.capacity(1)
    kernel.used = settings.memory.baseline
    kernel.nkeys = nkeys
    for index in range(POOL):
        kernel.pool_keys[index] = -1
        kernel.pool_scores[index] = 0
    # the databases in order of their numbers, each with room for its own keys
    numbers = sorted(set(dbs))
    cdef dict dense = {number: at for at, number in enumerate(numbers)}
    kernel.ndbs = len(numbers)
    kernel.dbs = <Database*>calloc(max(kernel.ndbs, 1), sizeof(Database))
    kernel.cost = <int64_t*>calloc(max(nkeys, 1), sizeof(int64_t))
    kernel.clock = <int64_t*>calloc(max(nkeys, 1), sizeof(int64_t))
    kernel.expire = <int64_t*>malloc(max(nkeys, 1) * sizeof(int64_t))
    kernel.at_all = <int64_t*>calloc(max(nkeys, 1), sizeof(int64_t))
    kernel.at_volatile = <int64_t*>calloc(max(nkeys, 1), sizeof(int64_t))
    kernel.name_length = <int64_t*>malloc(max(nkeys, 1) * sizeof(int64_t))
    kernel.evicted = <int64_t*>calloc(max(nkeys, 1), sizeof(int64_t))
    kernel.db_of = <int64_t*>malloc(max(nkeys, 1) * sizeof(int64_t))
    kernel.cost_code = <int64_t*>malloc(max(nkeys, 1) * sizeof(int64_t))
    kernel.cost_of = <int64_t*>calloc(max(nkeys, 1), sizeof(int64_t))
    if (kernel.dbs == NULL or kernel.cost == NULL or kernel.clock == NULL or kernel.expire == NULL
            or kernel.at_all == NULL or kernel.at_volatile == NULL or kernel.name_length == NULL
            or kernel.evicted == NULL or kernel.db_of == NULL or kernel.cost_code == NULL
            or kernel.cost_of == NULL):
        raise MemoryError  # what was allocated is freed with the kernel
    cdef int64_t key, at, i
    for key in range(nkeys):
        kernel.expire[key] = -1
        kernel.name_length[key] = len(names[key])
        kernel.db_of[key] = -1
        kernel.cost_code[key] = -1
    sizes_per_db = [0] * kernel.ndbs
    for i in range(accesses):
        key = keys[i]
        if kernel.db_of[key] < 0:
            kernel.db_of[key] = dense[dbs[i]]
            sizes_per_db[kernel.db_of[key]] += 1
    for at in range(kernel.ndbs):
        kernel.dbs[at].all = <int64_t*>malloc(max(sizes_per_db[at], 1) * sizeof(int64_t))
        kernel.dbs[at].volatile = <int64_t*>malloc(max(sizes_per_db[at], 1) * sizeof(int64_t))
        if kernel.dbs[at].all == NULL or kernel.dbs[at].volatile == NULL:
            raise MemoryError
    _run(kernel, times, keys, sizes, ttls, accesses)
    outcome = Outcome(
        hits=kernel.hits,
        misses=kernel.misses,
        evicted_keys=kernel.evicted_keys,
        evicted_bytes=kernel.evicted_bytes,
        oom_errors=kernel.oom_errors,
        peak_memory=kernel.peak,
        keys_at_end=kernel.held,
    )
    evicted = outcome.evicted
    for key in range(nkeys):
        if kernel.evicted[key]:
            evicted[key] = kernel.evicted[key]
    return outcome


cdef void _run(
    _Kernel kernel,
    const int64_t[:] times,
    const int64_t[:] keys,
    const int64_t[:] sizes,
    const int64_t[:] ttls,
    int64_t accesses,
) noexcept:
    cdef int64_t i, now, key, db
    for i in range(accesses):
        now = times[i]
        if kernel.rehash_until and now >= kernel.rehash_until:
            kernel.finish_rehash()
        key = keys[i]
        db = kernel.db_of[key]
        kernel.make_room(now)  # before the GET
        if kernel.expire[key] >= 0 and kernel.expire[key] < now and kernel.cost[key] > 0:
            kernel.delete(key, db)  # lazy expiry
        if kernel.cost[key] > 0:
            kernel.hits += 1
            kernel.touch(key, now)
            continue
        kernel.misses += 1
        if not kernel.make_room(now):  # before the SET
            kernel.oom_errors += 1
            continue
        kernel.insert(key, db, sizes[i], ttls[i], now)
