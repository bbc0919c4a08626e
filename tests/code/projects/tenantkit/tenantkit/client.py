"""TenantRedis: a redis.Redis that knows its tenant, and the factory the rest of the code uses."""

from __future__ import annotations

import os
from typing import Any

import redis

REDIS_HOST = os.environ.get("TENANT_REDIS_HOST", "localhost")


class TenantRedis(redis.Redis):
    def __init__(self, tenant: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tenant = tenant

    def tkey(self, *parts: object) -> str:
        return ":".join((self.tenant, *map(str, parts)))

    def purge_tenant(self) -> int:
        """Delete every key of the tenant (offboarding)."""
        removed = 0
        for key in self.keys(self.tenant + ":*"):  # error: CMD001
            removed += int(self.unlink(key))
        return removed

    def purge_tenant_gently(self) -> int:
        removed = 0
        for key in self.scan_iter(match=self.tenant + ":*", count=500):
            removed += int(self.unlink(key))
        return removed

    def settings(self) -> dict[bytes, bytes]:
        return self.hgetall(self.tkey("settings"))  # error: CMD005

    def remember(self, name: str, value: str) -> None:
        self.set(self.tkey("memo", name), value)  # error: TTL006

    def remember_for(self, name: str, value: str, ttl: int) -> None:
        self.set(self.tkey("memo", name), value, ex=ttl)


def get_client(tenant: str) -> TenantRedis:
    return TenantRedis(tenant, host=REDIS_HOST, port=6379, socket_timeout=2)


def reporting_client(tenant: str) -> TenantRedis:
    """The reporting replica keeps its data in database 3."""
    return TenantRedis(tenant, host=REDIS_HOST, port=6379, db=3)  # error: CMD006
