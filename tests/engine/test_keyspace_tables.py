"""The keyspace summary's key-size histogram and expiry timeline, at the edges of their bins: which bucket a
memory of 2^k - 1, 2^k and 2^k + 1 bytes lands in, which minute and hour a TTL one millisecond either side of
a bound lands in, what is not counted (unmeasured memory, persistent keys), and the TTL histogram the same
minute index gives (its bounds are whole minutes)."""

from __future__ import annotations

from collections.abc import Sequence

from rediscipline.engine.keyspace import KeyspaceCollector
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyspace import (
    HOUR_MS,
    MINUTE_MS,
    NO_EXPIRY,
    TIMELINE_HOURS,
    TIMELINE_MINUTES,
    TTL_BUCKETS,
    ExpiryTimeline,
    KeyspaceStats,
    SizeBucket,
)
from rediscipline.model.location import Location

ORIGIN = Location("rdb", "tables.rdb", db=0)
DAY_MS = 24 * HOUR_MS


def _stats(rows: Sequence[tuple[int | None, int | None]]) -> KeyspaceStats:
    """A collector fed one string key per (ttl_ms, memory), every key shown to `note_fields`."""
    collector = KeyspaceCollector()
    for index, (ttl, memory) in enumerate(rows):
        fact = KeyFact(b"k:%d" % index, ORIGIN, 0, "string", ttl, memory, 1, "raw")
        collector.note_fields(fact)
        collector.add(fact, None, b"k:*")
    return collector.finish()


def test_each_memory_lands_in_the_bucket_of_its_bit_length() -> None:
    stats = _stats([(-1, memory) for memory in (0, 1, 2, 3, 4, 7, 8, 1023, 1024)])
    assert stats.size_buckets == (
        SizeBucket(0, 1, 1, 0),
        SizeBucket(1, 2, 1, 1),
        SizeBucket(2, 4, 2, 5),
        SizeBucket(4, 8, 2, 11),
        SizeBucket(8, 16, 1, 8),
        *(SizeBucket(1 << k >> 1, 1 << k, 0, 0) for k in range(5, 10)),
        SizeBucket(512, 1024, 1, 1023),
        SizeBucket(1024, 2048, 1, 1024),
    )


def test_buckets_run_from_the_smallest_filled_to_the_largest_with_the_gaps_at_zero() -> None:
    stats = _stats([(-1, 100), (-1, 5000), (-1, 127)])
    assert [(b.low, b.high, b.keys, b.memory) for b in stats.size_buckets] == [
        (64, 128, 2, 227),
        (128, 256, 0, 0),
        (256, 512, 0, 0),
        (512, 1024, 0, 0),
        (1024, 2048, 0, 0),
        (2048, 4096, 0, 0),
        (4096, 8192, 1, 5000),
    ]


def test_keys_without_a_measured_memory_are_not_counted() -> None:
    stats = _stats([(-1, None), (-1, 300), (5_000, None)])
    assert stats.size_buckets == (SizeBucket(256, 512, 1, 300),)
    assert _stats([(-1, None), (60_000, None)]).size_buckets == ()


def test_a_memory_past_64_bits_gets_its_own_bucket() -> None:
    huge = (1 << 70) + 5
    stats = _stats([(-1, (1 << 64) - 1), (-1, huge)])
    assert stats.size_buckets[0] == SizeBucket(1 << 63, 1 << 64, 1, (1 << 64) - 1)
    assert stats.size_buckets[-1] == SizeBucket(1 << 70, 1 << 71, 1, huge)
    assert len(stats.size_buckets) == 8


def _timeline(ttls: Sequence[int | None]) -> ExpiryTimeline:
    expiry = _stats([(ttl, 64) for ttl in ttls]).expiry
    assert expiry is not None
    return expiry


def _filled(table: Sequence[int]) -> dict[int, int]:
    return {index: count for index, count in enumerate(table) if count}


def test_each_ttl_lands_in_its_minute_and_hour() -> None:
    ttls = [
        0,
        MINUTE_MS - 1,  # minute 0
        MINUTE_MS,  # minute 1
        HOUR_MS - 1,  # minute 59, hour 0
        HOUR_MS,  # minute 60, hour 1
        DAY_MS - 1,  # minute 1439, hour 23
        DAY_MS,  # hour 24: past the minutes
        30 * DAY_MS - 1,  # hour 719
        30 * DAY_MS,  # later
        400 * DAY_MS,  # later
    ]
    expiry = _timeline([*ttls, -1, -1, None, -2])  # persistent, not probed, vanished: not counted
    assert len(expiry.per_minute) == TIMELINE_MINUTES and len(expiry.per_hour) == TIMELINE_HOURS
    assert _filled(expiry.per_minute) == {0: 2, 1: 1, 59: 1, 60: 1, 1439: 1}
    assert _filled(expiry.per_hour) == {0: 4, 1: 1, 23: 1, 24: 1, 719: 1}
    assert (expiry.later, expiry.keys) == (2, 10)


def test_the_first_day_of_hours_sums_the_minutes() -> None:
    expiry = _timeline([minute * MINUTE_MS + 30_000 for minute in range(0, TIMELINE_MINUTES, 7)])
    assert list(expiry.per_hour[:24]) == [sum(expiry.per_minute[h * 60 : h * 60 + 60]) for h in range(24)]
    assert sum(expiry.per_hour) == expiry.keys == len(range(0, TIMELINE_MINUTES, 7))


def test_no_timeline_without_measured_ttls_and_an_empty_one_without_ttls() -> None:
    assert _stats([(None, 64), (None, 80)]).expiry is None
    persistent = _timeline([-1, -1])
    assert (persistent.keys, persistent.later, sum(persistent.per_minute), sum(persistent.per_hour)) == (0, 0, 0, 0)


def test_the_ttl_histogram_keeps_its_bounds() -> None:
    """The histogram's bucket comes from the timeline's minute (and hour past a day): each bound of
    TTL_BUCKETS, one millisecond either side, lands where the bound says."""
    bounds = [int(upper * 1000) for _label, upper in TTL_BUCKETS if upper != float("inf")]
    for bound in bounds:
        assert bound % (HOUR_MS if bound > DAY_MS else MINUTE_MS) == 0, bound
    labels = [label for label, _upper in TTL_BUCKETS]
    ttls = [ttl for bound in bounds for ttl in (bound - 1, bound)] + [0, 365 * DAY_MS, -1]
    expected: dict[str, int] = {}
    for ttl in ttls:
        label = NO_EXPIRY if ttl < 0 else labels[sum(ttl >= bound for bound in bounds)]
        expected[label] = expected.get(label, 0) + 1
    histogram = {bucket.label: bucket.keys for bucket in _stats([(ttl, 64) for ttl in ttls]).ttl_histogram}
    assert histogram == expected
    assert histogram[labels[0]] == 2 and histogram[labels[-1]] == 2
