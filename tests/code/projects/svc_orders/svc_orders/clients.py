"""Redis connections of the order service.

One pooled client serves the request path (carts, stock, order status). The reporting
instance is a separate box that ops still keep in logical database 3.
"""

from __future__ import annotations

import os

import redis

REDIS_URL = os.environ.get("ORDERS_REDIS_URL", "redis://localhost:6379/0")
REPORTING_HOST = os.environ.get("REPORTING_REDIS_HOST", "localhost")

_pool = redis.ConnectionPool.from_url(REDIS_URL, max_connections=64, health_check_interval=30)

#: Shared by every request handler.
primary = redis.Redis(connection_pool=_pool)

#: Nightly exports read the revenue reports from here.
reporting = redis.StrictRedis(host=REPORTING_HOST, port=6380, db=3, socket_timeout=5)  # error: CMD006


def get_redis() -> redis.Redis:
    """Handlers call this instead of importing `primary`, so tests can swap the client."""
    return primary
