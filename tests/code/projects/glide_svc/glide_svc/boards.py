"""Leaderboards, still on redis-py's asyncio client: a project subclass with the board operations."""

from __future__ import annotations

import os
import random

import redis.asyncio

BOARD_TTL = 14 * 86400
REDIS_URL = os.environ.get("BOARDS_REDIS_URL", "redis://localhost:6379/0")


def board_key(name: str) -> str:
    return f"board:{name}"


class BoardRedis(redis.asyncio.Redis):
    """redis.asyncio.Redis with the leaderboard operations of the service."""

    async def top(self, name: str, n: int = 10) -> list[tuple[bytes, float]]:
        return await self.zrevrange(board_key(name), 0, n - 1, withscores=True)

    async def snapshot(self, name: str) -> list[tuple[bytes, float]]:
        return await self.zrange(board_key(name), 0, -1, withscores=True)  # error: CMD005

    async def record(self, name: str, player: str, points: float) -> float:
        return await self.zincrby(board_key(name), points, player)  # error: TTL006

    async def record_with_ttl(self, name: str, player: str, points: float) -> None:
        async with self.pipeline(transaction=False) as pipe:
            pipe.zincrby(board_key(name), points, player)
            pipe.expire(board_key(name), BOARD_TTL + random.randint(0, 3600))
            await pipe.execute()

    async def bump_existing(self, name: str, player: str, points: float) -> int:
        """Only players already on the board move: ZADD XX never creates the board."""
        return await self.zadd(board_key(name), {player: points}, xx=True)

    async def wipe(self, prefix: str) -> int:
        removed = 0
        for key in await self.keys(prefix + "*"):  # error: CMD001
            removed += await self.unlink(key)
        return removed

    async def reset_boards(self) -> None:
        await self.flushdb()  # error: CMD002

    async def next_event(self) -> tuple[bytes, bytes] | None:
        return await self.blpop(["board:events"], timeout=0)  # error: PUB001


async def open_boards() -> BoardRedis:
    client = BoardRedis.from_url(REDIS_URL, socket_timeout=2)
    await client.ping()
    return client


async def board_meta(name: str) -> dict[bytes, bytes]:
    boards = await open_boards()
    return await boards.hgetall(f"board:meta:{name}")  # error: CMD005


async def publish_season(boards: BoardRedis, season: int, scores: dict[str, float]) -> None:
    key = board_key(f"season:{season}")
    await boards.zadd(key, scores)
    await boards.expire(key, BOARD_TTL + random.randint(0, 3600))
    await boards.hset(f"board:meta:season:{season}", mapping={"players": len(scores)})  # error: TTL006


async def top_players(boards: BoardRedis, name: str) -> list[bytes]:
    return await boards.zrevrange(f"board:{name}:topPlayers", 0, 9)  # error: KEY007


async def follow_live(boards: BoardRedis) -> None:
    pubsub = boards.pubsub()
    await pubsub.subscribe(*[f"board:live:{shard}" for shard in range(64)])  # error: PUB002
    async for message in pubsub.listen():
        if message["type"] == "message":
            print(message["channel"], message["data"])
