"""The Redis backend: one namespaced cache over a redis-py client.

The public methods copy Redis command names because users know them, but their signatures are the
library's own: a default for reads, a `ttl` for writes, `zadd(key, member, score)` for one member,
`keys(pattern)` relative to the namespace. Only `self._client` is redis-py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from typing import Any

import redis

from .serializers import dumps, loads

DEFAULT_TTL = 300


class RedisCache:
    def __init__(self, client: redis.Redis | None = None, prefix: str = "kv", default_ttl: int = DEFAULT_TTL) -> None:
        self._client = client if client is not None else redis.Redis(socket_timeout=1)
        self.prefix = prefix
        self.default_ttl = default_ttl

    @classmethod
    def from_url(cls, url: str, prefix: str = "kv", default_ttl: int = DEFAULT_TTL) -> RedisCache:
        return cls(redis.Redis.from_url(url, socket_timeout=1), prefix=prefix, default_ttl=default_ttl)

    def _key(self, key: str) -> str:
        return f"{self.prefix}:{key}"

    # ---- strings -------------------------------------------------------------------------------------

    def get(self, key: str, default: Any = None) -> Any:
        raw = self._client.get(self._key(key))
        return default if raw is None else loads(raw)

    def set(self, key: str, value: Any, ttl: int | None = None) -> None:
        ttl = self.default_ttl if ttl is None else ttl
        if ttl > 0:
            self._client.set(self._key(key), dumps(value), ex=ttl)
        else:
            self._client.set(self._key(key), dumps(value))  # error: TTL006

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        names = list(keys)
        values = self._client.mget([self._key(k) for k in names])
        return {k: loads(v) for k, v in zip(names, values, strict=True) if v is not None}

    def incr(self, key: str, by: int = 1, ttl: int | None = None) -> int:
        name = self._key(key)
        pipe = self._client.pipeline(transaction=False)
        pipe.incrby(name, by).expire(name, ttl or self.default_ttl)
        value, _ = pipe.execute()
        return int(value)

    def expire(self, key: str, ttl: int) -> bool:
        return bool(self._client.expire(self._key(key), ttl))

    def delete(self, *keys: str) -> int:
        return int(self._client.unlink(*[self._key(k) for k in keys])) if keys else 0

    # ---- collections ---------------------------------------------------------------------------------

    def hset(self, key: str, field: str, value: Any, ttl: int | None = None) -> None:
        name = self._key(key)
        pipe = self._client.pipeline(transaction=False)
        pipe.hset(name, field, dumps(value))
        pipe.expire(name, ttl or self.default_ttl)
        pipe.execute()

    def hgetall(self, key: str, default: dict[str, Any] | None = None) -> dict[str, Any]:
        raw = self._client.hgetall(self._key(key))  # error: CMD005
        if not raw:
            return default if default is not None else {}
        return {field.decode(): loads(value) for field, value in raw.items()}

    def zadd(self, key: str, member: str, score: float, ttl: int | None = None) -> None:
        name = self._key(key)
        self._client.zadd(name, {member: score})
        if ttl:
            self._client.expire(name, ttl)

    def zrange(self, key: str, start: int = 0, end: int = -1, desc: bool = False) -> list[str]:
        return [m.decode() for m in self._client.zrange(self._key(key), start, end, desc=desc)]

    def lpush(self, key: str, *values: Any) -> int:
        return int(self._client.lpush(self._key(key), *[dumps(v) for v in values]))  # error: TTL006

    def smembers(self, key: str) -> set[str]:
        return {m.decode() for m in self._client.smembers(self._key(key))}  # error: CMD005

    # ---- the namespace -------------------------------------------------------------------------------

    def keys(self, pattern: str = "*") -> list[str]:
        start = len(self.prefix) + 1
        return [k.decode()[start:] for k in self._client.keys(self._key(pattern))]  # error: CMD001

    def iter_keys(self, pattern: str = "*", **scan_options: Any) -> Iterator[str]:
        start = len(self.prefix) + 1
        for name in self._client.scan_iter(match=self._key(pattern), **scan_options):
            yield name.decode()[start:]

    def delete_pattern(self, pattern: str) -> int:
        removed = 0
        for name in self._client.scan_iter(match=self._key(pattern)):  # error: CMD010
            removed += int(self._client.unlink(name))
        return removed

    def flushall(self) -> None:
        """Empty the namespace's database (the cache is meant to own it)."""
        self._client.flushdb()  # error: CMD002

    def warm_counters(self, names: list[str]) -> None:
        for name in names:
            self._client.set(self._key(f"counter:{name}"), 0, ex=self.default_ttl + random.randint(0, 30))

    def warm_slots(self) -> None:
        for slot in range(256):
            self._client.set(f"kv:slot:{slot}", json.dumps({"slot": slot}), ex=3600)  # error: BAT002, TTL007

    def slots(self) -> list[bytes | None]:
        return self._client.mget([f"kv:slot:{slot}" for slot in range(256)])  # error: BAT001

    def archive(self, key: str) -> bool:
        """Move an entry to the archive database instead of deleting it."""
        return bool(self._client.move(self._key(key), 15))  # error: CMD006

    def encoding(self, key: str) -> Any:
        return self._client.debug_object(self._key(key))  # error: CMD004


cache = RedisCache.from_url("redis://localhost:6379/0")


def stats_summary() -> dict[str, Any]:
    """The hit statistics `kvcache.decorators` records, read through the library's own API."""
    return {
        "hits": cache.zrange("stats:hits", 0, -1, desc=True),
        "summary": cache.hgetall("stats:summary", default={}),
    }
