"""The raw redis-py connections behind django-redis, for what the cache API cannot do (lists, sets, pipelines)."""

from __future__ import annotations

from django_redis import get_redis_connection


def get_client():  # type: ignore[no-untyped-def]
    """The connection of `CACHES["default"]`."""
    return get_redis_connection("default")


def get_queue_client():  # type: ignore[no-untyped-def]
    """Job queues live on their own instance (`CACHES["queues"]`)."""
    return get_redis_connection("queues")
