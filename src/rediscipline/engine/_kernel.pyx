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

CYTHON_VERSION = cython.__version__

# What the per-key path reads from the pure modules, bound on the first `consume` (`bind`): importing this
# module stays as light as `rediscipline --version` needs it to be.
cdef bint bound = False
cdef object WARNING, TTL_LABEL_LATER, NAMESPACE_CAP, OTHER, KeyFact, DATE_PREFIXES, DIGITS_TO_ZERO
cdef object NO_EXPIRY, namespace_of
cdef long long MINUTE, MINUTES, END_MINUTE
cdef tuple BY_MINUTE, BY_HOUR


cdef void bind() except *:
    global bound, WARNING, TTL_LABEL_LATER, NAMESPACE_CAP, OTHER, KeyFact, DATE_PREFIXES, DIGITS_TO_ZERO
    global NO_EXPIRY, namespace_of, MINUTE, MINUTES, END_MINUTE, BY_MINUTE, BY_HOUR
    from rediscipline.engine import keyspace, keyspace_tables
    from rediscipline.model import facts, keypattern
    from rediscipline.model import keyspace as keyspace_model
    from rediscipline.model.severity import Severity

    WARNING = Severity.WARNING
    TTL_LABEL_LATER = keyspace_tables.TTL_LABEL_LATER
    NAMESPACE_CAP, OTHER = keyspace.NAMESPACE_CAP, keyspace.OTHER
    KeyFact = facts.KeyFact
    DATE_PREFIXES, DIGITS_TO_ZERO = keypattern.DATE_PREFIXES, keypattern.DIGITS_TO_ZERO
    NO_EXPIRY, namespace_of = keyspace_model.NO_EXPIRY, keyspace_model.namespace_of
    MINUTE, MINUTES = keyspace_model.MINUTE_MS, keyspace_model.TIMELINE_MINUTES
    END_MINUTE = keyspace_tables.TIMELINE_END_MINUTE
    BY_MINUTE, BY_HOUR = keyspace_tables.TTL_LABEL_BY_MINUTE, keyspace_tables.TTL_LABEL_BY_HOUR
    bound = True


cdef bint passes(tuple gate, object fact):
    """Whether a key passes a compiled gate (`Gate.compiled`): some clause with every condition true."""
    cdef tuple clause, condition
    cdef int op
    for clause in gate:
        for condition in clause:
            value = getattr(fact, <str>condition[0])
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
            elif not (type(value) is bytes and (<bytes>value).startswith(operand)):
                break
        else:
            return True
    return False


cdef class Keyspace:
    """`KeyspaceCollector.add` over the collector's own tables (read once per `consume`)."""

    cdef object collector
    cdef list size_keys, size_memory, per_minute, per_hour
    cdef dict combinations, namespace_cache, pattern_rows
    cdef set namespace_seen
    cdef list by_memory, by_length
    cdef int top
    cdef bint sampled

    def __init__(self, collector):
        self.collector = collector
        self.size_keys = collector._size_keys
        self.size_memory = collector._size_memory
        self.per_minute = collector._per_minute
        self.per_hour = collector._per_hour
        self.combinations = collector._combinations
        self.namespace_cache = collector._namespace_cache
        self.namespace_seen = collector._namespace_seen
        self.pattern_rows = collector.patterns.rows
        self.by_memory = collector._by_memory
        self.by_length = collector._by_length
        self.top = collector.top
        self.sampled = collector._sample is not None

    cdef void add(self, object fact, object namespace, bytes pattern) except *:
        cdef Py_ssize_t size
        cdef long long minute
        cdef bint has_ttl
        cdef list counter, row
        collector = self.collector
        memory = fact.memory
        if memory is None:
            memory = 0
        else:
            size = memory.bit_length()
            if size >= len(self.size_keys):
                collector._grow_sizes(size + 1)
            self.size_keys[size] += 1
            self.size_memory[size] += memory
        length = fact.length or 0
        ttl = fact.ttl_ms
        if ttl is not None and ttl >= 0:
            has_ttl = True
            minute = ttl // MINUTE if ttl < 2 ** 62 else END_MINUTE
            if minute < MINUTES:
                self.per_minute[minute] += 1
                bucket = BY_MINUTE[minute]
            elif minute < END_MINUTE:
                self.per_hour[minute // 60] += 1
                bucket = BY_HOUR[minute // 60]
            else:
                collector._expire_later += 1
                bucket = TTL_LABEL_LATER
        else:
            has_ttl = False
            bucket = NO_EXPIRY if ttl == -1 else "?"
        collector.keys += 1
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
        key_type = fact.type
        combination = (key_type, fact.encoding, fact.db, bucket, namespace)
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
    """The engine's per-key state, read once per `consume`."""

    cdef object engine, patterns, flagged, groups, slots, keyspace_collector
    cdef Keyspace keyspace
    cdef dict fast, counts, resolved, group_dict
    cdef bint scoped
    cdef Py_ssize_t examples

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

    cdef void count(self, object resolved, bytes pattern, bytes name, object origin, object rank) except *:
        """`Groups.add`: one key of `pattern` shows `resolved`; a group whose examples are full only counts."""
        group = self.group_dict.get((resolved.rule_id, resolved.code, pattern))
        if group is None or len(group.examples) < self.examples:
            self.groups.add(resolved, pattern, name, origin, rank)
            return
        group.count += 1
        value = resolved.value
        if value is not None:
            worst = group.worst
            if worst is None or value > worst:
                group.worst = value
                group.violation = resolved
                group.worst_rank = rank

    cdef void key(self, object fact, bytes name) except *:
        """`Engine.feed` for a key with a concrete name."""
        cdef tuple check
        cdef bint flagged
        engine = self.engine
        key_type = fact.type
        verdict = self.verdict(name, key_type)
        engine.keys += 1
        pattern = verdict.pattern
        counts = self.counts
        if pattern in counts:
            counts[pattern] += 1
            recorded = pattern
        else:
            recorded = self.patterns.add(pattern)
        flagged = verdict.flags
        origin = fact.origin
        if verdict.violations:
            engine._count_name_violations(verdict, recorded, name, origin, None)
        checks = verdict.fact_checks
        if checks:
            template = verdict.template
            for check in checks:
                gate = check[3]
                if gate is not None and not passes(<tuple>gate, fact):
                    continue
                found = check[0](fact, template, check[2])
                if found is not None:
                    cached = self.resolved.get(id(found))
                    if cached is not None and (<tuple>cached)[0] is found and (<tuple>cached)[1] is check[2]:
                        resolved = (<tuple>cached)[2]
                    else:
                        resolved = engine.resolve_found(check[1], check[2], found)
                    flagged = flagged or resolved.severity >= WARNING
                    self.count(resolved, recorded, name, origin, engine.keys)
        if flagged:
            flagged_keys = self.flagged
            by_pattern = flagged_keys._by_pattern
            seen = by_pattern.get(recorded)
            if seen is None:
                flagged_keys.add(recorded)
            else:
                flagged_keys.keys += 1
                by_pattern[recorded] = seen + 1
        for gated in verdict.gated_accumulators:
            gate = (<tuple>gated)[1]
            if gate is None or passes(<tuple>gate, fact):
                (<tuple>gated)[0].add(fact, recorded)
        if key_type is not None or fact.ttl_ms is not None or fact.memory is not None or fact.length is not None:
            if engine._fields_left:
                engine._fields_left -= 1
                self.keyspace_collector.note_fields(fact)
            self.keyspace.add(fact, verdict.scope.namespace, recorded)
        if self.slots is not None:
            self.slots.add(name, fact.memory)


def consume(engine, facts):
    """`Engine.consume`: every fact to its path, concrete keys through `Feed.key`."""
    if not bound:
        bind()
    cdef dict handlers = engine._handlers()
    cdef Feed feed = Feed(engine)
    cdef bint keys = False
    kind = None
    handler = None
    for fact in facts:
        if type(fact) is not kind:
            kind = type(fact)
            found = handlers.get(kind)
            if found is None:
                found = handlers[kind] = engine._handler_of(fact)
            handler = found
            keys = issubclass(kind, KeyFact)
        if keys:
            name = (<object>fact).name
            if type(name) is bytes:
                feed.key(fact, <bytes>name)
                continue
        handler(fact)
        feed = Feed(engine)  # the fact may have changed what the feed read (a sample rate, a server)
