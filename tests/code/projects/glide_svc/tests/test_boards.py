"""BoardRedis against a real Redis (REDIS_PORT)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
from glide_svc.boards import BoardRedis, publish_season, top_players

PORT = int(os.environ.get("REDIS_PORT", "6379"))


@pytest.fixture
async def boards() -> AsyncIterator[BoardRedis]:
    client = BoardRedis(port=PORT)
    yield client
    await client.flushall()  # error: CMD002
    await client.aclose()


async def test_record_and_top(boards: BoardRedis) -> None:
    await boards.record("weekly", "ann", 3)
    await boards.record("weekly", "bob", 5)
    assert await boards.top("weekly", 1) == [(b"bob", 5.0)]
    assert await boards.zrange("board:weekly", 0, -1) == [b"ann", b"bob"]  # error: CMD005


async def test_bump_existing_never_creates(boards: BoardRedis) -> None:
    assert await boards.bump_existing("empty", "ann", 1) == 0
    assert not await boards.exists("board:empty")


async def test_publish_season(boards: BoardRedis) -> None:
    await publish_season(boards, 3, {"ann": 1.0})
    assert await boards.ttl("board:season:3") > 0
    assert await boards.hget("board:meta:season:3", "players") == b"1"


async def test_top_players(boards: BoardRedis) -> None:
    await boards.zadd("board:weekly:topPlayers", {"ann": 1})  # error: KEY007, TTL006
    assert await top_players(boards, "weekly") == [b"ann"]


async def test_wipe(boards: BoardRedis) -> None:
    await boards.record("a", "ann", 1)
    await boards.record("b", "ann", 1)
    assert await boards.wipe("board:") == 2
    assert await boards.keys("board:*") == []  # error: CMD001


async def test_keyspace_events(boards: BoardRedis) -> None:
    await boards.config_set("notify-keyspace-events", "Kz")  # error: CMD004
    await boards.record("live", "ann", 1)
