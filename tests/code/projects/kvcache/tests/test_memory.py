"""MemoryCache and TieredCache: the whole API, in process."""

from __future__ import annotations

from unittest.mock import MagicMock

import pytest
from kvcache import MemoryCache, RedisCache
from kvcache.decorators import reset_stats
from kvcache.tiered import TieredCache


@pytest.fixture
def mem() -> MemoryCache:
    return MemoryCache(default_ttl=60)


def test_strings(mem: MemoryCache) -> None:
    mem.set("a", 1)
    assert mem.get("a") == 1
    assert mem.incr("a", by=2) == 3
    assert mem.expire("a", 10)
    assert mem.delete("a") == 1
    assert mem.get("a", "gone") == "gone"


def test_hash(mem: MemoryCache) -> None:
    mem.hset("profile:1", "name", "ann")
    mem.hset("profile:1", "city", "oslo", ttl=5)
    assert mem.hgetall("profile:1") == {"name": "ann", "city": "oslo"}
    assert mem.hgetall("profile:2", default={"name": "?"}) == {"name": "?"}


def test_sorted_set(mem: MemoryCache) -> None:
    mem.zadd("board", "alice", 3)
    mem.zadd("board", "bob", 5, ttl=60)
    assert mem.zrange("board", 0, -1) == ["alice", "bob"]
    assert mem.zrange("board", 0, -1, desc=True) == ["bob", "alice"]


def test_lists_and_sets(mem: MemoryCache) -> None:
    assert mem.lpush("queue", "a", "b") == 2
    mem.set("tags", ["x", "y"])
    assert mem.smembers("tags") == {"x", "y"}


def test_namespace(mem: MemoryCache) -> None:
    mem.set("user:1", 1)
    mem.set("user:2", 2)
    mem.set("order:1", 3)
    assert sorted(mem.keys("user:*")) == ["user:1", "user:2"]
    assert list(mem.iter_keys("order:*", count=10)) == ["order:1"]
    assert mem.delete_pattern("user:*") == 2
    mem.flushall()
    assert mem.keys() == []


def test_tiered_reads_through(mem: MemoryCache) -> None:
    far = MagicMock(spec=RedisCache)
    far.get.return_value = {"x": 1}
    far.hgetall.return_value = {"name": "ann"}
    far.keys.return_value = ["a"]
    tiered = TieredCache(far, near=mem)
    assert tiered.get("a") == {"x": 1}
    assert tiered.hgetall("profile:1") == {"name": "ann"}
    tiered.zadd("board", "alice", 1, ttl=30)
    far.zadd.assert_called_once_with("board", "alice", 1, ttl=30)
    assert tiered.keys("*") == ["a"]
    tiered.expire("a", 100)
    tiered.flushall()
    far.flushall.assert_called_once_with()


def test_reset_stats_takes_any_cache(mem: MemoryCache) -> None:
    mem.zadd("stats:hits", "f", 1)
    reset_stats(mem)
    assert mem.keys() == []
