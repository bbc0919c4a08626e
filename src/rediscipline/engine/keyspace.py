"""Fold probed key facts into bounded keyspace statistics (the report's summary and charts).

Everything here is O(1) per key and bounded in memory: per-type and per-bucket counters, a namespace table
capped at NAMESPACE_CAP entries (the rest goes to `<other>`), two top-K heaps, and two fixed tables indexed
by one integer operation: the key-size histogram (by `memory.bit_length()`) and the expiry timeline (by the
TTL's minute).

Collectors of several parts of a run (dumps, nodes) merge (`KeyspaceCollector.merge`) into what one collector
fed every key gives: counters, sums and the fixed tables (integers, so exact) add up, and the top-K heaps keep
the K heaviest of both under one total order (weight, then the smallest db and name, then the key's other
fields), so they are exact. The namespace table is exact while the parts' namespaces together stay within
NAMESPACE_CAP; beyond, the namespaces with the most keys are kept and the rest counted as `<other>`.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

from rediscipline.engine.keyspace_tables import (
    SIZE_BUCKETS,
    TIMELINE_END_MINUTE,
    TTL_LABEL_BY_HOUR,
    TTL_LABEL_BY_MINUTE,
    TTL_LABEL_LATER,
    added,
    expiry_timeline,
    size_buckets,
)
from rediscipline.engine.pattern_stats import PatternStats
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyspace import (
    MINUTE_MS,
    NO_EXPIRY,
    TIMELINE_HOURS,
    TIMELINE_SECONDS,
    TTL_BUCKETS,
    Bucket,
    Estimate,
    KeyspaceStats,
    Sampling,
    TopKey,
    TypeStat,
    namespace_of,
)

NAMESPACE_CAP = 2_000
OTHER = "<other>"
TOP_KEYS = 20
Z95 = 1.959964


class _Ranked:
    """A top key that sorts backwards by (db, name, its other fields): in a min-heap of (weight, _Ranked) the
    entry evicted first among equal weights is the largest name, and a reverse sort lists equal weights by
    ascending name. The other fields break the remaining ties (the same key in two dumps of one server,
    written at different times, differs in its TTL), so two entries are equal only when they are the same."""

    __slots__ = ("key", "order", "top")

    def __init__(self, top: TopKey) -> None:
        self.top = top
        self.key = (top.db or 0, top.name)
        self.order = (
            *self.key,
            top.type or "",
            _number(top.memory),
            _number(top.length),
            _number(top.ttl_ms),
            top.encoding or "",
        )

    def __lt__(self, other: _Ranked) -> bool:
        return self.order > other.order

    def __le__(self, other: _Ranked) -> bool:
        return self.order >= other.order

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Ranked) and self.order == other.order

    def __hash__(self) -> int:
        return hash(self.order)


def _number(value: int | None) -> int:
    """An optional field as a number that sorts below every value it can take (TTLs go down to -2)."""
    return -3 if value is None else value


@dataclass(slots=True)
class _Counter:
    keys: int = 0
    memory: int = 0
    elements: int = 0
    with_ttl: int = 0


class KeyspaceCollector:
    def __init__(self, top: int = TOP_KEYS) -> None:
        self.top = top
        self.keys = 0
        self.memory = 0
        self.with_ttl = 0
        self.memory_with_ttl = 0
        self.skipped = 0
        # keyed by label; None stands for "not probed" until `finish` names it
        self._types: dict[str | None, _Counter] = {}
        self._dbs: dict[Any, _Counter] = {}
        self._namespace_cache: dict[bytes, str] = {}
        self._namespace_seen: set[str] = set()
        #: (type, encoding, db, TTL bucket, namespace) → [keys, memory, elements, keys with a TTL]
        self._combinations: dict[tuple[Any, ...], list[int]] = {}
        self._ttl: dict[Any, _Counter] = {}
        self._namespaces: dict[Any, _Counter] = {}
        self._encodings: dict[Any, _Counter] = {}
        self._by_memory: list[tuple[int, _Ranked]] = []
        self._by_length: list[tuple[int, _Ranked]] = []
        self._sum_memory_sq = 0
        self._persistent_keys = 0
        self._persistent_memory = 0
        self._persistent_memory_sq = 0
        self._sample: tuple[float, int] | None = None
        self._measured: frozenset[str] = frozenset()  # the summary's fields keys carry (see `note_fields`)
        self.patterns = PatternStats()
        self._size_keys = [0] * SIZE_BUCKETS  # by memory.bit_length()
        self._size_memory = [0] * SIZE_BUCKETS
        self._per_second = [0] * TIMELINE_SECONDS  # keys with a TTL under 24 h, by its second
        #: keys with a TTL of 24 h to 30 d, by its hour; hours 0–23 stay 0 until `finish` sums them from minutes
        self._per_hour = [0] * TIMELINE_HOURS
        self._expire_later = 0

    def set_sampling(self, rate: float, population: int) -> None:
        self._sample = (rate, population)

    @property
    def sample_rate(self) -> float | None:
        """The rate keys were sampled at (None: every key was read)."""
        return self._sample[0] if self._sample is not None else None

    def add(self, fact: KeyFact, namespace: str | None, pattern: bytes) -> None:
        """Count one probed key; `namespace` is its declared namespace, else derived from its `pattern`.

        Every table (type, encoding, db, TTL bucket, namespace) is folded at `finish` from one counter per
        combination of them: one dict lookup per key instead of five, on the path every key of a dump takes.
        """
        memory = fact.memory
        if memory is None:
            memory = 0
        else:
            size = memory.bit_length()
            try:
                self._size_keys[size] += 1
            except IndexError:
                self._grow_sizes(size + 1)
                self._size_keys[size] += 1
            self._size_memory[size] += memory
        length = fact.length or 0
        ttl = fact.ttl_ms
        if ttl is not None and ttl >= 0:
            has_ttl = True
            second = ttl // 1000
            if second < TIMELINE_SECONDS:
                self._per_second[second] += 1
                bucket = TTL_LABEL_BY_MINUTE[second // 60]  # the TTL histogram's bounds are whole minutes
            elif (minute := ttl // MINUTE_MS) < TIMELINE_END_MINUTE:
                hour = minute // 60
                self._per_hour[hour] += 1
                bucket = TTL_LABEL_BY_HOUR[hour]
            else:
                self._expire_later += 1
                bucket = TTL_LABEL_LATER
        else:
            has_ttl = False
            bucket = NO_EXPIRY if ttl == -1 else "?"
        self.keys += 1
        if self._sample is not None:  # what only the estimates of a sampled scan need (it is set before keys)
            if memory:
                self._sum_memory_sq += memory * memory
            if not has_ttl and ttl is not None:
                self._persistent_keys += 1
                self._persistent_memory += memory
                self._persistent_memory_sq += memory * memory
        if namespace is None:
            namespace = self._namespace_cache.get(pattern)
            if namespace is None:
                namespace = namespace_of(pattern)
                if namespace not in self._namespace_seen:
                    if len(self._namespace_seen) >= NAMESPACE_CAP:
                        namespace = OTHER
                    self._namespace_seen.add(namespace)
                if len(self._namespace_cache) < NAMESPACE_CAP * 4:
                    self._namespace_cache[pattern] = namespace
        combination = (fact.type, fact.encoding, fact.db, bucket, namespace)
        counter = self._combinations.get(combination)
        if counter is None:
            counter = self._combinations[combination] = [0, 0, 0, 0]
        counter[0] += 1
        counter[1] += memory
        counter[2] += length
        counter[3] += has_ttl
        self.patterns.add(pattern, fact.type, memory, has_ttl)
        if memory and (len(self._by_memory) < self.top or memory >= self._by_memory[0][0]):
            self._push(self._by_memory, memory, fact)
        if length and fact.type != "string" and (len(self._by_length) < self.top or length >= self._by_length[0][0]):
            self._push(self._by_length, length, fact)

    def _grow_sizes(self, buckets: int) -> None:
        """Make room for `buckets` key-size buckets (only a memory of 2^64 bytes or more needs more than 65)."""
        for table in (self._size_keys, self._size_memory):
            table.extend([0] * (buckets - len(table)))

    def memory_so_far(self) -> int | None:
        """The memory of the keys counted so far, before `finish` (None when no key carried its memory)."""
        if "memory" not in self._measured:
            return None
        return sum(counter[1] for counter in self._combinations.values())

    @property
    def measured(self) -> frozenset[str]:
        """The summary's fields the probed keys carried (empty when no key was probed)."""
        return self._measured

    def note_fields(self, fact: KeyFact) -> None:
        """Record which summary fields a key carries. A source fills the same fields for every key it probes
        (what its plan asked for, or everything a dump holds), so the engine shows it a few keys, not all."""
        values = {"type": fact.type, "ttl": fact.ttl_ms, "memory": fact.memory, "length": fact.length}
        self._measured |= {name for name, value in values.items() if value is not None}

    def _fold(self) -> None:
        """Turn the per-combination counters into the per-dimension tables the report shows."""
        tables = (self._types, self._encodings, self._dbs, self._ttl, self._namespaces)
        for combination, (keys, memory, elements, with_ttl) in self._combinations.items():
            self.memory += memory
            if with_ttl:  # the TTL bucket is part of the combination: all of its keys have a TTL, or none
                self.with_ttl += with_ttl
                self.memory_with_ttl += memory
            for table, label in zip(tables, combination, strict=True):
                counter = table.get(label)
                if counter is None:
                    counter = table[label] = _Counter()
                counter.keys += keys
                counter.memory += memory
                counter.elements += elements
                counter.with_ttl += with_ttl
        self._combinations.clear()

    def _push(self, heap: list[tuple[int, _Ranked]], weight: int, fact: KeyFact) -> None:
        """Keep the `top` heaviest keys; among equal weights the smallest (db, name), whatever the arrival
        order, so that files parsed in parallel give the same report as one after the other."""
        assert isinstance(fact.name, bytes)
        if len(heap) >= self.top:
            lowest, ranked = heap[0]
            if weight == lowest and (fact.db or 0, fact.name) > ranked.key:
                return  # ranks below the lowest kept: decided before building anything
        top = TopKey(fact.name, fact.db, fact.type, fact.memory, fact.length, fact.ttl_ms, fact.encoding)
        _offer(heap, self.top, (weight, _Ranked(top)))

    def merge(self, other: KeyspaceCollector) -> None:
        """Fold another part's collector (same `top`, not finished) into this one; `other` is spent."""
        self._sample = _merged_sampling(self, other)
        self.keys += other.keys
        self.skipped += other.skipped
        self._sum_memory_sq += other._sum_memory_sq
        self._persistent_keys += other._persistent_keys
        self._persistent_memory += other._persistent_memory
        self._persistent_memory_sq += other._persistent_memory_sq
        self._measured |= other._measured
        self.patterns.merge(other.patterns)
        combinations = self._combinations
        for combination, (keys, memory, elements, with_ttl) in other._combinations.items():
            counter = combinations.get(combination)
            if counter is None:
                combinations[combination] = [keys, memory, elements, with_ttl]
            else:
                counter[0] += keys
                counter[1] += memory
                counter[2] += elements
                counter[3] += with_ttl
        self._namespace_seen |= other._namespace_seen
        self._namespace_cache.clear()
        if len(self._namespace_seen) > NAMESPACE_CAP:
            self._cap_namespaces()
        for entry in other._by_memory:
            _offer(self._by_memory, self.top, entry)
        for entry in other._by_length:
            _offer(self._by_length, self.top, entry)
        self._size_keys = added(self._size_keys, other._size_keys)
        self._size_memory = added(self._size_memory, other._size_memory)
        self._per_second = added(self._per_second, other._per_second)
        self._per_hour = added(self._per_hour, other._per_hour)
        self._expire_later += other._expire_later

    def _cap_namespaces(self) -> None:
        """Keep the NAMESPACE_CAP derived namespaces with the most keys (then the smallest labels); count the
        others as `<other>`."""
        keys: dict[str, int] = {}
        for combination, counter in self._combinations.items():
            if combination[4] in self._namespace_seen:
                keys[combination[4]] = keys.get(combination[4], 0) + counter[0]
        ranked = sorted(keys, key=lambda label: (label == OTHER, -keys[label], label))
        dropped = set(ranked[NAMESPACE_CAP:]) - {OTHER}
        folded: dict[tuple[Any, ...], list[int]] = {}
        for combination, counter in self._combinations.items():
            label = OTHER if combination[4] in dropped else combination[4]
            target = (*combination[:4], label)
            into = folded.get(target)
            if into is None:
                folded[target] = counter
            else:
                for index, value in enumerate(counter):
                    into[index] += value
        self._combinations = folded
        self._namespace_seen -= dropped
        self._namespace_seen.add(OTHER)

    def finish(self) -> KeyspaceStats:
        self._fold()

        def buckets(table: dict[Any, _Counter], order: list[str] | None = None) -> tuple[Bucket, ...]:
            if order is None:
                order = sorted(table, key=lambda k: (k == OTHER, -table[k].memory, -table[k].keys, k))
            labels = order
            return tuple(Bucket(label, table[label].keys, table[label].memory) for label in labels if label in table)

        ttl_order = [NO_EXPIRY, *(label for label, _ in TTL_BUCKETS)]
        return KeyspaceStats(
            keys=self.keys,
            memory=self.memory,
            with_ttl=self.with_ttl,
            memory_with_ttl=self.memory_with_ttl,
            by_type=tuple(
                TypeStat(name or "?", c.keys, c.memory, c.elements, c.with_ttl)
                for name, c in sorted(
                    self._types.items(), key=lambda item: (-item[1].memory, -item[1].keys, item[0] or "")
                )
            ),
            by_db=tuple(
                Bucket(str(db or 0), c.keys, c.memory) for db, c in sorted(self._dbs.items(), key=lambda i: i[0] or 0)
            ),
            ttl_histogram=buckets(self._ttl, ttl_order),
            namespaces=buckets(self._namespaces),
            encodings=buckets({k or "?": v for k, v in self._encodings.items()}),
            top_by_memory=tuple(entry[1].top for entry in sorted(self._by_memory, reverse=True)),
            top_by_length=tuple(entry[1].top for entry in sorted(self._by_length, reverse=True)),
            skipped=self.skipped,
            sampling=self._sampling(),
            size_buckets=size_buckets(self._size_keys, self._size_memory),
            expiry=expiry_timeline(self._per_second, self._per_hour, self._expire_later)
            if "ttl" in self._measured
            else None,
            measured=self._measured,
        )

    def _sampling(self) -> Sampling | None:
        """Horvitz–Thompson estimates for Bernoulli sampling with known rate p: total = Σx/p, var = (1-p)/p² Σx²."""
        if self._sample is None:
            return None
        rate, population = self._sample
        estimates = (
            _estimate("memory", self.memory, self._sum_memory_sq, rate),
            _estimate("keys without ttl", self._persistent_keys, self._persistent_keys, rate),
            _estimate("memory without ttl", self._persistent_memory, self._persistent_memory_sq, rate),
        )
        return Sampling(rate, population, self.keys, estimates)


def _offer(heap: list[tuple[int, _Ranked]], top: int, entry: tuple[int, _Ranked]) -> None:
    """Put `entry` in a min-heap of the `top` greatest entries, if it belongs there."""
    if len(heap) < top:
        heapq.heappush(heap, entry)
    elif entry > heap[0]:
        heapq.heapreplace(heap, entry)


def _merged_sampling(mine: KeyspaceCollector, other: KeyspaceCollector) -> tuple[float, int] | None:
    """Parts sampled at one rate merge (their populations add up); parts sampled at different rates, or a
    sampled part and a part with keys that was read whole, cannot make one estimate."""
    if mine._sample is None or other._sample is None:
        sampled, whole = (mine, other) if mine._sample is not None else (other, mine)
        if sampled._sample is not None and whole.keys:
            raise ValueError("a sampled part and a part read whole do not merge")
        return sampled._sample
    if mine._sample[0] != other._sample[0]:
        raise ValueError(f"parts sampled at different rates ({mine._sample[0]} and {other._sample[0]}) do not merge")
    return (mine._sample[0], mine._sample[1] + other._sample[1])


def _estimate(name: str, total: float, sum_sq: float, rate: float) -> Estimate:
    value = total / rate
    half = Z95 * math.sqrt(max(sum_sq * (1 - rate), 0.0)) / rate
    return Estimate(name, value, max(value - half, 0.0), value + half)


def count_estimate(count: int, rate: float) -> tuple[float, float, float]:
    """Estimated number of keys in the population given `count` hits in a Bernoulli sample of rate p."""
    value = count / rate
    half = Z95 * math.sqrt(count * (1 - rate)) / rate
    return (value, max(value - half, float(count)), value + half)
