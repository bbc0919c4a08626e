"""The keyspace summary's fixed tables: the key-size histogram and the expiry timeline, as the collector
(`engine.keyspace`) counts them per key, merges them across parts and turns them into the model's tables.

The collector increments plain lists of integers indexed by one integer operation (a memory's bit length, a
TTL's minute), which is the cheapest a per-key count gets in Python, and reads the key's TTL histogram bucket
from the same minute (`TTL_LABEL_BY_MINUTE`, `TTL_LABEL_BY_HOUR`); what is done once per run is here.
"""

from __future__ import annotations

from itertools import zip_longest

from rediscipline.model.keyspace import (
    HOUR_MS,
    MINUTE_MS,
    TIMELINE_HOURS,
    TIMELINE_MINUTES,
    TTL_BUCKETS,
    ExpiryTimeline,
    SizeBucket,
)

#: Key-size buckets: bucket k holds the memory m with m.bit_length() == k, so 65 cover every size below 2^64
#: (a larger estimate, from a hostile dump, grows the tables).
SIZE_BUCKETS = 65
#: The expiry timeline's end in minutes: a TTL of this many minutes or more is counted as later.
TIMELINE_END_MINUTE = TIMELINE_HOURS * 60


def _ttl_label(ttl_ms: int) -> str:
    """The TTL histogram's bucket of a TTL (TTL_BUCKETS: upper bounds exclusive, the last one unbounded)."""
    return next(label for label, upper in TTL_BUCKETS if ttl_ms < upper * 1000)


#: The TTL histogram's bucket of every minute of the timeline, of every hour, and past its end. Its bounds are
#: whole minutes and, past a day, whole hours (tests/engine/test_keyspace_tables.py checks), so every TTL in a
#: minute or an hour shares one bucket.
TTL_LABEL_BY_MINUTE = tuple(_ttl_label(minute * MINUTE_MS) for minute in range(TIMELINE_MINUTES))
TTL_LABEL_BY_HOUR = tuple(_ttl_label(hour * HOUR_MS) for hour in range(TIMELINE_HOURS))
TTL_LABEL_LATER = _ttl_label(TIMELINE_END_MINUTE * MINUTE_MS)


def added(mine: list[int], other: list[int]) -> list[int]:
    """Two tables of counts added elementwise (the shorter one read as 0 past its end)."""
    return [a + b for a, b in zip_longest(mine, other, fillvalue=0)]


def size_buckets(keys: list[int], memory: list[int]) -> tuple[SizeBucket, ...]:
    """The key-size buckets from the smallest non-empty one to the largest, the empty ones between included
    so that a chart's axis is contiguous; none when no key's memory was counted."""
    filled = [size for size, count in enumerate(keys) if count]
    if not filled:
        return ()
    return tuple(
        SizeBucket(1 << size >> 1, 1 << size, keys[size], memory[size]) for size in range(filled[0], filled[-1] + 1)
    )


def expiry_timeline(seconds: list[int], hours: list[int], later: int) -> ExpiryTimeline:
    """The timeline from the keys counted per second (TTL under 24 h) and per hour (24 h to 30 d): the minutes
    and their busiest seconds from the seconds, and the first 24 hours of `hours` (left 0 per key) from them."""
    minutes = [sum(seconds[start : start + 60]) for start in range(0, TIMELINE_MINUTES * 60, 60)]
    peaks = [max(seconds[start : start + 60]) for start in range(0, TIMELINE_MINUTES * 60, 60)]
    per_hour = list(hours)
    for hour in range(TIMELINE_MINUTES // 60):
        per_hour[hour] = sum(minutes[hour * 60 : hour * 60 + 60])
    return ExpiryTimeline(tuple(minutes), tuple(per_hour), later, sum(per_hour) + later, tuple(peaks))
