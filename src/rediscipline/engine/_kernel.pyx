# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled twin of the engine's per-key path: `Engine.consume` and `Engine.feed` for concrete keys.

`consume(engine, facts)` does what `Engine.consume` does, fact for fact, with the work every key of a dump or a
scan takes done in C: the name verdict's skeleton lookup, the pattern count, the fact rules' gates
(`rules.gate`: a fact rule's `check` runs only for the keys its gate lets through), and the keyspace summary's
counters (`KeyspaceCollector.add`). Everything else calls the same Python the pure core runs: a verdict missing
from the memo, name violations, a rule's `check`, aggregate rules' accumulators, cluster slots, other facts.

It must leave the engine in the state the pure `Engine.feed` leaves it in, key for key: the tests compare whole
reports from both cores. Any change to `Engine.feed`, `Engine._verdict` or `KeyspaceCollector.add` is made
here too.
"""

import cython
from rediscipline._slots cimport slot, slot_offset

CYTHON_VERSION = cython.__version__

# What the per-key path reads from the pure modules, bound on the first `consume` (`bind`): importing this
# module stays as light as `rediscipline --version` needs it to be.
cdef bint bound = False
cdef object WARNING, TTL_LABEL_LATER, NAMESPACE_CAP, OTHER, KeyFact, DATE_PREFIXES, DIGITS_TO_ZERO
cdef object NO_EXPIRY, namespace_of
cdef long long MINUTE, SECONDS, END_MINUTE
cdef tuple BY_MINUTE, BY_HOUR
# Offsets of the KeyFact fields (FIELDS: all of them, in `rules.gate.FACT_FIELDS` order, for the gates)
cdef Py_ssize_t F_NAME, F_ORIGIN, F_DB, F_TYPE, F_TTL, F_MEMORY, F_LENGTH, F_ENCODING
cdef Py_ssize_t FIELDS[32]
# ... and of the NameVerdict and Scope fields the per-key path reads
cdef Py_ssize_t V_PATTERN, V_VIOLATIONS, V_FLAGS, V_TEMPLATE, V_SCOPE, V_CHECKS, V_GATED, V_UNIFORM, S_NAMESPACE


cdef void bind() except *:
    global bound, WARNING, TTL_LABEL_LATER, NAMESPACE_CAP, OTHER, KeyFact, DATE_PREFIXES, DIGITS_TO_ZERO
    global NO_EXPIRY, namespace_of, MINUTE, SECONDS, END_MINUTE, BY_MINUTE, BY_HOUR
    global F_NAME, F_ORIGIN, F_DB, F_TYPE, F_TTL, F_MEMORY, F_LENGTH, F_ENCODING
    cdef Py_ssize_t index
    global V_PATTERN, V_VIOLATIONS, V_FLAGS, V_TEMPLATE, V_SCOPE, V_CHECKS, V_GATED, V_UNIFORM, S_NAMESPACE
    from rediscipline.engine import keyspace, keyspace_tables
    from rediscipline.engine.runner import NameVerdict
    from rediscipline.engine.scopes import Scope
    from rediscipline.model import facts, keypattern
    from rediscipline.model import keyspace as keyspace_model
    from rediscipline.model.severity import Severity
    from rediscipline.rules.gate import FACT_FIELDS

    fact = facts.KeyFact
    F_NAME, F_ORIGIN, F_DB = slot_offset(fact, "name"), slot_offset(fact, "origin"), slot_offset(fact, "db")
    F_TYPE, F_TTL, F_MEMORY = slot_offset(fact, "type"), slot_offset(fact, "ttl_ms"), slot_offset(fact, "memory")
    F_LENGTH, F_ENCODING = slot_offset(fact, "length"), slot_offset(fact, "encoding")
    if len(FACT_FIELDS) > 32:
        raise TypeError("more KeyFact fields than the kernel's table holds")
    for index in range(len(FACT_FIELDS)):
        FIELDS[index] = slot_offset(fact, FACT_FIELDS[index])
    V_PATTERN, V_VIOLATIONS = slot_offset(NameVerdict, "pattern"), slot_offset(NameVerdict, "violations")
    V_FLAGS, V_TEMPLATE = slot_offset(NameVerdict, "flags"), slot_offset(NameVerdict, "template")
    V_SCOPE, V_CHECKS = slot_offset(NameVerdict, "scope"), slot_offset(NameVerdict, "fact_checks")
    V_GATED, V_UNIFORM = slot_offset(NameVerdict, "gated_accumulators"), slot_offset(NameVerdict, "uniform")
    S_NAMESPACE = slot_offset(Scope, "namespace")

    WARNING = Severity.WARNING
    TTL_LABEL_LATER = keyspace_tables.TTL_LABEL_LATER
    NAMESPACE_CAP, OTHER = keyspace.NAMESPACE_CAP, keyspace.OTHER
    KeyFact = facts.KeyFact
    DATE_PREFIXES, DIGITS_TO_ZERO = keypattern.DATE_PREFIXES, keypattern.DIGITS_TO_ZERO
    NO_EXPIRY, namespace_of = keyspace_model.NO_EXPIRY, keyspace_model.namespace_of
    MINUTE, SECONDS = keyspace_model.MINUTE_MS, keyspace_model.TIMELINE_SECONDS
    END_MINUTE = keyspace_tables.TIMELINE_END_MINUTE
    BY_MINUTE, BY_HOUR = keyspace_tables.TTL_LABEL_BY_MINUTE, keyspace_tables.TTL_LABEL_BY_HOUR
    bound = True


cdef bint passes(tuple gate, object fact):
    """Whether a key passes a compiled gate (`Gate.compiled`): some clause with every condition true."""
    cdef tuple clause, condition
    cdef int op
    for clause in gate:
        for condition in clause:
            value = slot(fact, FIELDS[<Py_ssize_t>condition[0]])
            if value is None:
                break
            op = condition[1]
            operand = condition[2]
            if op == 0:
                if not value > operand:
                    break
            elif op == 1:
                if not value >= operand:
                    break
            elif op == 2:
                if not value == operand:
                    break
            elif op == 3:
                if value not in operand:
                    break
            elif op == 5:
                if not value <= operand:
                    break
            elif not (type(value) is bytes and (<bytes>value).startswith(operand)):
                break
        else:
            return True
    return False


cdef extern from *:
    int clzll "__builtin_clzll"(unsigned long long) nogil

cdef enum:
    # Keys of fewer memory bits than this (under 4 GiB) are counted in the C tables; a bigger one in the lists.
    SMALL_BITS = 32
    # Keys counted in C between two syncs at most, so that a bucket's memory sum stays below 2^63.
    SYNC_EVERY = 1 << 30
    # Seconds (the first day's) and hours of the TTL timeline counted in C; any beyond are counted in the lists.
    SECONDS_CAP = 86400
    HOURS_CAP = 2048
cdef long long SMALL_LIMIT = (<long long>1) << SMALL_BITS


cdef class Keyspace:
    """`KeyspaceCollector.add` over the collector's own tables (read once per `consume`).

    The key-size buckets of keys under 4 GiB and the TTL timeline are counted in C arrays and added into the
    collector's lists by `sync`; the rest is the collector's own objects."""

    cdef object collector
    cdef list size_keys, size_memory, per_second, per_hour
    cdef dict combinations, namespace_cache, pattern_rows
    cdef set namespace_seen
    cdef list by_memory, by_length
    cdef int top
    cdef bint sampled
    cdef Py_ssize_t keys  # the collector's `keys`, written back by `sync`
    cdef long long small_keys[SMALL_BITS + 1]
    cdef long long small_memory[SMALL_BITS + 1]
    cdef long long second_keys[SECONDS_CAP]
    cdef long long hour_keys[HOURS_CAP]
    cdef long long pending  # keys counted in the C tables since the last sync
    cdef long long seconds, hours

    def __init__(self, collector):
        self.collector = collector
        self.size_keys = collector._size_keys
        self.size_memory = collector._size_memory
        self.per_second = collector._per_second
        self.per_hour = collector._per_hour
        self.combinations = collector._combinations
        self.namespace_cache = collector._namespace_cache
        self.namespace_seen = collector._namespace_seen
        self.pattern_rows = collector.patterns.rows
        self.by_memory = collector._by_memory
        self.by_length = collector._by_length
        self.top = collector.top
        self.sampled = collector._sample is not None
        self.keys = collector.keys
        self.seconds = min(len(self.per_second), SECONDS_CAP)
        self.hours = min(len(self.per_hour), HOURS_CAP)
        for index in range(SMALL_BITS + 1):
            self.small_keys[index] = 0
            self.small_memory[index] = 0
        for index in range(SECONDS_CAP):
            self.second_keys[index] = 0
        for index in range(HOURS_CAP):
            self.hour_keys[index] = 0
        self.pending = 0

    cdef void sync(self) except *:
        cdef Py_ssize_t index
        self.collector.keys = self.keys
        if not self.pending:
            return
        for index in range(SMALL_BITS + 1):
            if self.small_keys[index]:
                self.size_keys[index] += self.small_keys[index]
                self.size_memory[index] += self.small_memory[index]
                self.small_keys[index] = 0
                self.small_memory[index] = 0
        for index in range(self.seconds):
            if self.second_keys[index]:
                self.per_second[index] += self.second_keys[index]
                self.second_keys[index] = 0
        for index in range(self.hours):
            if self.hour_keys[index]:
                self.per_hour[index] += self.hour_keys[index]
                self.hour_keys[index] = 0
        self.pending = 0

    cdef void add(self, object fact, object namespace, bytes pattern) except *:
        cdef Py_ssize_t size
        cdef long long second, minute, small
        cdef bint has_ttl
        cdef list counter, row
        collector = self.collector
        memory = slot(fact, F_MEMORY)
        if memory is None:
            memory = 0
        elif type(memory) is int and 0 <= memory < SMALL_LIMIT:
            small = memory
            size = 0 if small == 0 else 64 - clzll(<unsigned long long>small)
            self.small_keys[size] += 1
            self.small_memory[size] += small
            self.pending += 1
        else:
            size = memory.bit_length()
            if size >= len(self.size_keys):
                collector._grow_sizes(size + 1)
            self.size_keys[size] += 1
            self.size_memory[size] += memory
        length = slot(fact, F_LENGTH) or 0
        ttl = slot(fact, F_TTL)
        if ttl is not None and ttl >= 0:
            has_ttl = True
            second = ttl // 1000 if ttl < 2 ** 62 else END_MINUTE * 60
            minute = second // 60
            if second < SECONDS:
                if second < self.seconds:
                    self.second_keys[second] += 1
                    self.pending += 1
                else:
                    self.per_second[second] += 1
                bucket = BY_MINUTE[minute]
            elif minute < END_MINUTE:
                if minute // 60 < self.hours:
                    self.hour_keys[minute // 60] += 1
                    self.pending += 1
                else:
                    self.per_hour[minute // 60] += 1
                bucket = BY_HOUR[minute // 60]
            else:
                collector._expire_later += 1
                bucket = TTL_LABEL_LATER
        else:
            has_ttl = False
            bucket = NO_EXPIRY if ttl == -1 else "?"
        if self.pending >= SYNC_EVERY:
            self.sync()
        self.keys += 1
        if self.sampled:
            if memory:
                collector._sum_memory_sq += memory * memory
            if not has_ttl and ttl is not None:
                collector._persistent_keys += 1
                collector._persistent_memory += memory
                collector._persistent_memory_sq += memory * memory
        if namespace is None:
            namespace = self.namespace_cache.get(pattern)
            if namespace is None:
                namespace = namespace_of(pattern)
                if namespace not in self.namespace_seen:
                    if len(self.namespace_seen) >= NAMESPACE_CAP:
                        namespace = OTHER
                    self.namespace_seen.add(namespace)
                if len(self.namespace_cache) < NAMESPACE_CAP * 4:
                    self.namespace_cache[pattern] = namespace
        key_type = slot(fact, F_TYPE)
        combination = (key_type, slot(fact, F_ENCODING), slot(fact, F_DB), bucket, namespace)
        counter = self.combinations.get(combination)
        if counter is None:
            counter = self.combinations[combination] = [0, 0, 0, 0]
        counter[0] += 1
        counter[1] += memory
        counter[2] += length
        counter[3] += has_ttl
        row_key = (pattern, key_type)
        row = self.pattern_rows.get(row_key)
        if row is None:
            row = self.pattern_rows[row_key] = [0, 0, 0]
        row[0] += 1
        row[1] += memory
        row[2] += has_ttl
        if memory and (len(self.by_memory) < self.top or memory >= self.by_memory[0][0]):
            collector._push(self.by_memory, memory, fact)
        if length and key_type != "string" and (len(self.by_length) < self.top or length >= self.by_length[0][0]):
            collector._push(self.by_length, length, fact)


cdef class Feed:
    """The engine's per-key state, read once per `consume`; `sync` writes its counters back."""

    cdef object engine, patterns, flagged, groups, slots, keyspace_collector
    cdef Keyspace keyspace
    cdef dict fast, counts, resolved, group_dict
    cdef bint scoped
    cdef Py_ssize_t examples
    cdef Py_ssize_t keys  # the engine's `keys`: the arrival rank of the latest key
    cdef Py_ssize_t flagged_keys  # keys counted into `FlaggedKeys.keys` by `sync`

    def __init__(self, engine):
        self.engine = engine
        self.patterns = engine.patterns
        self.counts = engine.patterns.counts
        self.flagged = engine.flagged
        self.groups = engine.groups
        self.group_dict = engine.groups._groups
        self.examples = engine.groups.examples
        self.resolved = engine._resolved
        self.slots = engine._slots
        self.fast = engine._fast
        self.scoped = bool(engine._scoped)
        self.keyspace_collector = engine.keyspace
        self.keyspace = Keyspace(engine.keyspace)
        self.keys = engine.keys
        self.flagged_keys = 0

    cdef void sync(self) except *:
        """Write the counters kept here back to the engine (before Python reads them, and at the end)."""
        self.engine.keys = self.keys
        if self.flagged_keys:
            self.flagged.keys += self.flagged_keys
            self.flagged_keys = 0
        self.keyspace.sync()

    cdef object verdict(self, bytes name, object key_type):
        """`Engine._verdict`'s digit-skeleton lookup; every other case is the engine's own."""
        cdef tuple found
        cdef Py_ssize_t offset
        if not self.scoped:
            skeleton = name.translate(DIGITS_TO_ZERO)
            found = self.fast.get(skeleton if key_type is None else (skeleton, key_type))
            if found is not None:
                for offset in <tuple>found[1]:
                    if name[offset : offset + 2] in DATE_PREFIXES:
                        break
                else:
                    return found[0]
        return self.engine._verdict(name, key_type)

    cdef object resolve(self, tuple check, object found):
        """`Engine.resolve_found` (None for None), through the engine's cache of shared violations."""
        if found is None:
            return None
        cached = self.resolved.get(id(found))
        if cached is not None and (<tuple>cached)[0] is found and (<tuple>cached)[1] is check[2]:
            return (<tuple>cached)[2]
        return self.engine.resolve_found(check[1], check[2], found)

    cdef void count(self, object resolved, bytes pattern, bytes name, object origin) except *:
        """`Groups.add`: one key of `pattern` shows `resolved`; a group whose examples are full only counts."""
        group = self.group_dict.get((resolved.rule_id, resolved.code, pattern))
        if group is None or len(group.examples) < self.examples:
            self.groups.add(resolved, pattern, name, origin, self.keys)
            return
        group.count += 1
        value = resolved.value
        if value is not None:
            worst = group.worst
            if worst is None or value > worst:
                group.worst = value
                group.violation = resolved
                group.worst_rank = self.keys

    cdef void key(self, object fact, bytes name) except *:
        """`Engine.feed` for a key with a concrete name."""
        cdef tuple check, checks
        cdef bint flagged
        cdef Py_ssize_t index
        key_type = slot(fact, F_TYPE)
        verdict = self.verdict(name, key_type)
        self.keys += 1
        pattern = slot(verdict, V_PATTERN)
        counts = self.counts
        if pattern in counts:
            counts[pattern] += 1
            recorded = pattern
        else:
            recorded = self.patterns.add(pattern)
        flagged = slot(verdict, V_FLAGS)
        origin = slot(fact, F_ORIGIN)
        if slot(verdict, V_VIOLATIONS):
            self.sync()
            self.engine._count_name_violations(verdict, recorded, name, origin, None)
        checks = slot(verdict, V_CHECKS)
        if checks:
            template = slot(verdict, V_TEMPLATE)
            for index in range(len(checks)):
                check = checks[index]
                gate = check[3]
                if gate is not None and not passes(<tuple>gate, fact):
                    continue
                if check[4]:  # uniform: one verdict per template for every key past the gate
                    uniform = <dict>slot(verdict, V_UNIFORM)
                    if index in uniform:
                        resolved = uniform[index]
                    else:
                        resolved = uniform[index] = self.resolve(check, check[0](fact, template, check[2]))
                else:
                    resolved = self.resolve(check, check[0](fact, template, check[2]))
                if resolved is not None:
                    flagged = flagged or resolved.severity >= WARNING
                    self.count(resolved, recorded, name, origin)
        if flagged:
            by_pattern = self.flagged._by_pattern
            seen = by_pattern.get(recorded)
            if seen is None:
                self.flagged.add(recorded)
            else:
                self.flagged_keys += 1
                by_pattern[recorded] = seen + 1
        for gated in <tuple>slot(verdict, V_GATED):
            gate = (<tuple>gated)[1]
            if gate is None or passes(<tuple>gate, fact):
                (<tuple>gated)[2](fact, recorded)
        memory = slot(fact, F_MEMORY)
        if key_type is not None or slot(fact, F_TTL) is not None or memory is not None or slot(fact, F_LENGTH) is not None:
            engine = self.engine
            if engine._fields_left:
                engine._fields_left -= 1
                self.keyspace_collector.note_fields(fact)
            self.keyspace.add(fact, slot(slot(verdict, V_SCOPE), S_NAMESPACE), recorded)
        if self.slots is not None:
            self.slots.add(name, memory)


def consume(engine, facts):
    """`Engine.consume`: every fact to its path, concrete keys through `Feed.key`."""
    if not bound:
        bind()
    cdef dict handlers = engine._handlers()
    cdef Feed feed = Feed(engine)
    cdef bint keys = False
    kind = None
    handler = None
    try:
        for fact in facts:
            if type(fact) is not kind:
                kind = type(fact)
                found = handlers.get(kind)
                if found is None:
                    found = handlers[kind] = engine._handler_of(fact)
                handler = found
                keys = issubclass(kind, KeyFact)
            if keys:
                name = slot(fact, F_NAME)
                if type(name) is bytes:
                    feed.key(fact, <bytes>name)
                    continue
            feed.sync()
            feed = None  # the engine's own counts are the current ones while the handler runs
            handler(fact)
            feed = Feed(engine)  # the fact may have changed what the feed read (a sample rate, a server)
    finally:
        if feed is not None:
            feed.sync()
