"""The Redis clients of the service, created once at import from the environment."""

from __future__ import annotations

import os
import random

import redis

REDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")

#: The one client the request handlers and workers share; bytes in, bytes out.
store = redis.Redis.from_url(REDIS_URL, socket_timeout=2.0, health_check_interval=30)

#: Analytics were "temporarily" put into database 2 of the same instance.
analytics = redis.Redis(host=os.environ.get("REDIS_HOST", "localhost"), port=6379, db=2)  # error: CMD006

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


def ttl(seconds: int) -> int:
    """`seconds` plus up to 10% random spread, so keys written in one batch do not all expire together."""
    return seconds + random.randint(0, max(1, seconds // 10))
