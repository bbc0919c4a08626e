# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of `simulate.expiry.simulate_expiry`: the same cycles (`cursor`, `random`, `valkey9`),
step for step, with each database's table in flat C arrays.

Every decision is the pure code's: the keys' hashes and `random`'s draws come from the same generator
(`rng.SplitMix64`, its steps written out here) in the same order, buckets are read, keys deleted, time counted
(the same floating-point operations in the same order) and tables shrunk as there, so that both give the same
`ExpiryOutcome` (tests/simulate/test_expire_parity.py). Any change to the cycle in `expiry.py` is made here
too.

A table is its keys sorted by bucket: one array of slots (a key's expiry and bytes) and, for each bucket that
held keys when the table was laid out, the span of it that holds those still there (`begin` to `end`), in the
order the pure code's lists keep them (a deletion moves the keys after it down). Two bitmaps tell the buckets
that have a span and those that hold keys now, and a count per 64 buckets of the spans before them finds a
bucket's span (a dict has a third of its buckets empty or more: they take no span). A sweep passes over a run
of empty buckets at once, reading the bitmap.

A table is laid out by a counting sort over the hashes, in two levels (by the buckets' high bits, then each
group by its low bits, so that no pass writes all over the table), the hashes drawn twice from one generator
state rather than kept; a table that shrinks is laid out again from its spans. What has expired by each point
of the series is counted while laying it out (each key at the first point after its expiry), so the keys are
never sorted by expiry. Memory the table never touches costs nothing, and fresh memory is most of what laying
out ten million keys costs: what it allocates is kept small for that.
"""

import builtins
from array import array

import cython
from libc.math cimport rint
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from libc.stdlib cimport calloc, free, malloc

from rediscipline.simulate.expiry import (
    ALGORITHMS,
    BUCKET_DIVISOR,
    BUCKET_FACTOR,
    BUCKET_KEYS,
    HASHTABLE_MIN_FILL,
    MIN_FILL,
    RANDOM_REPEAT_ABOVE,
    TABLE_MIN,
    TIME_CHECK_EVERY,
    ExpiryOutcome,
)

CYTHON_VERSION = cython.__version__

cdef enum:
    ALGORITHM_CURSOR = 0
    ALGORITHM_RANDOM = 1
    ALGORITHM_VALKEY9 = 2
    # A table's slots are counted in 32 bits.
    MAX_KEYS = 2147483647
    # The layout sorts by the high bits of the bucket first (in as many groups as this, or more when a group
    # would have more than 2^16 buckets), then each group by its low bits: every pass writes to few places at
    # once, where one sort would write anywhere.
    GROUP_BITS = 8
    LOW_BITS_MAX = 16
    # iteration % TIME_CHECK_EVERY == 0
    TIME_CHECK_MASK = 15

assert ALGORITHMS == ("cursor", "random", "valkey9")
assert TIME_CHECK_EVERY == TIME_CHECK_MASK + 1

cdef int64_t _TABLE_MIN = TABLE_MIN
cdef int64_t _MIN_FILL = MIN_FILL
cdef int64_t _RANDOM_REPEAT_ABOVE = RANDOM_REPEAT_ABOVE
cdef int64_t _BUCKET_KEYS = BUCKET_KEYS
cdef int64_t _HASHTABLE_MIN_FILL = HASHTABLE_MIN_FILL
cdef int64_t _BUCKET_FACTOR = BUCKET_FACTOR
cdef int64_t _BUCKET_DIVISOR = BUCKET_DIVISOR

cdef extern from *:
    """
    /* A product that is never fused with the sum it feeds (an FMA rounds once where Python rounds twice). */
    #if defined(__GNUC__) || defined(__clang__)
    __attribute__((noinline))
    #endif
    static double rediscipline_product(double a, double b) { return a * b; }

    /* Trailing zeros (of x != 0) and set bits of 64-bit words; the popcount instruction only where it was
       asked for (without it, GCC calls a function). */
    #if defined(__GNUC__) || defined(__clang__)
    #define rediscipline_ctz64(x) __builtin_ctzll(x)
    #else
    static int rediscipline_ctz64(unsigned long long x) {
        int n = 0;
        while (!(x & 1)) { x >>= 1; n++; }
        return n;
    }
    #endif
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
    #define rediscipline_popcount64(x) __builtin_popcountll(x)
    #else
    static int rediscipline_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    double rediscipline_product(double a, double b) nogil
    int ctz64 "rediscipline_ctz64"(unsigned long long) nogil  # x != 0
    int popcount64 "rediscipline_popcount64"(unsigned long long) nogil


cdef struct Rng:
    uint64_t state


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    rng.state += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = rng.state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef struct Slot:
    int64_t expire
    int64_t size


cdef struct Span:
    int32_t begin
    int32_t end  # the bucket's keys still held are slots[begin:end]


cdef struct Table:
    int64_t held
    int64_t size  # buckets, a power of two
    int exp  # log2(size)
    uint64_t cursor  # a dict's: counts up, masked; a hashtable's: the place of the next bucket
    int64_t reclaimed
    int64_t reclaimed_bytes
    Span* spans  # one per bucket that held keys when laid out, in order of bucket
    uint32_t* ranks  # per 64 buckets: the spans of the buckets before them
    uint64_t* laid  # a bit per bucket: it has a span
    uint64_t* occupied  # a bit per bucket: it holds keys now
    Slot* slots
    int64_t* expired  # keys expired by each point of the series (points + 1, the last: never)
    int64_t* expired_bytes


cdef inline void* allocate(size_t size) noexcept nogil:
    return malloc(size if size > 0 else 1)


cdef inline int log2_of(int64_t size) noexcept nogil:
    cdef int exp = 0
    while (<int64_t>1 << exp) < size:
        exp += 1
    return exp


cdef inline int64_t table_size(int64_t keys, bint hashtable) noexcept nogil:
    cdef int64_t size
    if hashtable:
        size = 1
        while size * _BUCKET_KEYS < keys:
            size *= 2
        return size
    size = _TABLE_MIN
    while size < keys:
        size *= 2
    return size


cdef inline int64_t hashtable_resized(int64_t keys) noexcept nogil:
    cdef int64_t wanted = ((keys if keys > 1 else 1) * _BUCKET_FACTOR - 1) // _BUCKET_DIVISOR + 1
    cdef int64_t size = 1
    while size < wanted:
        size *= 2
    return size


cdef inline int64_t first_point_after(const int64_t* points_ms, int64_t points, int64_t expire,
                                      double scale) noexcept nogil:
    """The first point whose time is after `expire` (the key counts as expired from there); `points` if none."""
    if points == 0 or expire < points_ms[0]:
        return 0
    if expire >= points_ms[points - 1]:
        return points
    cdef int64_t at = <int64_t>(<double>(expire - points_ms[0]) * scale)
    if at < 0:
        at = 0
    if at > points - 1:
        at = points - 1
    while points_ms[at] <= expire:
        at += 1
    while at > 0 and points_ms[at - 1] > expire:
        at -= 1
    return at


cdef inline void set_bit(uint64_t* bits, int64_t bucket) noexcept nogil:
    bits[bucket >> 6] |= (<uint64_t>1) << (bucket & 63)


cdef inline void clear_bit(uint64_t* bits, int64_t bucket) noexcept nogil:
    bits[bucket >> 6] &= ~((<uint64_t>1) << (bucket & 63))


cdef inline bint has_bit(const uint64_t* bits, int64_t bucket) noexcept nogil:
    return (bits[bucket >> 6] >> (bucket & 63)) & 1


cdef inline Span* span_of(Table* table, int64_t bucket) noexcept nogil:
    """The span of a bucket that has one (`laid`)."""
    cdef int64_t word = bucket >> 6
    cdef uint64_t before = table.laid[word] & (((<uint64_t>1) << (bucket & 63)) - 1)
    return &table.spans[table.ranks[word] + popcount64(before)]


cdef inline int64_t empty_run(const uint64_t* bits, int64_t bucket, int64_t size, int64_t limit) noexcept nogil:
    """How many buckets from `bucket` on are empty, up to the table's end and at most `limit`."""
    cdef int64_t run = 0, left
    cdef uint64_t word
    if limit > size - bucket:
        limit = size - bucket
    while run < limit:
        word = bits[bucket >> 6] >> (bucket & 63)
        if word:
            run += ctz64(word)
            break
        left = 64 - (bucket & 63)
        run += left
        bucket += left
    return run if run < limit else limit


cdef inline int64_t bitmap_words(int64_t size) noexcept nogil:
    return (size + 63) // 64


def _column(values: object) -> object:
    """A column as a buffer of 64-bit integers (array('q') as it is, anything else copied)."""
    if isinstance(values, array) and values.typecode == "q":
        return values
    return array("q", values)


cdef int allocate_table(Table* table, int64_t size, int64_t spans, int64_t keys) except -1:
    """The arrays of a table of `size` buckets for at most `spans` spans and `keys` keys (its bitmaps zeroed)."""
    table.spans = <Span*>allocate(spans * sizeof(Span))
    table.ranks = <uint32_t*>allocate(bitmap_words(size) * sizeof(uint32_t))
    table.laid = <uint64_t*>calloc(bitmap_words(size), sizeof(uint64_t))
    table.occupied = <uint64_t*>calloc(bitmap_words(size), sizeof(uint64_t))
    table.slots = <Slot*>allocate(keys * sizeof(Slot))
    if (table.spans == NULL or table.ranks == NULL or table.laid == NULL or table.occupied == NULL
            or table.slots == NULL):
        free_table(table)
        raise MemoryError
    table.size = size
    table.exp = log2_of(size)
    return 0


cdef void free_table(Table* table) noexcept nogil:
    free(table.spans)
    free(table.ranks)
    free(table.laid)
    free(table.occupied)
    free(table.slots)
    table.spans = NULL
    table.ranks = NULL
    table.laid = NULL
    table.occupied = NULL
    table.slots = NULL


@cython.final
cdef class _Kernel:
    cdef Table* tables
    cdef int64_t ntables
    cdef Rng rng
    cdef int algorithm
    cdef bint hashtable
    cdef int64_t keys_per_loop, stale, per_key, fast_limit, slow_limit
    cdef double sample_us, delete_us, per_kb
    cdef uint64_t current_db
    cdef bint timelimit_exit

    def __cinit__(self) -> None:
        self.tables = NULL
        self.ntables = 0

    def __dealloc__(self) -> None:
        cdef int64_t at
        if self.tables != NULL:
            for at in range(self.ntables):
                free_table(&self.tables[at])
                free(self.tables[at].expired)
                free(self.tables[at].expired_bytes)
            free(self.tables)

    cdef inline uint64_t place(self, uint64_t hashed, int exp) noexcept nogil:
        if not self.hashtable:
            return hashed & (((<uint64_t>1) << exp) - 1)
        return 0 if exp == 0 else hashed >> (64 - exp)

    cdef int lay_out(self, Table* table, const int64_t[:] expires, const int64_t[:] sizes,
                     const int64_t* points_ms, int64_t points) except -1:
        """The table of `expires`/`sizes` (drawing each key's hash), and what has expired by each point."""
        cdef int64_t count = expires.shape[0]
        if count > MAX_KEYS:
            raise ValueError(f"at most {MAX_KEYS} keys a database, not {count}")
        table.expired = <int64_t*>calloc(points + 1, sizeof(int64_t))
        table.expired_bytes = <int64_t*>calloc(points + 1, sizeof(int64_t))
        if table.expired == NULL or table.expired_bytes == NULL:
            raise MemoryError  # what was allocated is freed with the kernel
        cdef int64_t size = table_size(count, self.hashtable)
        allocate_table(table, size, count, count)
        table.held = count
        cdef int exp = table.exp
        cdef int group_bits = GROUP_BITS if exp - GROUP_BITS <= LOW_BITS_MAX else exp - LOW_BITS_MAX
        if group_bits > exp:
            group_bits = exp
        cdef int low_bits = exp - group_bits
        cdef int64_t groups = (<int64_t>1) << group_bits, width = (<int64_t>1) << low_bits
        cdef uint64_t low_mask = <uint64_t>(width - 1)
        cdef double scale = 0.0
        if points > 1 and points_ms[points - 1] > points_ms[0]:
            scale = <double>(points - 1) / <double>(points_ms[points - 1] - points_ms[0])
        cdef int64_t* group_start = <int64_t*>calloc(groups + 1, sizeof(int64_t))
        if group_start == NULL:
            raise MemoryError
        cdef uint64_t saved = self.rng.state, place
        cdef int64_t key, at, group, low, high, bucket, running, counted, largest = 0, rank = 0, whole
        # 1: the keys per group, and what has expired by each point
        for key in range(count):
            group_start[(self.place(rng_next(&self.rng), exp) >> low_bits) + 1] += 1
            at = first_point_after(points_ms, points, expires[key], scale)
            table.expired[at] += 1
            table.expired_bytes[at] += sizes[key]
        for group in range(groups):
            if group_start[group + 1] > largest:
                largest = group_start[group + 1]
            group_start[group + 1] += group_start[group]
        for at in range(points):
            table.expired[at + 1] += table.expired[at]
            table.expired_bytes[at + 1] += table.expired_bytes[at]
        cdef uint16_t* places = <uint16_t*>allocate(count * sizeof(uint16_t))
        cdef int32_t* offsets = <int32_t*>allocate(width * sizeof(int32_t))
        cdef Slot* sorted_group = <Slot*>allocate(largest * sizeof(Slot))
        if places == NULL or offsets == NULL or sorted_group == NULL:
            free(places)
            free(offsets)
            free(sorted_group)
            free(group_start)
            raise MemoryError
        # 2: the keys in order of group (the same hashes again), each group's in the keys' order
        self.rng.state = saved
        for key in range(count):
            place = self.place(rng_next(&self.rng), exp)
            group = <int64_t>(place >> low_bits)
            at = group_start[group]
            group_start[group] = at + 1
            table.slots[at].expire = expires[key]
            table.slots[at].size = sizes[key]
            places[at] = <uint16_t>(place & low_mask)
        # 3: each group in order of bucket (after step 2, group_start[g] is where group g + 1 starts)
        low = 0
        for group in range(groups):
            high = group_start[group]
            memset(offsets, 0, width * sizeof(int32_t))
            for at in range(low, high):
                offsets[places[at]] += 1
            running = 0
            for bucket in range(width):
                whole = group * width + bucket
                if whole & 63 == 0:
                    table.ranks[whole >> 6] = <uint32_t>rank
                counted = offsets[bucket]
                if counted:
                    table.spans[rank].begin = <int32_t>(low + running)
                    table.spans[rank].end = <int32_t>(low + running + counted)
                    rank += 1
                    set_bit(table.laid, whole)
                    set_bit(table.occupied, whole)
                offsets[bucket] = <int32_t>running
                running += counted
            for at in range(low, high):
                sorted_group[offsets[places[at]]] = table.slots[at]
                offsets[places[at]] += 1
            memcpy(&table.slots[low], sorted_group, (high - low) * sizeof(Slot))
            low = high
        free(places)
        free(offsets)
        free(sorted_group)
        free(group_start)
        return 0

    cdef int resize(self, Table* table, int64_t size) except -1:
        """The keys still held laid out in `size` buckets (fewer), bucket after bucket, each in its order."""
        cdef Table new
        cdef int exp = log2_of(size)
        cdef int shift = table.exp - exp
        cdef uint64_t mask = <uint64_t>(size - 1)
        allocate_table(&new, size, table.held if table.held < size else size, table.held)
        cdef int32_t* counts = <int32_t*>calloc(size, sizeof(int32_t))  # keys, then the span, of each new bucket
        if counts == NULL:
            free_table(&new)
            raise MemoryError
        cdef int64_t word, bucket, running, rank = 0, length
        cdef uint64_t bits, target
        cdef Span* old
        cdef Span* span
        for word in range(bitmap_words(table.size)):
            bits = table.occupied[word]
            while bits:
                bucket = (word << 6) + ctz64(bits)
                bits &= bits - 1
                old = span_of(table, bucket)
                target = (<uint64_t>bucket >> shift) if self.hashtable else (<uint64_t>bucket & mask)
                counts[target] += old.end - old.begin
        running = 0
        for bucket in range(size):
            if bucket & 63 == 0:
                new.ranks[bucket >> 6] = <uint32_t>rank
            if counts[bucket]:
                new.spans[rank].begin = <int32_t>running
                new.spans[rank].end = <int32_t>running  # moved up as the keys are copied in
                running += counts[bucket]
                counts[bucket] = <int32_t>rank
                rank += 1
                set_bit(new.laid, bucket)
                set_bit(new.occupied, bucket)
        for word in range(bitmap_words(table.size)):
            bits = table.occupied[word]
            while bits:
                bucket = (word << 6) + ctz64(bits)
                bits &= bits - 1
                old = span_of(table, bucket)
                target = (<uint64_t>bucket >> shift) if self.hashtable else (<uint64_t>bucket & mask)
                span = &new.spans[counts[target]]
                length = old.end - old.begin
                memcpy(&new.slots[span.end], &table.slots[old.begin], length * sizeof(Slot))
                span.end += <int32_t>length
        free(counts)
        free_table(table)
        table.spans, table.ranks, table.laid, table.occupied, table.slots = (
            new.spans, new.ranks, new.laid, new.occupied, new.slots)
        if self.hashtable:
            table.cursor >>= shift
        table.size = size
        table.exp = exp
        return 0

    cdef int cron(self, Table* table) except -1:
        if self.hashtable:
            return self.shrink_if_needed(table)
        if table.size > _TABLE_MIN and table.held * 100 < _MIN_FILL * table.size:  # held * 100 // size < 10
            self.resize(table, table_size(table.held, False))
        return 0

    cdef int shrink_if_needed(self, Table* table) except -1:
        cdef int64_t size
        if table.held * 100 <= table.size * _BUCKET_KEYS * _HASHTABLE_MIN_FILL:
            size = hashtable_resized(table.held)
            if size < table.size:
                self.resize(table, size)
        return 0

    cdef inline int64_t expire(self, Table* table, int64_t bucket, int64_t now, double* elapsed,
                               int64_t* sampled, int64_t* reclaimed_bytes) noexcept nogil:
        """The keys of `bucket` (one that holds keys) looked at, the expired ones deleted (their bytes added to
        `reclaimed_bytes`) and the others moved down over them: the keys deleted. The caller updates the
        table's counts.

        Without branches on the data (adding 0.0 to the time leaves it as it is): whether a key expired is as
        good as random in a storm."""
        cdef Span* span = span_of(table, bucket)
        cdef int64_t at = span.begin, end = span.end, kept = span.begin, size, freed = 0
        cdef Slot* slots = table.slots
        cdef Slot slot
        cdef bint gone
        cdef double spent = elapsed[0], delete_us = self.delete_us, per_kb = self.per_kb
        sampled[0] += end - at
        while at < end:
            slot = slots[at]
            gone = slot.expire < now
            if kept != at:  # only after a deletion in this bucket: a store for every key would dirty them all
                slots[kept] = slot
            kept += not gone
            size = slot.size
            spent += (delete_us + per_kb * <double>size / 1024.0) if gone else 0.0
            freed += size if gone else 0
            at += 1
        elapsed[0] = spent
        reclaimed_bytes[0] += freed
        if kept != end:  # a store for every bucket would dirty them all
            span.end = <int32_t>kept
        if kept == span.begin:
            clear_bit(table.occupied, bucket)
        return end - kept

    cdef int64_t sweep(self, Table* table, int64_t now, int64_t wanted, int64_t budget, double* elapsed,
                       int64_t* expired) noexcept nogil:
        """`cursor`'s loop: the keys sampled. The empty buckets before the next key are passed over at once,
        each counted as read (the same cursor and budget as reading them one by one)."""
        cdef int64_t sampled = 0, checked = 0, gone = 0, reclaimed_bytes = 0, bucket, empty, size = table.size
        cdef double spent = elapsed[0]
        cdef uint64_t cursor = table.cursor, mask = <uint64_t>(size - 1)
        while sampled < wanted and checked < budget:
            bucket = <int64_t>(cursor & mask)
            empty = empty_run(table.occupied, bucket, size, budget - checked)
            checked += empty
            cursor += <uint64_t>empty
            if empty == size - bucket or checked >= budget:
                continue  # the table's end (the cursor goes on from bucket 0), or the budget spent
            checked += 1
            gone += self.expire(table, <int64_t>(cursor & mask), now, &spent, &sampled, &reclaimed_bytes)
            cursor += 1
        table.cursor = cursor
        table.held -= gone
        table.reclaimed += gone
        table.reclaimed_bytes += reclaimed_bytes
        elapsed[0] = spent
        expired[0] += gone
        return sampled

    cdef int scan(self, Table* table, int64_t now, int64_t wanted, int64_t budget, double* elapsed,
                  int64_t* sampled, int64_t* expired) except -1:
        """`valkey9`'s loop: 1 when the database is done for the call (wrapped or skipped), else 0."""
        cdef int64_t checked = 0, gone, reclaimed_bytes, bucket
        cdef bint wrapped
        while sampled[0] < wanted and checked < budget:
            if table.held * 100 < table.size:  # under 1 % (held * 100 // size < 1): skipped
                table.cursor = 0
                return 1
            bucket = <int64_t>table.cursor
            gone = 0
            if has_bit(table.occupied, bucket):
                reclaimed_bytes = 0
                gone = self.expire(table, bucket, now, elapsed, sampled, &reclaimed_bytes)
                table.held -= gone
                table.reclaimed += gone
                table.reclaimed_bytes += reclaimed_bytes
                expired[0] += gone
            table.cursor += 1
            wrapped = table.cursor == <uint64_t>table.size
            if wrapped:
                table.cursor = 0
            if gone:
                self.shrink_if_needed(table)
            if wrapped:
                return 1
            checked += 1
        return 0

    cdef int64_t lookups(self, Table* table, int64_t now, int64_t wanted, double* elapsed,
                         int64_t* expired) noexcept nogil:
        """`random`'s loop: the lookups."""
        cdef int64_t sampled = 0, done, alive, at, bucket
        cdef uint64_t mask = <uint64_t>(table.size - 1)
        cdef Span* span
        for done in range(wanted):
            if table.held == 0:
                break
            while True:
                bucket = <int64_t>(rng_next(&self.rng) & mask)
                if has_bit(table.occupied, bucket):
                    break
            span = span_of(table, bucket)
            alive = span.end - span.begin
            at = span.begin + <int64_t>(rng_next(&self.rng) % <uint64_t>alive)
            sampled += 1
            if table.slots[at].expire < now:
                expired[0] += 1
                elapsed[0] += self.delete_us + self.per_kb * <double>table.slots[at].size / 1024.0
                table.held -= 1
                table.reclaimed += 1
                table.reclaimed_bytes += table.slots[at].size
                memmove(&table.slots[at], &table.slots[at + 1], (span.end - at - 1) * sizeof(Slot))
                span.end -= 1
                if span.end == span.begin:
                    clear_bit(table.occupied, bucket)
        return sampled

    cdef int run(self, int64_t now, bint fast, double* took) except -1:
        """One call at `now`: 1 when it stopped at its time limit; the µs it took in `took`."""
        cdef int64_t limit = self.fast_limit if fast else self.slow_limit
        cdef double elapsed = 0.0
        cdef int64_t iteration = 0, call, held, wanted, sampled, expired
        cdef bint repeat
        cdef int done
        cdef Table* table
        self.timelimit_exit = False
        for call in range(self.ntables):
            if self.timelimit_exit:
                break
            table = &self.tables[self.current_db % <uint64_t>self.ntables]
            self.current_db += 1
            while True:
                iteration += 1
                held = table.held
                if held == 0:
                    break
                if not self.hashtable and table.size > _TABLE_MIN and held * 100 < table.size:
                    break  # under 1 % full (held * 100 // size < 1)
                wanted = held if held < self.keys_per_loop else self.keys_per_loop
                sampled = 0
                expired = 0
                if self.algorithm == ALGORITHM_RANDOM:
                    sampled = self.lookups(table, now, wanted, &elapsed, &expired)
                    repeat = expired > _RANDOM_REPEAT_ABOVE
                elif self.hashtable:
                    done = self.scan(table, now, wanted, wanted * self.per_key, &elapsed, &sampled, &expired)
                    repeat = not done and (sampled == 0 or expired * 100 >= (self.stale + 1) * sampled)
                else:
                    sampled = self.sweep(table, now, wanted, wanted * self.per_key, &elapsed, &expired)
                    repeat = sampled == 0 or expired * 100 >= (self.stale + 1) * sampled  # * 100 // sampled > stale
                elapsed += rediscipline_product(self.sample_us, <double>sampled)
                if iteration & TIME_CHECK_MASK == 0 and elapsed > <double>limit:
                    self.timelimit_exit = True
                    break
                if not repeat:
                    break
        took[0] = elapsed
        return self.timelimit_exit


def simulate_expiry(keys: object, start_ms: int, seconds: float, step: float, settings: object) -> object:
    """`simulate.expiry.simulate_expiry`, compiled (see the module docstring)."""
    # the model's point type is read here, not at import: `--version` loads this module without the model
    from rediscipline.model.simulation import ExpiryPoint

    if not step > 0:
        raise ValueError(f"the step must be above 0, not {step}")
    volatile = [k for k in sorted(keys, key=lambda k: k.db) if len(k.expires)]
    for k in volatile:
        if len(k.expires) != len(k.sizes):
            raise ValueError(f"db {k.db}: {len(k.expires)} expiries but {len(k.sizes)} sizes")
    cdef double tick_ms = 1000 / settings.hz
    cdef double until = seconds * 1000
    cdef double step_ = step
    cdef int64_t start = start_ms
    # the points of the series (the loop below without its cycles): when each is recorded, in order
    cdef double now = 0.0, next_point = 0.0
    ts = []
    while now <= until:
        while next_point * 1000.0 <= now:
            ts.append(next_point)
            next_point += step_
        now += tick_ms
    cdef int64_t points = len(ts)
    points_column = array("q", [start + <int64_t>rint(<double>t * 1000.0) for t in ts])
    cdef const int64_t[:] points_ms = points_column
    cdef const int64_t* points_at = &points_ms[0] if points else NULL

    cdef _Kernel kernel = _Kernel()
    kernel.rng.state = <uint64_t>(settings.seed & 0xFFFFFFFFFFFFFFFF)
    kernel.algorithm = ALGORITHMS.index(settings.algorithm)
    kernel.hashtable = kernel.algorithm == ALGORITHM_VALKEY9
    kernel.keys_per_loop = settings.keys_per_loop
    kernel.stale = settings.acceptable_stale
    kernel.per_key = settings.buckets_per_key
    kernel.fast_limit = settings.fast_duration_us
    kernel.slow_limit = settings.slow_limit_us
    kernel.sample_us = settings.sample_us
    kernel.delete_us = settings.delete_us
    kernel.per_kb = 0.0 if settings.lazyfree else settings.delete_us_per_kb
    kernel.ntables = len(volatile)
    kernel.tables = <Table*>calloc(kernel.ntables if kernel.ntables else 1, sizeof(Table))
    if kernel.tables == NULL:
        raise MemoryError
    cdef const int64_t[:] expires
    cdef const int64_t[:] sizes
    cdef int64_t at
    for at in range(kernel.ntables):
        expires = _column(volatile[at].expires)
        sizes = _column(volatile[at].sizes)
        kernel.lay_out(&kernel.tables[at], expires, sizes, points_at, points)
    numbers = [k.db for k in volatile]

    outcome = ExpiryOutcome()
    series, cpu_share = outcome.series, outcome.cpu_share
    time_limit_hits, longest_cycle = outcome.time_limit_hits, outcome.longest_cycle_us
    py_round = builtins.round
    cdef int64_t gap_us = 2 * settings.fast_duration_us
    cdef double busy = 0.0, longest = 0.0, point_start = 0.0, took = 0.0, fast_at, span
    cdef int64_t hits = 0, point = 0
    cdef bint at_limit
    cdef Table* table
    now = 0.0
    next_point = 0.0
    while now <= until:
        while next_point * 1000.0 <= now:
            if point >= points:
                raise AssertionError("the series' points were counted wrong")
            t = py_round(next_point, 3)
            for at in range(kernel.ntables):
                table = &kernel.tables[at]
                series.append(ExpiryPoint(
                    numbers[at],
                    t,
                    table.expired[point] - table.reclaimed,
                    table.expired_bytes[point] - table.reclaimed_bytes,
                    table.reclaimed,
                ))
            if next_point > 0:
                span = (next_point - point_start) * 1000000.0
                cpu_share.append((next_point, busy / span if span else 0.0))
                time_limit_hits.append((next_point, hits))
                longest_cycle.append((next_point, longest))
                busy, hits, longest, point_start = 0.0, 0, 0.0, next_point
            next_point += step_
            point += 1
        at_limit = kernel.run(start + <int64_t>rint(now), False, &took)
        for at in range(kernel.ntables):
            kernel.cron(&kernel.tables[at])
        busy += took
        if took > longest:
            longest = took
        hits += at_limit
        fast_at = now + (took + <double>gap_us) / 1000.0  # fast cycles run between ticks while the limit is hit
        while at_limit and fast_at < now + tick_ms:
            at_limit = kernel.run(start + <int64_t>rint(fast_at), True, &took)
            busy += took
            if took > longest:
                longest = took
            fast_at += (took if took >= <double>gap_us else <double>gap_us) / 1000.0
        now += tick_ms
    return outcome
