"""RedisCache against a mocked redis-py client: what each library method sends."""

from __future__ import annotations

from unittest import mock
from unittest.mock import MagicMock

import pytest
import redis
from kvcache import RedisCache
from kvcache.serializers import dumps


@pytest.fixture
def client() -> MagicMock:
    return MagicMock(spec=redis.Redis)


@pytest.fixture
def kv(client: MagicMock) -> RedisCache:
    return RedisCache(client=client, prefix="t", default_ttl=30)


def test_set_uses_the_default_ttl(kv: RedisCache, client: MagicMock) -> None:
    kv.set("a", {"x": 1})
    client.set.assert_called_once_with("t:a", dumps({"x": 1}), ex=30)


def test_set_without_ttl(kv: RedisCache, client: MagicMock) -> None:
    kv.set("a", 1, ttl=0)
    client.set.assert_called_once_with("t:a", "1")


def test_hgetall_default(kv: RedisCache, client: MagicMock) -> None:
    client.hgetall.return_value = {}
    assert kv.hgetall("profile:1", default={"name": "?"}) == {"name": "?"}
    client.hgetall.assert_called_once_with("t:profile:1")


def test_hgetall_decodes(kv: RedisCache, client: MagicMock) -> None:
    client.hgetall.return_value = {b"name": b'"ann"'}
    assert kv.hgetall("profile:1") == {"name": "ann"}


def test_zadd_and_expire(kv: RedisCache, client: MagicMock) -> None:
    kv.zadd("board", "alice", 3, ttl=60)
    client.zadd.assert_called_once_with("t:board", {"alice": 3})
    client.expire.assert_called_once_with("t:board", 60)


def test_zrange(kv: RedisCache, client: MagicMock) -> None:
    client.zrange.return_value = [b"alice", b"bob"]
    assert kv.zrange("board", 0, -1, desc=True) == ["alice", "bob"]


def test_keys_strips_the_prefix(kv: RedisCache, client: MagicMock) -> None:
    client.keys.return_value = [b"t:a", b"t:b"]
    assert kv.keys("*") == ["a", "b"]
    client.keys.assert_called_once_with("t:*")


def test_expire(kv: RedisCache, client: MagicMock) -> None:
    client.expire.return_value = True
    assert kv.expire("a", 10)


def test_smembers(kv: RedisCache, client: MagicMock) -> None:
    client.smembers.return_value = {b"x"}
    assert kv.smembers("tags") == {"x"}


def test_flushall_empties_its_database(kv: RedisCache, client: MagicMock) -> None:
    kv.flushall()
    client.flushdb.assert_called_once_with()


def test_lpush(kv: RedisCache, client: MagicMock) -> None:
    client.lpush.return_value = 2
    assert kv.lpush("queue", 1, 2) == 2


def test_from_url_builds_a_client() -> None:
    with mock.patch("kvcache.backend.redis.Redis.from_url") as from_url:
        kv = RedisCache.from_url("redis://cache:6379/0", prefix="p")
        kv.get("a")
        from_url.assert_called_once_with("redis://cache:6379/0", socket_timeout=1)
        from_url.return_value.get.assert_called_once_with("p:a")


def test_expire_is_patchable(kv: RedisCache) -> None:
    with mock.patch.object(RedisCache, "expire", return_value=False) as expire:
        assert kv.expire("a", 5) is False
        expire.assert_called_once_with("a", 5)
