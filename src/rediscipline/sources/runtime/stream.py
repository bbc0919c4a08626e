"""What only a sequence of commands shows: one TTL written over many keys, one call site sending in a loop.

Code shows a loop and a constant TTL in its syntax; at run time they show as repetition. Both trackers keep
a bounded amount of state (one entry per key pattern, one per thread) whatever the traffic.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

#: This many writes of one pattern, each to another key, with the same TTL (to the second), each within
#: LOOP_GAP of the one before (a burst, as a loop or a pipeline writes: steady traffic spreads its
#: expiries as it spreads its writes) and all within TTL_WINDOW seconds: the keys will expire together.
TTL_REPEATS = 10
TTL_WINDOW = 1.0
#: Calls from one site closer together than this (seconds) follow each other in a loop; a request handler
#: calling once per request leaves longer gaps.
LOOP_GAP = 0.005
_PATTERNS_LIMIT = 10_000


@dataclass(slots=True)
class _Run:
    ttl_s: int
    key: bytes
    count: int
    since: float
    last: float


class TtlRuns:
    """Runs of one TTL over the keys of a pattern (`add` says when a write is part of a long enough run)."""

    def __init__(self, repeats: int = TTL_REPEATS, window: float = TTL_WINDOW, gap: float = LOOP_GAP) -> None:
        self.repeats = repeats
        self.window = window
        self.gap = gap
        self._runs: dict[bytes, _Run] = {}

    def add(self, pattern: bytes, key: bytes, ttl_ms: int, now: float | None = None) -> int:
        """One write of `key` (of `pattern`) with a TTL of `ttl_ms`: how many different keys the run of the same
        TTL it belongs to has written so far, in a burst (see TTL_REPEATS); `repeats` or more is a cliff."""
        now = time.monotonic() if now is None else now
        ttl_s = round(ttl_ms / 1000)
        run = self._runs.get(pattern)  # threads may interleave here: a run's count is then off by one
        if run is None or run.ttl_s != ttl_s or now - run.since > self.window or now - run.last > self.gap:
            if len(self._runs) >= _PATTERNS_LIMIT:
                self._runs.clear()
            self._runs[pattern] = _Run(ttl_s, key, 1, now, now)
            return 1
        run.last = now
        if key != run.key:
            run.count += 1
            run.key = key
        return run.count


class LoopRuns:
    """Runs of one command sent from one call site, each right after the last, per thread."""

    def __init__(self, gap: float = LOOP_GAP) -> None:
        self.gap = gap
        self._local = threading.local()

    def add(self, site: object, command: str, now: float | None = None) -> int | None:
        """One more call: the length of its run when that is a power of two of at least 2 (a rule compares
        it with its limit; reporting at doublings keeps the verdicts few), else None."""
        now = time.perf_counter() if now is None else now
        local = self._local
        last = getattr(local, "last", None)
        if last is not None and last[0] is site and last[1] == command and now - last[3] <= self.gap:
            count = last[2] + 1
        else:
            count = 1
        local.last = (site, command, count, now)
        return count if count >= 2 and count & (count - 1) == 0 else None
