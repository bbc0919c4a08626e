"""The eviction pool (`evict.c`, `evictionPoolPopulate`): 16 candidates kept in ascending order of their
score (idle time, 255 − LFU counter, or the inverse of the expire time; higher is evicted first), kept across
evictions, so that the pool is a memory of good candidates rather than the best of one sample.

A candidate scoring below every entry of a full pool is dropped; otherwise it goes in order, shifting the
entries to its right into free space or, in a full pool, shifting those to its left and dropping the lowest.
There is no check for duplicates: a key sampled twice may hold two entries. An entry keeps the score it had
when sampled, even if the key is accessed later. Eviction takes the highest entry whose key still exists;
the others it passes (ghosts: deleted or evicted since) are removed.
"""

from __future__ import annotations

from collections.abc import Container

#: Entries in the pool (`EVPOOL_SIZE`).
POOL_SIZE = 16


class EvictionPool:
    """The pool's entries as parallel lists of 16: `keys[i]` is None where empty (keys are the simulator's
    key numbers), `scores[i]` its score."""

    __slots__ = ("keys", "scores")

    def __init__(self) -> None:
        self.keys: list[int | None] = [None] * POOL_SIZE
        self.scores: list[int] = [0] * POOL_SIZE

    def insert(self, key: int, score: int) -> None:
        keys, scores = self.keys, self.scores
        k = 0
        while k < POOL_SIZE and keys[k] is not None and scores[k] < score:
            k += 1
        if k == 0 and keys[POOL_SIZE - 1] is not None:
            return  # worse than every entry of a full pool
        if k < POOL_SIZE and keys[k] is None:
            pass  # an empty place: nothing to move
        elif keys[POOL_SIZE - 1] is None:
            keys[k + 1 :] = keys[k : POOL_SIZE - 1]  # free space on the right: shift right from k
            scores[k + 1 :] = scores[k : POOL_SIZE - 1]
        else:
            k -= 1  # full: shift left up to k and drop the lowest entry
            keys[:k] = keys[1 : k + 1]
            scores[:k] = scores[1 : k + 1]
        keys[k] = key
        scores[k] = score

    def take(self, exists: Container[int]) -> int | None:
        """The highest entry whose key is in `exists`, removed from the pool, with the ghosts above it; None
        when none is left (the pool is then empty)."""
        keys = self.keys
        for k in range(POOL_SIZE - 1, -1, -1):
            key = keys[k]
            if key is None:
                continue
            keys[k] = None
            self.scores[k] = 0
            if key in exists:
                return key
        return None
