"""Connection settings for the billing service.

Everything comes from the environment (twelve-factor): the deployment sets BILLING_REDIS_HOST and friends,
and one connection pool per process is shared by every repository and service.
"""

from __future__ import annotations

import os
import random

from redis import ConnectionPool, Redis


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


POOL = ConnectionPool(
    host=os.environ.get("BILLING_REDIS_HOST", "localhost"),
    port=_env_int("BILLING_REDIS_PORT", 6379),
    db=_env_int("BILLING_REDIS_DB", 0),
    password=os.environ.get("BILLING_REDIS_PASSWORD") or None,
    max_connections=_env_int("BILLING_REDIS_MAX_CONNECTIONS", 32),
    health_check_interval=30,
)

client = Redis(connection_pool=POOL)

# Month-end reports were moved to "their own database" years ago so that FLUSHDB could not hit invoices.
REPORTS_POOL = ConnectionPool(host=os.environ.get("BILLING_REDIS_HOST", "localhost"), port=6379, db=3)  # error: CMD006
reports_client = Redis(connection_pool=REPORTS_POOL)

INVOICE_TTL = 14 * 24 * 3600
CUSTOMER_TTL = 24 * 3600
LOCK_TTL = 30
REMINDER_TTL = 3 * 24 * 3600


def jittered(ttl: int) -> int:
    """A TTL with up to 10 % of random spread, so keys written together do not expire together (000 §过期)."""
    return ttl + random.randint(0, max(1, ttl // 10))
