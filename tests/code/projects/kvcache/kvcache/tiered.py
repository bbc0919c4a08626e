"""A near cache in process memory in front of the shared Redis cache."""

from __future__ import annotations

from typing import Any

from .backend import RedisCache, cache
from .memory import MemoryCache

NEAR_TTL = 5


class TieredCache:
    def __init__(self, far: RedisCache, near: MemoryCache | None = None) -> None:
        self.far = far
        self.near = near or MemoryCache(default_ttl=NEAR_TTL)

    def get(self, key: str, default: Any = None) -> Any:
        value = self.near.get(key)
        if value is None:
            value = self.far.get(key)
            if value is not None:
                self.near.set(key, value, ttl=NEAR_TTL)
        return default if value is None else value

    def set(self, key: str, value: Any, ttl: int | None = None) -> None:
        self.far.set(key, value, ttl=ttl)
        self.near.delete(key)

    def hgetall(self, key: str, default: dict[str, Any] | None = None) -> dict[str, Any]:
        table = self.near.hgetall(key)
        if not table:
            table = self.far.hgetall(key, default={})
            for field, value in table.items():
                self.near.hset(key, field, value, ttl=NEAR_TTL)
        return table or (default if default is not None else {})

    def zadd(self, key: str, member: str, score: float, ttl: int | None = None) -> None:
        self.far.zadd(key, member, score, ttl=ttl)
        self.near.delete(key)

    def keys(self, pattern: str = "*") -> list[str]:
        return sorted(set(self.far.keys(pattern)) | set(self.near.keys(pattern)))

    def flushall(self) -> None:
        self.near.flushall()
        self.far.flushall()

    def expire(self, key: str, ttl: int) -> bool:
        self.near.expire(key, min(ttl, NEAR_TTL))
        return self.far.expire(key, ttl)


def shared() -> TieredCache:
    return TieredCache(cache)


def top_hits() -> list[str]:
    return cache.zrange("stats:hits", 0, -1, desc=True)


def summary() -> dict[str, Any]:
    return cache.hgetall("stats:summary", default={})
