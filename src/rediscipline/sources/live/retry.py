"""How often and how patiently a live scan reconnects after losing its connection.

The budget counts failures in a row, not per scan: once a round trip succeeds again the budget is full, so a
long scan survives any number of dropped connections spread over it, and gives up only when the server stays
unreachable for `retries` attempts. The waits grow exponentially up to `cap` seconds, each drawn at random
between half and all of that ("equal jitter"), so that many scanners dropped at once do not come back in step.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

BASE_SECONDS = 0.5
CAP_SECONDS = 8.0


@dataclass(slots=True)
class Backoff:
    retries: int = 3
    base: float = BASE_SECONDS
    cap: float = CAP_SECONDS
    failures: int = 0  # in a row, since the last progress
    reconnects: int = 0  # successful reconnections over the whole scan
    rng: random.Random = field(default_factory=random.Random)

    def next_wait(self) -> float | None:
        """Count one failure; the seconds to wait before the next attempt, or None when the budget is spent."""
        self.failures += 1
        if self.failures > self.retries:
            return None
        ceiling = min(self.cap, self.base * (1 << (self.failures - 1)))
        return ceiling / 2 + self.rng.random() * ceiling / 2

    def reconnected(self) -> None:
        self.reconnects += 1

    def progressed(self) -> None:
        """A round trip succeeded: the next failure starts a fresh budget."""
        self.failures = 0
