"""Per-tenant locks for jobs that must not overlap (imports, exports, billing runs)."""

from __future__ import annotations

import uuid

from .client import TenantRedis

RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def acquire(conn: TenantRedis, name: str, ttl: int = 30) -> str | None:
    token = uuid.uuid4().hex
    return token if conn.set(conn.tkey("lock", name), token, nx=True, ex=ttl) else None


def acquire_legacy(conn: TenantRedis, name: str, ttl: int = 30) -> bool:
    key = conn.tkey("lock", name)
    if conn.setnx(key, uuid.uuid4().hex):  # error: TTL008
        conn.expire(key, ttl)
        return True
    return False


def release(conn: TenantRedis, name: str, token: str) -> bool:
    return bool(conn.eval(RELEASE, 1, conn.tkey("lock", name), token))  # error: CMD009


def release_registered(conn: TenantRedis, name: str, token: str) -> bool:
    script = conn.register_script(RELEASE)
    return bool(script(keys=[conn.tkey("lock", name)], args=[token]))
