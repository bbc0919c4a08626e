"""Hot keys from the server's own access counters: `OBJECT FREQ` under an LFU eviction policy.

Before the window, a walk over the keyspace (SCAN, with `OBJECT FREQ` of each key pipelined in the same
round trip) keeps the keys with the highest LFU counters; after it, their counters are read again. The
counter is logarithmic and probabilistic (`model.traffic.hits_between`), so its growth over the window stands
for an estimated number of accesses: a rate with a wide error for keys whose counter moved by a few steps,
and a lower bound for one at the ceiling. `OBJECT FREQ` does not count as an access and is O(1); the walk
is bounded (`max_keys`): on a larger keyspace the keys read are SCAN's order, a spread over the whole
hash table, and the report says how many were read.

The walk runs before the first snapshot and the second reading after the last one, so neither is counted in
the window's traffic.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rediscipline.model.traffic import LFU_MAX, SOURCE_OBJECT_FREQ, HotKey, hits_between
from rediscipline.sources.live.wire import Wire, is_error

#: Keys per SCAN round trip, and the candidates kept for the second reading.
SCAN_COUNT = 1000
CANDIDATES = 100
#: Keys whose counter the walk reads at most (all of a keyspace up to this size).
DEFAULT_MAX_KEYS = 1_000_000


@dataclass(frozen=True, slots=True)
class Candidates:
    """The walk's result: the hottest keys by counter, `(db, key) → counter`, and how many keys it read."""

    counters: Mapping[tuple[int, bytes], int]
    read: int
    error: str | None = None


def is_lfu(policy: str | None) -> bool:
    return policy is not None and policy.endswith("-lfu")


def walk_counters(
    wire: Wire, dbs: Sequence[int], max_keys: int = DEFAULT_MAX_KEYS, keep: int = CANDIDATES
) -> Candidates:
    """SCAN the databases `dbs` (SELECT each) reading each key's LFU counter; the `keep` highest."""
    best: list[tuple[int, int, bytes]] = []  # a min-heap of (counter, db, key)
    read = 0
    for db in dbs:
        if len(dbs) > 1 or db != 0:
            reply = wire.call("SELECT", db)
            if is_error(reply):
                return Candidates({}, read, f"SELECT {db}: {reply}")
        cursor = b"0"
        while read < max_keys:
            reply = wire.call("SCAN", cursor, "COUNT", SCAN_COUNT)
            if is_error(reply):
                return Candidates(_kept(best), read, f"SCAN: {reply}")
            cursor, keys = reply[0], reply[1][: max_keys - read]
            wire.send([("OBJECT", "FREQ", key) for key in keys])
            for key, counter in zip(keys, wire.receive(len(keys)), strict=True):
                if is_error(counter):
                    if "lfu" in str(counter).lower():  # the policy changed under the walk
                        return Candidates(_kept(best), read, f"OBJECT FREQ: {counter}")
                    continue  # the key went away between SCAN and OBJECT FREQ
                read += 1
                item = (int(counter), db, bytes(key))
                if len(best) < keep:
                    heapq.heappush(best, item)
                elif item > best[0]:
                    heapq.heapreplace(best, item)
            if cursor in (b"0", 0):
                break
    return Candidates(_kept(best), read)


def read_again(wire: Wire, candidates: Candidates) -> dict[tuple[int, bytes], int | None]:
    """The candidates' counters now (None: the key is gone)."""
    now: dict[tuple[int, bytes], int | None] = {}
    by_db: dict[int, list[bytes]] = {}
    for db, key in candidates.counters:
        by_db.setdefault(db, []).append(key)
    for db, keys in sorted(by_db.items()):
        wire.call("SELECT", db)
        wire.send([("OBJECT", "FREQ", key) for key in keys])
        for key, counter in zip(keys, wire.receive(len(keys)), strict=True):
            now[(db, key)] = None if is_error(counter) else int(counter)
    return now


def hot_keys(
    candidates: Candidates, now: Mapping[tuple[int, bytes], int | None], seconds: float, log_factor: int
) -> tuple[HotKey, ...]:
    """The candidates whose counter grew over the window, by estimated accesses per second, hottest first."""
    found: list[HotKey] = []
    for (db, key), before in candidates.counters.items():
        after = now.get((db, key))
        if after is None or after <= before or seconds <= 0:
            continue
        rate = hits_between(before, after, log_factor) / seconds
        found.append(HotKey(db, key, round(rate, 1), SOURCE_OBJECT_FREQ, before, after, after >= LFU_MAX))
    found.sort(key=lambda hot: (-(hot.ops_per_second or 0.0), hot.db, hot.key))
    return tuple(found)


def _kept(best: list[tuple[int, int, bytes]]) -> dict[tuple[int, bytes], int]:
    return {(db, key): counter for counter, db, key in best}
