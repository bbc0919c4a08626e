"""RedisCache against a real Redis (started by the CI job on REDIS_PORT)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis
from kvcache import RedisCache
from kvcache.decorators import cached


@pytest.fixture
def client() -> Iterator[redis.Redis]:
    conn = redis.Redis(port=int(os.environ.get("REDIS_PORT", "6379")))
    yield conn
    conn.flushdb()  # error: CMD002


@pytest.fixture
def kv(client: redis.Redis) -> RedisCache:
    return RedisCache(client=client, prefix="it", default_ttl=30)


def test_round_trip(kv: RedisCache, client: redis.Redis) -> None:
    kv.set("a", {"x": 1})
    assert kv.get("a") == {"x": 1}
    assert 0 < client.ttl("it:a") <= 30  # two cryptic words, `it` and `a` (KEY015 readable policy)  # error: KEY015


def test_values_written_by_another_service(kv: RedisCache, client: redis.Redis) -> None:
    client.set("it:legacy", '{"v": 2}')  # error: TTL006
    assert kv.get("legacy") == {"v": 2}


def test_hash_and_board(kv: RedisCache, client: redis.Redis) -> None:
    kv.hset("profile:1", "name", "ann")
    kv.zadd("board", "alice", 3, ttl=60)
    assert kv.hgetall("profile:1") == {"name": "ann"}
    assert client.zrange("it:board", 0, -1) == [b"alice"]  # error: CMD005
    assert client.zscore("it:board", "alice") == 3


def test_keys_in_the_namespace(kv: RedisCache, client: redis.Redis) -> None:
    kv.set("a", 1)
    kv.set("b", 2)
    assert sorted(kv.keys()) == ["a", "b"]
    assert sorted(client.keys("it:*")) == [b"it:a", b"it:b"]  # error: CMD001
    assert sorted(kv.iter_keys(count=100)) == ["a", "b"]


def test_cached_decorator(kv: RedisCache) -> None:
    calls: list[int] = []

    @cached(kv, ttl=5)
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    assert square(3) == 9
    assert square(3) == 9
    assert calls == [3]
    kv.flushall()
