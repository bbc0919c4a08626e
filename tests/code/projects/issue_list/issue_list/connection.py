"""Clients of the service: the shared one, the asyncio one, and the extra databases legacy jobs still use."""

from __future__ import annotations

import os
import random

import redis
import redis.asyncio as aioredis

REDIS_HOST = os.environ.get("REDIS_HOST", "localhost")

#: The client every module imports.
redis_client = redis.Redis(host=REDIS_HOST, port=6379, db=0)

#: The asyncio client of the web handlers.
async_client = aioredis.Redis(host=REDIS_HOST, port=6379)

#: Reports were moved to another logical database instead of another instance (001 forbids it).
reports_client = redis.Redis(host=REDIS_HOST, port=6379, db=3)  # error: CMD006
audit_client = redis.from_url("redis://audit-redis:6379/5")  # error: CMD006
metrics_client = aioredis.from_url("redis://metrics-redis:6379/0")


def jittered(seconds: int) -> int:
    """A TTL with up to 10% random spread, so keys written together do not expire together (000 §过期)."""
    return seconds + random.randint(0, max(1, seconds // 10))


def report_row_count(report_id: str) -> int:
    value = reports_client.get(f"stats:report:{report_id}")
    return int(value or 0)


def legacy_session_store() -> redis.Redis:
    return redis.Redis(host=REDIS_HOST, port=6380, db=1)  # error: CMD006
