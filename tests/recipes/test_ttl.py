"""ttl_with_jitter's range and errors; set_with_ttl writes the value and a TTL in that range in one SET."""

from __future__ import annotations

import asyncio
import math
import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
import redis
import redis.asyncio

from rediscipline.recipes import aio, set_with_ttl, ttl_with_jitter
from tests.recipes.oracle import Raw, commandstats
from tests.support.monitor import MonitorRecorder
from tests.support.servers import ServerProcess


def test_every_whole_second_of_the_range_is_drawn_and_nothing_outside_it() -> None:
    rng = random.Random(7)
    drawn = Counter(ttl_with_jitter(3600, rng=rng) for _ in range(40_000))
    assert set(drawn) == set(range(3600, 3961))  # [base, base * 1.1], both ends included
    assert max(drawn.values()) < 3 * min(drawn.values())  # about 111 each: uniform, not piled on one end


@pytest.mark.parametrize(
    ("base", "jitter", "expected"),
    [
        (0.2, 0.1, {1}),  # never below 1
        (5, 0.1, {5}),  # 5.5 holds no whole second above 5
        (10.5, 0.1, {11}),  # a fraction rounds up to the first whole second of the range
        (100, 0.0, {100}),
        (10, 0.5, set(range(10, 16))),
        (timedelta(minutes=2), 0.1, set(range(120, 133))),
    ],
)
def test_small_and_exact_ranges(base: float | timedelta, jitter: float, expected: set[int]) -> None:
    rng = random.Random(1)
    assert {ttl_with_jitter(base, jitter, rng=rng) for _ in range(2000)} == expected


def test_a_seeded_rng_repeats_its_draws() -> None:
    first = [ttl_with_jitter(86_400, rng=random.Random(42)) for _ in range(3)]
    assert first == [ttl_with_jitter(86_400, rng=random.Random(42)) for _ in range(3)]


@pytest.mark.parametrize("base", [0, -1, math.nan, math.inf, -math.inf])
def test_a_base_that_is_not_positive_and_finite_is_refused(base: float) -> None:
    with pytest.raises(ValueError, match="base_seconds must be a positive number of seconds"):
        ttl_with_jitter(base)


@pytest.mark.parametrize("base", ["60", None, True, b"60"])
def test_a_base_that_is_not_a_number_is_refused(base: Any) -> None:
    with pytest.raises(TypeError, match="base_seconds must be a number of seconds or a timedelta"):
        ttl_with_jitter(base)


@pytest.mark.parametrize("jitter", [-0.1, math.nan, math.inf, "0.1"])
def test_a_bad_jitter_is_refused(jitter: Any) -> None:
    with pytest.raises(ValueError, match="jitter must be a finite number >= 0"):
        ttl_with_jitter(60, jitter)


def test_set_with_ttl_sends_one_set_with_its_ttl(server: ServerProcess, client: redis.Redis, raw: Raw) -> None:
    key, value = b"cart:item:\xff\x00", b"\x80\x81 not utf-8"
    with MonitorRecorder(server) as monitor:
        assert set_with_ttl(client, key, value, 600) is True
    sets = [record.args for record in monitor.records if record.name == "set"]
    assert len(sets) == 1
    assert sets[0][:4] == (b"SET", key, value, b"EX")
    assert 600 <= int(sets[0][4]) <= 660
    assert raw.call("GET", key) == value
    assert raw.call("TTL", key) in range(599, 661)  # a second may pass between SET and TTL
    assert commandstats(raw).get("set") == 1


def test_set_with_ttl_replaces_a_ttl_less_value_and_gives_it_a_ttl(client: redis.Redis, raw: Raw) -> None:
    raw.call("SET", b"cart:item:1", b"old")
    set_with_ttl(client, b"cart:item:1", b"new", timedelta(hours=1), jitter=0)
    assert raw.call("GET", b"cart:item:1") == b"new"
    assert raw.call("TTL", b"cart:item:1") in (3599, 3600)


def test_the_asyncio_set_with_ttl(server: ServerProcess, raw: Raw) -> None:
    async def scenario() -> bool:
        async with redis.asyncio.Redis(host=server.host, port=server.port) as client:
            return await aio.set_with_ttl(client, b"cart:item:2", b"v", 30, jitter=1.0)

    assert asyncio.run(scenario()) is True
    assert raw.call("GET", b"cart:item:2") == b"v"
    assert raw.call("TTL", b"cart:item:2") in range(29, 61)


def test_a_bad_ttl_sends_nothing(client: redis.Redis, raw: Raw) -> None:
    with pytest.raises(ValueError, match="base_seconds"):
        set_with_ttl(client, b"cart:item:3", b"v", 0)
    assert "set" not in commandstats(raw)
