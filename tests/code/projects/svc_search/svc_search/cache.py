"""Redis clients of the search service: the async cache for the API, a sync one for management commands."""

from __future__ import annotations

import redis
import redis.asyncio as aioredis
from redis.asyncio import Redis

from svc_search.config import settings

#: The API's cache, shared by every request handler of the process.
cache: Redis = aioredis.from_url(settings.REDIS_URL, max_connections=50)

#: Search statistics go to the analytics team's instance, in the database they reserved for us.
analytics = aioredis.Redis(host=settings.ANALYTICS_REDIS_HOST, port=6379, db=4)  # error: CMD006


async def get_cache() -> Redis:
    """FastAPI dependency: handlers receive the shared client, tests override it with a fake."""
    return cache


def sync_cache() -> redis.StrictRedis:
    """For the Django management commands and cron scripts, which are synchronous."""
    return redis.StrictRedis.from_url(settings.REDIS_URL, socket_timeout=10)
