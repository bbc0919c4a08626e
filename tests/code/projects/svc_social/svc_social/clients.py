"""Connections of the social API (FastAPI on asyncio).

Counters were moved to their own logical database during the 2021 incident and never moved back;
everything else shares one pooled connection.
"""

from __future__ import annotations

import os

from redis import asyncio as aioredis

REDIS_URL = os.environ.get("SOCIAL_REDIS_URL", "redis://localhost:6379/0")
REDIS_HOST = os.environ.get("SOCIAL_REDIS_HOST", "localhost")

redis_client = aioredis.from_url(REDIS_URL, max_connections=200, health_check_interval=30)

counters_client = aioredis.Redis(host=REDIS_HOST, port=6379, db=1)  # error: CMD006


async def get_redis() -> aioredis.Redis:
    """FastAPI dependency: `r: aioredis.Redis = Depends(get_redis)`."""
    return redis_client


async def close_all() -> None:
    await redis_client.aclose()
    await counters_client.aclose()
