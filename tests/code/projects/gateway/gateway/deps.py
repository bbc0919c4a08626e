"""Dependencies injected into the routes: the Redis client, created lazily once per process."""

from __future__ import annotations

import os
from functools import lru_cache

import redis.asyncio as aioredis
from redis.asyncio import Redis

REDIS_URL = os.environ.get("GATEWAY_REDIS_URL", "redis://localhost:6379/0")


@lru_cache(maxsize=1)
def get_redis() -> Redis:
    return aioredis.from_url(REDIS_URL, socket_timeout=1.0, health_check_interval=30)


def get_events_redis() -> Redis:
    """Pub/sub needs its own connection pool: subscribers hold their connection for ever."""
    return Redis(host=os.environ.get("EVENTS_HOST", "localhost"), port=6379, socket_keepalive=True)


async def close_all() -> None:
    await get_redis().aclose()
