"""The heaviest items of a stream in bounded memory: Space-Saving (Metwally, Agrawal, El Abbadi, "Efficient
computation of frequent and top-k elements in data streams", ICDT 2005), with weights.

A MONITOR sample can name millions of distinct keys; counting them all exactly would let the traffic decide
the tool's memory. `SpaceSaving(capacity)` keeps at most `capacity` counters whatever the stream: a new item
when all are taken replaces the item with the smallest count and inherits that count as its error.

Guarantees, with N the total weight added (`total`) and m the capacity (tested on Zipf streams and by
hypothesis against exact counts, tests/traffic/test_sketch.py):

* every tracked item's `count` is an upper bound of its true weight, and `count - error` a lower bound;
* `error <= floor <= N / m`, where `floor` is the smallest tracked count once all counters are taken (0
  before): the counts sum to N exactly, so the smallest is at most their mean;
* an item whose true weight is above `floor` is tracked, so every item above N / m is; an item that is not
  tracked weighs at most `floor`;
* the `k` first items of `top()` have the k largest counts; they are exactly the true top k when the
  smallest of their lower bounds is at least the (k+1)-th count and `floor` (`is_top_exact`).

Weights may be any non-negative numbers (the bytes of a command split over its keys); the bounds hold for
weighted streams as for counts (each step adds its weight to exactly one counter).

Cost: a dict from item to `[count, error]` and a min-heap of `(count, order, item)`, one entry per tracked
item. A tracked item's add only updates the dict, leaving its heap entry behind its count (a lower bound);
an eviction pops the heap's top and, when that entry is behind, pushes it again with the item's count
until the top is current, then evicts it. Every push of a behind entry follows at least one add of that
item since its last push, so an add costs O(1) amortised plus O(log m) per eviction. The figures of
the benchmark in tests/traffic/test_sketch.py's docstring are there.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Estimate(Generic[T]):
    """A tracked item's count (an upper bound of its true weight) and error: `count - error` is a lower bound."""

    item: T
    count: float
    error: float

    @property
    def lower(self) -> float:
        return self.count - self.error


class SpaceSaving(Generic[T]):
    """At most `capacity` counters; see the module docstring for what they guarantee."""

    __slots__ = ("_counts", "_heap", "_order", "capacity", "total")

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"a Space-Saving sketch needs at least one counter, not {capacity}")
        self.capacity = capacity
        self.total: float = 0
        self._counts: dict[T, list[float]] = {}  # item → [count, error]
        self._heap: list[tuple[float, int, T]] = []  # (count when pushed, order, item): one per tracked item
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._counts)

    def __contains__(self, item: object) -> bool:
        return item in self._counts

    def add(self, item: T, weight: float = 1) -> T | None:
        """Add `weight` to `item`; returns the item evicted to make room for it, if any (so that whatever a
        caller keeps beside a tracked item can go with it)."""
        if weight <= 0:
            if weight < 0:
                raise ValueError(f"a Space-Saving weight cannot be negative: {weight}")
            return None
        self.total += weight
        entry = self._counts.get(item)
        if entry is not None:
            entry[0] += weight
            return None
        if len(self._counts) < self.capacity:
            self._counts[item] = [weight, 0]
            heapq.heappush(self._heap, (weight, next(self._order), item))
            return None
        floor, evicted = self._settle()
        del self._counts[evicted]
        self._counts[item] = [floor + weight, floor]
        heapq.heapreplace(self._heap, (floor + weight, next(self._order), item))  # in the evicted one's place
        return evicted

    def _settle(self) -> tuple[float, T]:
        """The heap's top brought up to date: the smallest count and its item (the heap is not empty)."""
        heap, counts = self._heap, self._counts
        while True:
            pushed, order, item = heap[0]
            count = counts[item][0]
            if count == pushed:
                return count, item
            heapq.heapreplace(heap, (count, order, item))  # behind its count: put it back where it belongs

    @property
    def floor(self) -> float:
        """The most an untracked item can weigh: the smallest count when every counter is taken, else 0."""
        if len(self._counts) < self.capacity:
            return 0
        return self._settle()[0]

    def estimate(self, item: T) -> Estimate[T] | None:
        """The item's count and error when it is tracked (else its weight is at most `floor`)."""
        entry = self._counts.get(item)
        return None if entry is None else Estimate(item, entry[0], entry[1])

    def top(self, k: int | None = None) -> list[Estimate[T]]:
        """The `k` largest counts (all when None), largest first; ties by smaller error, then first tracked."""
        ranked = sorted(self._counts.items(), key=lambda pair: (-pair[1][0], pair[1][1]))
        if k is not None:
            ranked = ranked[:k]
        return [Estimate(item, entry[0], entry[1]) for item, entry in ranked]

    def is_top_exact(self, k: int) -> bool:
        """Whether `top(k)` holds exactly the k items of largest true weight (the items, not their order):
        each of their lower bounds is at least every other count, and at least `floor` for untracked items."""
        ranked = self.top(k + 1)
        if len(ranked) < k:
            return len(self._counts) < self.capacity  # fewer items than k, and all of them tracked
        if k == 0:
            return True
        rest = max(ranked[k].count if len(ranked) > k else 0, self.floor)
        return min(estimate.lower for estimate in ranked[:k]) >= rest
