"""time_bucket_key, sharded_key and shard_keys: the forms 000 writes, bytes kept bytes, and names the naming
rules accept (KEY014 split-key-form among them)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from rediscipline.api import check_key_names
from rediscipline.recipes import shard_keys, sharded_key, time_bucket_key

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(
    ("granularity", "expected"),
    [("month", "task:user:10086:202209"), ("week", "task:user:10086:2022w35"), ("day", "task:user:10086:20220901")],
)
def test_the_buckets_of_a_moment(granularity: Any, expected: str) -> None:
    assert time_bucket_key("task:user:10086", datetime(2022, 9, 1, 13, 5), granularity) == expected


def test_hour_buckets_and_the_default_month() -> None:
    assert time_bucket_key("task:user:10086", datetime(2022, 9, 1, 13, 5), "hour") == "task:user:10086:2022090113"
    assert time_bucket_key("task:user:10086", date(2022, 9, 30)) == "task:user:10086:202209"


def test_iso_weeks_belong_to_their_iso_year() -> None:
    assert time_bucket_key("task:user:1", date(2021, 1, 3), "week") == "task:user:1:2020w53"
    assert time_bucket_key("task:user:1", date(2024, 12, 30), "week") == "task:user:1:2025w01"
    assert time_bucket_key("task:user:1", date(2022, 1, 5), "week") == "task:user:1:2022w01"


def test_bytes_stay_bytes_and_a_trailing_colon_is_not_doubled() -> None:
    assert time_bucket_key(b"task:\xff:", date(2022, 9, 1), "day") == b"task:\xff:20220901"
    assert time_bucket_key("task:user:1:", date(2022, 9, 1)) == "task:user:1:202209"


def test_time_zones() -> None:
    late = datetime(2022, 9, 30, 20, 0, tzinfo=timezone.utc)  # already October 1st in Shanghai
    assert time_bucket_key("task:user:1", late) == "task:user:1:202209"
    assert time_bucket_key("task:user:1", late, tz=SHANGHAI) == "task:user:1:202210"
    assert time_bucket_key("task:user:1", late.timestamp(), "hour") == "task:user:1:2022093020"
    assert time_bucket_key("task:user:1", late.timestamp(), "hour", tz=SHANGHAI) == "task:user:1:2022100104"
    naive = datetime(2022, 9, 30, 23, 0)  # taken as it is
    assert time_bucket_key("task:user:1", naive, "day", tz=SHANGHAI) == "task:user:1:20220930"


def test_now_is_the_default() -> None:
    before = datetime.now(timezone.utc)
    key = time_bucket_key("task:user:1", granularity="day")
    after = datetime.now(timezone.utc)
    assert key in {f"task:user:1:{moment:%Y%m%d}" for moment in (before, after)}
    shanghai = time_bucket_key("task:user:1", granularity="day", tz=SHANGHAI)
    assert shanghai in {f"task:user:1:{(moment + timedelta(hours=8)):%Y%m%d}" for moment in (before, after)}


@pytest.mark.parametrize(
    ("when", "granularity", "error", "message"),
    [
        (date(2022, 9, 1), "hour", ValueError, "hour buckets need a datetime"),
        (None, "year", ValueError, "granularity must be one of month, week, day, hour"),
        ("2022-09-01", "day", TypeError, "when must be a datetime, a date, Unix seconds or None, not str"),
        (True, "day", TypeError, "not bool"),
    ],
)
def test_bad_buckets(when: Any, granularity: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        time_bucket_key("task:user:1", when, granularity)


def test_sharded_keys_mirror_000() -> None:
    # 000 §各种ID: mod 1000, then the ID's first two characters: uid#0#0, uid#1#1, …, uid#999#99
    assert sharded_key("uid", 0, 1000, levels=2) == "uid#0#0"
    assert sharded_key("uid", 1, 1000, levels=2) == "uid#1#1"
    assert sharded_key("uid", 99_999, 1000, levels=2) == "uid#999#99"
    assert sharded_key("prize:winner", 123_456, 1000, levels=2) == "prize:winner#456#12"
    assert sharded_key("prize:winner", 123_456, 1000) == "prize:winner#456"
    assert sharded_key(b"prize:\xff", 7, 4) == b"prize:\xff#3"


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("k", -1, 10), ValueError, "shard_id must be >= 0"),
        (("k", "12", 10), TypeError, "shard_id must be an integer ID"),
        (("k", 1.0, 10), TypeError, "shard_id must be an integer ID"),
        (("k", 5, 0), ValueError, "shards must be a whole number >= 1"),
        (("k", 5, 10, 3), ValueError, "levels must be 1"),
    ],
)
def test_bad_shards(args: tuple[Any, ...], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        sharded_key(*args)


@pytest.mark.parametrize(("shards", "levels"), [(7, 1), (7, 2), (1, 2), (13, 2)])
def test_shard_keys_are_exactly_the_keys_ids_map_to(shards: int, levels: int) -> None:
    reached = {sharded_key(b"prize:winner", shard_id, shards, levels) for shard_id in range(200_000)}
    listed = shard_keys(b"prize:winner", shards, levels)
    assert len(listed) == len(set(listed))
    assert set(listed) == reached
    assert len(listed) == (shards if levels == 1 else 90 * shards + 10)


def test_shard_keys_in_order() -> None:
    assert shard_keys("uid", 3) == ["uid#0", "uid#1", "uid#2"]
    assert shard_keys("uid", 1000, levels=2)[:3] == ["uid#0#0", "uid#0#10", "uid#0#11"]


def test_the_names_pass_the_naming_rules() -> None:
    names = [sharded_key(b"prize:winner", shard_id, 1000, levels=2) for shard_id in (0, 1, 99_999, 123_456)]
    names += shard_keys(b"prize:winner", 10)
    names += [time_bucket_key(b"task:user:10086", datetime(2022, 9, 1), g) for g in ("month", "week", "day", "hour")]
    report = check_key_names([*names, b"user#profile#name"])  # the last one: KEY014's own bad example
    assert [(finding.rule_id, finding.pattern) for finding in report.findings] == [("KEY014", b"user#profile#name")]
