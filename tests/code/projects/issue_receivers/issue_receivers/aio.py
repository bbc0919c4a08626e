"""The asyncio side: redis.asyncio clients, clusters, attributes and annotated parameters."""

from __future__ import annotations

import redis.asyncio as aioredis
from redis.asyncio import Redis as AsyncRedis
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster

client = aioredis.Redis(host="localhost", port=6379)
url_client = aioredis.from_url("redis://localhost:6379/0")
strict_client = aioredis.StrictRedis(host="localhost", port=6379)


async def session_keys() -> list[bytes]:
    return await client.keys("session:*")  # error: CMD001


async def profile(uid: int) -> dict[bytes, bytes]:
    return await url_client.hgetall(f"user:profile:{uid}")  # error: CMD005


async def reset() -> None:
    await strict_client.flushall()  # error: CMD002


async def reset_in_background() -> None:
    await strict_client.flushall(asynchronous=True)


class Notifier:
    def __init__(self) -> None:
        self.redis = AsyncRedis(host="localhost", port=6379)

    async def next_notification(self) -> tuple[bytes, bytes] | None:
        return await self.redis.blpop(["queue:notifications"], timeout=0)  # error: PUB001

    async def next_notification_or_none(self) -> tuple[bytes, bytes] | None:
        return await self.redis.blpop(["queue:notifications"], timeout=2)


async def drop_followers(r: aioredis.Redis, uid: int) -> None:
    await r.delete(f"user:follower:{uid}")  # error: CMD008


async def cluster_followers(uid: int) -> set[bytes]:
    rc = AsyncRedisCluster(host="localhost", port=7000)
    return await rc.smembers(f"user:follower:{uid}")  # error: CMD005


async def cache_pages(pages: dict[str, bytes]) -> None:
    async with client.pipeline(transaction=False) as pipe:
        for path, html in pages.items():
            pipe.set(f"cache:page:{path}", html)  # error: TTL006
        await pipe.execute()


async def select_reports(r: AsyncRedis) -> None:
    await r.select(4)  # error: CMD006
