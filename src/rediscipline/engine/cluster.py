"""Keys and memory per hash slot and per hashtag, for a scan of a cluster's shards; and the cluster view the
run ends with.

A run over a cluster gives each shard an engine of its own (a part); each counts the keys it reads into the
16,384 slots (keys and memory) and into a bounded table of hashtags. Slot counters add up exactly when parts
merge; the hashtag table keeps the heaviest tags (`prune_table`: a tag dropped from a full table and seen
again counts from zero, so a merged table may undercount a tag, never overcount it). At the end the source's
`ClusterView` (its shards, with their keys and memory) gets the busiest slots and the biggest hashtags.
"""

from __future__ import annotations

import bisect
import heapq
from array import array
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TypeVar

from rediscipline.model.cluster import CLUSTER_SLOTS, SLOTS_KEPT, ClusterView, HashtagStat, SlotStat
from rediscipline.redis_meta.keyslot import hash_slot, hashtag_of
from rediscipline.rules.base import merge_table, prune_table

#: Hashtags a part tracks before the lightest are dropped.
HASHTAG_CAP = 10_000
#: Slots and hashtags the view keeps, by keys and by memory each.
VIEW_TOP = SLOTS_KEPT
T = TypeVar("T")


class SlotCollector:
    """Keys and memory per slot, and per hashtag `[keys, memory, slot]`, of the keys one part read."""

    __slots__ = ("keys", "measured", "memory", "tags")

    def __init__(self) -> None:
        self.keys = array("q", bytes(8 * CLUSTER_SLOTS))
        self.memory = array("q", bytes(8 * CLUSTER_SLOTS))
        self.tags: dict[bytes, list[int]] = {}
        self.measured = False  # some key carried its memory

    def add(self, name: bytes, memory: int | None) -> None:
        tag = hashtag_of(name) if b"{" in name else None
        slot = hash_slot(name if tag is None else tag)
        self.keys[slot] += 1
        if memory is not None:
            self.measured = True
            self.memory[slot] += memory
        if tag is not None:
            entry = self.tags.get(tag)
            if entry is None:
                if len(self.tags) >= HASHTAG_CAP:
                    prune_table(self.tags, _tag_keys)
                entry = self.tags[tag] = [0, 0, slot]
            entry[0] += 1
            entry[1] += memory or 0

    def merge(self, other: SlotCollector) -> None:
        """Fold another part's counts into these; `other` is spent."""
        keys, memory = self.keys, self.memory
        for slot, count in enumerate(other.keys):
            if count:
                keys[slot] += count
                memory[slot] += other.memory[slot]
        self.measured = self.measured or other.measured
        merge_table(self.tags, other.tags, HASHTAG_CAP, _tag_keys, _combine)

    def complete(self, view: ClusterView) -> ClusterView:
        """`view` with the busiest slots and biggest hashtags of what was read; slots the server counted
        itself (CLUSTER SLOT-STATS) keep its key counts and figures and gain their memory."""
        starts, owners = _slot_owners(view)
        measured = self.measured

        def shard_of(slot: int) -> int | None:
            at = bisect.bisect_right(starts, slot) - 1
            if at < 0:
                return None
            first_last, shard = owners[at]
            return shard if first_last[0] <= slot <= first_last[1] else None

        given = {stat.slot: stat for stat in view.slots}
        chosen = set(_top(range(CLUSTER_SLOTS), lambda slot: self.keys[slot]))
        if measured:
            chosen |= set(_top(range(CLUSTER_SLOTS), lambda slot: self.memory[slot]))
        slots: list[SlotStat] = []
        for slot in sorted(chosen | set(given)):
            known = given.get(slot)
            memory = self.memory[slot] if measured else None
            if known is not None:
                slots.append(replace(known, memory=memory if memory is not None else known.memory))
            elif self.keys[slot]:
                slots.append(SlotStat(slot, shard_of(slot), self.keys[slot], memory))
        tags = list(_top(self.tags, lambda tag: self.tags[tag][0]))
        if measured:
            tags += [tag for tag in _top(self.tags, lambda tag: self.tags[tag][1]) if tag not in tags]
        hashtags = tuple(
            HashtagStat(tag, self.tags[tag][2], shard_of(self.tags[tag][2]), self.tags[tag][0],
                        self.tags[tag][1] if measured else None)
            for tag in sorted(tags, key=lambda tag: (-self.tags[tag][0], tag))
        )  # fmt: skip
        return replace(view, slots=tuple(slots), hashtags=hashtags)


def _slot_owners(view: ClusterView) -> tuple[list[int], list[tuple[tuple[int, int], int]]]:
    ranges = sorted((slot_range, index) for index, shard in enumerate(view.shards) for slot_range in shard.slots)
    return [slot_range[0] for slot_range, _index in ranges], ranges


def _top(items: Iterable[T], weight: Callable[[T], int]) -> list[T]:
    """The VIEW_TOP heaviest items of non-zero weight, heaviest first."""
    return [item for item in heapq.nlargest(VIEW_TOP, items, key=weight) if weight(item)]


def _tag_keys(entry: list[int]) -> int:
    return entry[0]


def _combine(mine: list[int], theirs: list[int]) -> None:
    mine[0] += theirs[0]
    mine[1] += theirs[1]


__all__ = ["HASHTAG_CAP", "VIEW_TOP", "SlotCollector"]
