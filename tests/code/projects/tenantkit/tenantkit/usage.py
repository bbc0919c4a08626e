"""Usage metering: API calls per tenant and day, rolled up into the monthly invoice."""

from __future__ import annotations

import random
import time
from typing import Any

from .client import TenantRedis, get_client
from .registry import Tenant

DAY_TTL = 40 * 86400


def record_call(tenant: Tenant, endpoint: str) -> None:
    conn = tenant.connection
    key = conn.tkey("usage", time.strftime("%Y%m%d"))
    conn.hincrby(key, endpoint, 1)
    conn.expire(key, DAY_TTL)


def record_calls(client: TenantRedis, endpoint: str, days: list[str]) -> None:
    pipe = client.pipeline(transaction=False)
    for day in days:
        key = client.tkey("usage", day)
        pipe.hincrby(key, endpoint, 1)
        pipe.expire(key, DAY_TTL + random.randint(0, 3600))
    pipe.execute()


def monthly_total(tenant_slug: str, month: str) -> int:
    client = get_client(tenant_slug)
    total = 0
    for day in range(1, 32):
        counts = client.hgetall(client.tkey("usage", f"{month}{day:02d}"))  # error: CMD005
        total += sum(int(v) for v in counts.values())
    return total


def monthly_total_batched(client: TenantRedis, month: str) -> int:
    pipe = client.pipeline(transaction=False)
    for day in range(1, 32):
        pipe.hvals(client.tkey("usage", f"{month}{day:02d}"))  # error: CMD005
    return sum(int(v) for values in pipe.execute() for v in values)


def backfill(client: TenantRedis, month: str) -> None:
    for day in range(1, 32):
        for hour in range(24):
            client.hincrby(client.tkey("usage", f"{month}{day:02d}"), f"hour_{hour}", 0)  # error: BAT002, TTL006


def daily_breakdown(tenant: str, day: str, pool: dict[str, Any]) -> dict[bytes, bytes]:
    """`pool` is the web app's per-tenant connection cache."""
    client: TenantRedis = pool[tenant]
    return client.hgetall(client.tkey("usage", day))  # error: CMD005
