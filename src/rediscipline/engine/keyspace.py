"""Fold probed key facts into bounded keyspace statistics (the report's summary and charts).

Everything here is O(1) per key and bounded in memory: per-type and per-bucket counters, a namespace table
capped at NAMESPACE_CAP entries (the rest goes to `<other>`), and two top-K heaps.
"""

from __future__ import annotations

import bisect
import heapq
import math
from dataclasses import dataclass
from typing import Any

from rediscipline.model.facts import KeyFact
from rediscipline.model.keyspace import (
    NO_EXPIRY,
    TTL_BUCKETS,
    Bucket,
    Estimate,
    KeyspaceStats,
    Sampling,
    TopKey,
    TypeStat,
)

NAMESPACE_CAP = 2_000
OTHER = "<other>"
NO_NAMESPACE = "<no namespace>"
TOP_KEYS = 20
Z95 = 1.959964


class _Descending:
    """A (db, name) that sorts backwards: in a min-heap of (weight, _Descending) the entry evicted first among
    equal weights is the largest name, and a reverse sort lists equal weights by ascending name."""

    __slots__ = ("db", "name")

    def __init__(self, db: int, name: bytes) -> None:
        self.db, self.name = db, name

    def __lt__(self, other: _Descending) -> bool:
        return (self.db, self.name) > (other.db, other.name)

    def __le__(self, other: _Descending) -> bool:
        return (self.db, self.name) >= (other.db, other.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and (self.db, self.name) == (other.db, other.name)

    def __hash__(self) -> int:
        return hash((self.db, self.name))


@dataclass(slots=True)
class _Counter:
    keys: int = 0
    memory: int = 0
    elements: int = 0
    with_ttl: int = 0


def namespace_of(name: bytes) -> str:
    """The first `:` level of a key or pattern, as `user:*`; names without `:` are `<no namespace>`."""
    head, sep, _rest = name.partition(b":")
    if not sep:
        return NO_NAMESPACE
    return head.decode("utf-8", "backslashreplace") + ":*"


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
        self._by_memory: list[tuple[int, _Descending, TopKey]] = []
        self._by_length: list[tuple[int, _Descending, TopKey]] = []
        self._sum_memory_sq = 0.0
        self._persistent_keys = 0
        self._persistent_memory = 0
        self._persistent_memory_sq = 0.0
        self._sample: tuple[float, int] | None = None
        self._measured: frozenset[str] = frozenset()  # the summary's fields keys carry (see `note_fields`)

    def set_sampling(self, rate: float, population: int) -> None:
        self._sample = (rate, population)

    def add(self, fact: KeyFact, namespace: str | None, pattern: bytes) -> None:
        """Count one probed key; `namespace` is its declared namespace, else derived from its `pattern`.

        Every table (type, encoding, db, TTL bucket, namespace) is folded at `finish` from one counter per
        combination of them: one dict lookup per key instead of five, on the path every key of a dump takes.
        """
        memory = fact.memory or 0
        length = fact.length or 0
        ttl = fact.ttl_ms
        has_ttl = ttl is not None and ttl >= 0
        self.keys += 1
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
        bucket = NO_EXPIRY if ttl == -1 else _ttl_bucket(ttl)
        combination = (fact.type, fact.encoding, fact.db, bucket, namespace)
        counter = self._combinations.get(combination)
        if counter is None:
            counter = self._combinations[combination] = [0, 0, 0, 0]
        counter[0] += 1
        counter[1] += memory
        counter[2] += length
        counter[3] += has_ttl
        if memory and (len(self._by_memory) < self.top or memory >= self._by_memory[0][0]):
            self._push(self._by_memory, memory, fact)
        if length and fact.type != "string" and (len(self._by_length) < self.top or length >= self._by_length[0][0]):
            self._push(self._by_length, length, fact)

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

    def _push(self, heap: list[tuple[int, _Descending, TopKey]], weight: int, fact: KeyFact) -> None:
        """Keep the `top` heaviest keys; among equal weights the smallest (db, name), whatever the arrival
        order, so that files parsed in parallel give the same report as one after the other."""
        assert isinstance(fact.name, bytes)
        order = _Descending(fact.db or 0, fact.name)
        if len(heap) >= self.top and (weight, order) <= heap[0][:2]:
            return
        top = TopKey(fact.name, fact.db, fact.type, fact.memory, fact.length, fact.ttl_ms, fact.encoding)
        entry = (weight, order, top)
        if len(heap) < self.top:
            heapq.heappush(heap, entry)
        else:
            heapq.heapreplace(heap, entry)

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
            top_by_memory=tuple(entry[2] for entry in sorted(self._by_memory, reverse=True)),
            top_by_length=tuple(entry[2] for entry in sorted(self._by_length, reverse=True)),
            skipped=self.skipped,
            sampling=self._sampling(),
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


def _estimate(name: str, total: float, sum_sq: float, rate: float) -> Estimate:
    value = total / rate
    half = Z95 * math.sqrt(max(sum_sq * (1 - rate), 0.0)) / rate
    return Estimate(name, value, max(value - half, 0.0), value + half)


def count_estimate(count: int, rate: float) -> tuple[float, float, float]:
    """Estimated number of keys in the population given `count` hits in a Bernoulli sample of rate p."""
    value = count / rate
    half = Z95 * math.sqrt(count * (1 - rate)) / rate
    return (value, max(value - half, float(count)), value + half)


def _ttl_bucket(ttl_ms: int | None) -> str:
    if ttl_ms is None or ttl_ms < 0:
        return NO_EXPIRY if ttl_ms == -1 else "?"
    index = bisect.bisect_right(_TTL_UPPER_MS, ttl_ms)
    return _TTL_LABELS[min(index, len(_TTL_LABELS) - 1)]


_TTL_LABELS = tuple(label for label, _upper in TTL_BUCKETS)
_TTL_UPPER_MS = tuple(upper * 1000 for _label, upper in TTL_BUCKETS)
