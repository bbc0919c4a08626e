"""Clients created once at import time and shared by every module (the usual Flask `extensions.py`)."""

from __future__ import annotations

import os

import redis
from redis import StrictRedis

#: Carts, sessions, orders: the main instance.
redis_client = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://localhost:6379/0"))

#: Product and price caches live on a separate, evicting instance.
cache = StrictRedis(
    host=os.environ.get("CACHE_HOST", "localhost"),
    port=6379,
    db=0,
    socket_timeout=0.5,
)

#: The old analytics box still keeps its counters in database 4.
analytics = redis.Redis(host=os.environ.get("ANALYTICS_HOST", "localhost"), port=6379, db=4)  # error: CMD006

#: Per-process memo of things that never change while the process runs (category names, tax tables).
local_cache: dict[str, object] = {}
