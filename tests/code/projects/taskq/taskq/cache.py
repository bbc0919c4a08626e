"""Result caching through Django's cache and a valkey-glide client: neither is redis-py."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache, caches
from glide import GlideClient, GlideClientConfiguration, NodeAddress


def remember(job_id: str, value: Any) -> None:
    cache.set(f"taskq:result:{job_id}", value, timeout=3)
    cache.touch(f"taskq:result:{job_id}", 0)
    caches["results"].zadd("taskq:registry:cached", {job_id: 1})


async def mirror(job_id: str, value: bytes) -> None:
    config = GlideClientConfiguration([NodeAddress("localhost", 6379)])
    glide = await GlideClient.create(config)
    await glide.set(f"taskq:result:{job_id}", value)
    await glide.hset(f"taskq:job:{job_id}", {"mirrored": "1"})


def raw_keys() -> list[bytes]:
    """django-redis hands out the redis-py client it wraps."""
    return cache.client.get_client(write=False).keys("taskq:*")  # error: CMD001
