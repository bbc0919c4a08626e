"""GlideStore, the GLIDE rate limiter and the memcached memo, against mocks of their clients."""

from __future__ import annotations

from unittest import mock
from unittest.mock import AsyncMock, MagicMock

import pytest
from glide import ExpirySet, ExpiryType, GlideClient
from glide_svc import memo
from glide_svc.clients import GlideStore
from glide_svc.ratelimit import GlideLimiter
from glide_svc.sessions import SessionStore, flash
from pymemcache.client.base import PooledClient


@pytest.fixture
def glide() -> AsyncMock:
    return AsyncMock(spec=GlideClient)


async def test_set_with_ttl(glide: AsyncMock) -> None:
    store = GlideStore(glide)
    await store.set("user:profile_json:1", "{}", ttl=60)
    glide.set.assert_awaited_once_with("user:profile_json:1", "{}", expiry=ExpirySet(ExpiryType.SEC, 60))


async def test_set_without_ttl(glide: AsyncMock) -> None:
    store = GlideStore(glide)
    await store.set("user:profile_json:1", "{}")
    glide.set.assert_awaited_once_with("user:profile_json:1", "{}")


async def test_store_reads(glide: AsyncMock) -> None:
    store = GlideStore(glide)
    glide.hgetall.return_value = {b"uid": b"1"}
    glide.zrange.return_value = [b"ann"]
    glide.custom_command.return_value = [b"session:data:a"]
    assert await store.hgetall("session:data:a") == {b"uid": b"1"}
    assert await store.zrange("board:weekly") == [b"ann"]
    assert await store.keys("session:data:*") == [b"session:data:a"]
    await store.flushall()
    glide.flushall.assert_awaited_once()


async def test_sessions_round_trip(glide: AsyncMock) -> None:
    sessions = SessionStore(GlideStore(glide))
    sid = await sessions.create(7)
    glide.hset.assert_awaited_once()
    glide.expire.assert_awaited_once_with(f"session:data:{sid}", 1800)
    await sessions.destroy(sid)
    glide.delete.assert_awaited_once_with([f"session:data:{sid}"])


async def test_flash(glide: AsyncMock) -> None:
    await flash(glide, "abc", "saved")
    glide.lpush.assert_awaited_once_with("session:flash:abc", ["saved"])


async def test_limiter_counts(glide: AsyncMock) -> None:
    glide.exec.return_value = [1, True]
    limiter = GlideLimiter(glide, limit=1, window=60)
    assert await limiter.allow("10.0.0.1")
    glide.exec.return_value = [2, True]
    assert not await limiter.allow("10.0.0.1")


def test_memo_with_a_mocked_memcached() -> None:
    fake = MagicMock(spec=PooledClient)
    fake.get.return_value = b'{"a": 1}'
    with mock.patch.object(memo, "mc", fake):
        memo.remember("profile:1", {"a": 1}, ttl=30)
        fake.set.assert_called_once_with("profile:1", '{"a": 1}', expire=30)
        assert memo.recall("profile:1") == {"a": 1}
        memo.forget_now("profile:1")
        fake.touch.assert_called_once_with("profile:1", 0)
        memo.wipe()
        fake.flush_all.assert_called_once_with()


def test_shard_map() -> None:
    shards = memo.ShardMap()
    shards.set("s1", ["b", "a"])
    shards.zadd("s1", "c")
    assert shards.smembers("s1") == {"a", "b", "c"}
    assert shards.hgetall() == {"s1": ["a", "b", "c"]}
    assert list(shards.keys()) == ["s1"]
