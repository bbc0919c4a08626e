"""The one redis-py client of the service, and the day bucket every counter uses."""

from __future__ import annotations

import functools
import os
import time

import redis


@functools.cache
def get_redis() -> redis.Redis:
    return redis.Redis.from_url(os.environ.get("METER_REDIS_URL", "redis://localhost:6379/0"), socket_timeout=2)


def today() -> str:
    return time.strftime("%Y%m%d")


def meter_key(customer: str, day: str) -> str:
    return f"meter:{customer}:{day}"
