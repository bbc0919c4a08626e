"""The simulators' random numbers: SplitMix64 (Steele, Lea and Flood, 2014), a small generator whose every
step is a few 64-bit operations, written the same way here and in the compiled replay (`_replay.pyx`), so
that both give the same draws for the same seed and therefore the same results.

The server's own draws (`random()` in `evict.c`) are not reproducible from outside; what a replay needs is a
fair source of the same kind, and the same one in both implementations.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """`next()` gives 64 random bits, `random()` a float in [0, 1) from 53 of them, `below(n)` an integer in
    [0, n) (the remainder of 64 bits: its bias is below n / 2^64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self.next() >> 11) * (1.0 / (1 << 53))

    def below(self, n: int) -> int:
        return self.next() % n


def distinct_sample(rng: SplitMix64, size: int, count: int) -> list[int]:
    """`count` distinct positions in [0, `size`) in the order drawn; every position, in order, when `size` is at
    most `count`."""
    if size <= count:
        return list(range(size))
    chosen: list[int] = []
    while len(chosen) < count:
        position = rng.below(size)
        if position not in chosen:
            chosen.append(position)
    return chosen
