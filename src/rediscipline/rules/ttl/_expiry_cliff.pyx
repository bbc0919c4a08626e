# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled twin of `expiry_cliff._CliffAccumulator.add`: the same counters, changed the same way.

TTL002 counts every key with a TTL of a pattern into second and minute buckets (Misra–Gries counters in plain
dicts and lists, `expiry_cliff._Buckets`); on a dump where a fifth of the keys have a TTL that is the commonest
aggregate step. `Adder(accumulator)` is a callable the compiled engine kernel calls instead of the method: it
changes the accumulator's own `_Pattern` and `_Buckets` objects, so `merge` and `finish` (Python) read the state
either core left. Any change to `_CliffAccumulator.add` or `_Buckets.add` is made here too; the tests compare
both cores' reports.
"""

from rediscipline._slots cimport slot, slot_offset

# What the twin reads from the pure modules, bound on the first Adder (importing this module stays light).
cdef bint bound = False
cdef object Pattern, prune_table, keys_of
cdef object SECOND_HORIZON, MINUTE_HORIZON
cdef Py_ssize_t FULL
cdef Py_ssize_t F_NAME, F_ORIGIN, F_TTL, F_EXPIRE


cdef void bind() except *:
    global bound, Pattern, prune_table, keys_of, SECOND_HORIZON, MINUTE_HORIZON, FULL
    global F_NAME, F_ORIGIN, F_TTL, F_EXPIRE
    from rediscipline.model.facts import KeyFact
    from rediscipline.rules.ttl import expiry_cliff

    Pattern, prune_table, keys_of = expiry_cliff._Pattern, expiry_cliff.prune_table, expiry_cliff._keys
    SECOND_HORIZON, MINUTE_HORIZON = expiry_cliff.SECOND_HORIZON_MS, expiry_cliff.MINUTE_HORIZON_MS
    FULL = expiry_cliff._FULL
    F_NAME, F_ORIGIN = slot_offset(KeyFact, "name"), slot_offset(KeyFact, "origin")
    F_TTL, F_EXPIRE = slot_offset(KeyFact, "ttl_ms"), slot_offset(KeyFact, "expire_at_ms")
    bound = True


cdef void bucket_add(object buckets, object bucket, bytes name, object origin, object part) except *:
    """`_Buckets.add`."""
    cdef dict counts = buckets.counts
    cdef list counter
    cdef dict kept
    found = counts.get(bucket)
    if found is not None:
        counter = <list>found
        counter[0] += 1
        if len(counter) < FULL:
            counter.append(part)
            counter.append(name)
            counter.append(origin)
    elif len(counts) < <Py_ssize_t>buckets.capacity:
        counts[bucket] = [1, part, name, origin]
    else:
        kept = {key: value for key, value in counts.items() if (<list>value)[0] > 1}
        for value in kept.values():
            (<list>value)[0] -= 1
        buckets.counts = kept


cdef class Adder:
    """`accumulator.add` for one `_CliffAccumulator`, as a C callable (`Accumulator.twin_add`)."""

    cdef object accumulator
    cdef dict patterns
    cdef Py_ssize_t capacity

    def __init__(self, accumulator):
        if not bound:
            bind()
        self.accumulator = accumulator
        self.patterns = accumulator.patterns
        self.capacity = accumulator.capacity

    def __call__(self, fact, bytes pattern):
        expire_at = slot(fact, F_EXPIRE)
        left = slot(fact, F_TTL)
        name = slot(fact, F_NAME)
        if expire_at is None or left is None or left < 0 or not isinstance(name, bytes):
            return
        patterns = self.patterns
        entry = patterns.get(pattern)
        if entry is None:
            if len(patterns) >= self.capacity:
                prune_table(patterns, keys_of)
            entry = patterns[pattern] = Pattern()
        entry.keys += 1
        if left >= SECOND_HORIZON:
            bucket_add(entry.seconds, expire_at // 1000, <bytes>name, slot(fact, F_ORIGIN), self.accumulator.part)
        if left >= MINUTE_HORIZON:
            bucket_add(entry.minutes, expire_at // 60_000, <bytes>name, slot(fact, F_ORIGIN), self.accumulator.part)
