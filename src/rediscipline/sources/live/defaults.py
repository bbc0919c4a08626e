"""Defaults and bounds of a live scan's options, for the library (`LiveScanOptions`), the scanner and the CLI.

This module imports nothing, so the `scan` command declares its options from it without loading redis-py.
"""

from __future__ import annotations

#: Keys per round trip at most, by default; the scanner shrinks the batch when the server is slow to answer.
DEFAULT_BATCH = 50
#: The scanner never shrinks a batch below MIN_BATCH nor grows it above MAX_BATCH; the CLI accepts this range.
MIN_BATCH = 10
MAX_BATCH = 1000
#: MEMORY USAGE … SAMPLES n, by default (never 0: that walks every element).
DEFAULT_MEMORY_SAMPLES = 5
#: Seconds to wait for one reply.
DEFAULT_TIMEOUT_SECONDS = 10.0
#: Reconnection attempts in a row before a scan gives up (refilled after every round trip that succeeds).
DEFAULT_RETRIES = 3
#: The round-trip time the scanner aims at when it adapts the batch, in milliseconds.
DEFAULT_TARGET_MS = 1.0
#: Shards of a cluster (or targets of a fleet) read at once, by default.
DEFAULT_CONCURRENCY = 4
