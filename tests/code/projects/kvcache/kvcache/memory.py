"""The in-memory twin of RedisCache: the same methods on dicts, for tests and single-process tools.

Nothing here talks to Redis. Method names and signatures match `RedisCache` so that either can be passed
where a cache is expected.
"""

from __future__ import annotations

import fnmatch
import time
from collections.abc import Iterable, Iterator
from typing import Any

from .serializers import dumps, loads

DEFAULT_TTL = 300


class MemoryCache:
    def __init__(self, prefix: str = "kv", default_ttl: int = DEFAULT_TTL) -> None:
        self.prefix = prefix
        self.default_ttl = default_ttl
        self._data: dict[str, tuple[Any, float | None]] = {}

    def _alive(self, key: str) -> bool:
        entry = self._data.get(key)
        if entry is None:
            return False
        if entry[1] is not None and entry[1] < time.monotonic():
            del self._data[key]
            return False
        return True

    def _deadline(self, ttl: int | None) -> float | None:
        ttl = self.default_ttl if ttl is None else ttl
        return time.monotonic() + ttl if ttl > 0 else None

    def get(self, key: str, default: Any = None) -> Any:
        return loads(self._data[key][0]) if self._alive(key) else default

    def set(self, key: str, value: Any, ttl: int | None = None) -> None:
        self._data[key] = (dumps(value), self._deadline(ttl))

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        return {k: self.get(k) for k in keys if self._alive(k)}

    def incr(self, key: str, by: int = 1, ttl: int | None = None) -> int:
        value = int(self.get(key, 0)) + by
        self.set(key, value, ttl)
        return value

    def expire(self, key: str, ttl: int) -> bool:
        if not self._alive(key):
            return False
        self._data[key] = (self._data[key][0], self._deadline(ttl))
        return True

    def delete(self, *keys: str) -> int:
        return sum(self._data.pop(k, None) is not None for k in keys)

    def hset(self, key: str, field: str, value: Any, ttl: int | None = None) -> None:
        table = self.get(key, {})
        table[field] = value
        self.set(key, table, ttl)

    def hgetall(self, key: str, default: dict[str, Any] | None = None) -> dict[str, Any]:
        table = self.get(key)
        return dict(table) if table else (default if default is not None else {})

    def zadd(self, key: str, member: str, score: float, ttl: int | None = None) -> None:
        board = self.get(key, {})
        board[member] = score
        self.set(key, board, ttl)

    def zrange(self, key: str, start: int = 0, end: int = -1, desc: bool = False) -> list[str]:
        ranked = sorted(self.get(key, {}).items(), key=lambda item: item[1], reverse=desc)
        stop = None if end == -1 else end + 1
        return [member for member, _ in ranked[start:stop]]

    def lpush(self, key: str, *values: Any) -> int:
        items = list(reversed(values)) + list(self.get(key, []))
        self.set(key, items)
        return len(items)

    def smembers(self, key: str) -> set[str]:
        return set(self.get(key, []))

    def keys(self, pattern: str = "*") -> list[str]:
        return [k for k in list(self._data.keys()) if self._alive(k) and fnmatch.fnmatchcase(k, pattern)]

    def iter_keys(self, pattern: str = "*", **_: Any) -> Iterator[str]:
        yield from self.keys(pattern)

    def delete_pattern(self, pattern: str) -> int:
        return self.delete(*self.keys(pattern))

    def flushall(self) -> None:
        self._data.clear()
