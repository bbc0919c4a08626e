"""The team's cache layer: the one module that talks to Redis, so services never import redis themselves.

Values are JSON strings stored under `cache:<key>`. The layer grew by accretion: `set` only expires a key
when someone passes a TTL, `keys()` and `clear()` were written for an admin page, and `get_many` sends
whatever list it is handed in one MGET.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterable, Mapping
from typing import Any

import redis

DEFAULT_TTL = 600
CACHE_URL = os.environ.get("CACHE_URL", "redis://localhost:6379/0")


class RedisCache:
    """A thin JSON cache over one `redis.Redis`."""

    PREFIX = "cache"
    BULK_TTL = 3600

    def __init__(self, url: str, default_ttl: int | None = None) -> None:
        self._r = redis.Redis.from_url(url, socket_timeout=2, health_check_interval=30)
        self.default_ttl = default_ttl

    def _key(self, key: str) -> str:
        return f"{self.PREFIX}:{key}"

    @property
    def client(self) -> redis.Redis:
        """The raw client, for the few callers that need a command the layer does not wrap."""
        return self._r

    def get(self, key: str, default: Any = None) -> Any:
        raw = self._r.get(self._key(key))
        return default if raw is None else json.loads(raw)

    def set(self, key: str, value: Any, ttl: int | None = None) -> None:
        ttl = ttl if ttl is not None else self.default_ttl
        data = json.dumps(value, separators=(",", ":"))
        if ttl is None:
            self._r.set(self._key(key), data)  # error: TTL006
        else:
            self._r.set(self._key(key), data, ex=ttl)

    def add(self, key: str, value: Any, ttl: int = DEFAULT_TTL) -> bool:
        """Store only when absent, like Django's `cache.add`."""
        return bool(self._r.set(self._key(key), json.dumps(value), nx=True, ex=ttl))

    def delete(self, *keys: str) -> int:
        if not keys:
            return 0
        return int(self._r.delete(*[self._key(k) for k in keys]))

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        names = list(keys)
        if not names:
            return {}
        values = self._r.mget([self._key(k) for k in names])
        return {name: json.loads(raw) for name, raw in zip(names, values, strict=True) if raw is not None}

    def set_many(self, mapping: Mapping[str, Any]) -> None:
        pipe = self._r.pipeline(transaction=False)
        for key, value in mapping.items():
            pipe.set(self._key(key), json.dumps(value), ex=self.BULK_TTL)  # error: TTL007
        pipe.execute()

    def set_many_spread(self, mapping: Mapping[str, Any], ttl: int = DEFAULT_TTL) -> None:
        """What `set_many` should have been: a TTL per key with some jitter, so they do not expire together."""
        pipe = self._r.pipeline(transaction=False)
        for key, value in mapping.items():
            pipe.set(self._key(key), json.dumps(value), ex=ttl + random.randint(0, ttl // 10))
        pipe.execute()

    def incr(self, key: str, amount: int = 1) -> int:
        return int(self._r.incr(self._key(key), amount))  # error: TTL006

    def expire(self, key: str, seconds: int) -> bool:
        return bool(self._r.expire(self._key(key), seconds))

    def ttl(self, key: str) -> int:
        return int(self._r.ttl(self._key(key)))

    def keys(self, pattern: str = "*") -> list[str]:
        start = len(self.PREFIX) + 1
        return [name.decode()[start:] for name in self._r.keys(f"{self.PREFIX}:{pattern}")]  # error: CMD001

    def iter_keys(self, pattern: str = "*") -> Iterable[bytes]:
        return self._r.scan_iter(match=f"{self.PREFIX}:{pattern}", count=500)

    def hgetall(self, key: str) -> dict[bytes, bytes]:
        """Kept for the old profile code, which cached whole hashes."""
        return self._r.hgetall(self._key(key))  # error: CMD005, KEY016

    def clear(self) -> None:
        """Empty the cache (the cache "has its own database", so only cache keys go... in theory)."""
        self._r.flushdb()  # error: CMD002

    def ping(self) -> bool:
        return bool(self._r.ping())


class TaggedCache(RedisCache):
    """Cache entries grouped under tags, so that one product change can drop every page that shows it."""

    def tag(self, tag: str, *keys: str) -> None:
        self._r.sadd(f"tag:members:{tag}", *keys)  # error: TTL006

    def tag_for(self, tag: str, key: str, ttl: int = DEFAULT_TTL) -> None:
        name = f"tag:members:{tag}"
        self._r.sadd(name, key)
        self._r.expire(name, ttl)

    def invalidate(self, tag: str) -> int:
        members = self._r.smembers(f"tag:members:{tag}")  # error: CMD005
        if members:
            self._r.unlink(*[self._key(member.decode()) for member in members])
        self._r.delete(f"tag:members:{tag}")  # error: CMD008
        return len(members)

    def invalidate_gently(self, tag: str) -> int:
        name = f"tag:members:{tag}"
        dropped = 0
        for member in self._r.sscan_iter(name, count=200):
            self._r.unlink(self._key(member.decode()))
            dropped += 1
        self._r.unlink(name)
        return dropped


cache = RedisCache(CACHE_URL)
tagged = TaggedCache(CACHE_URL, default_ttl=DEFAULT_TTL)
