"""An in-process cache with the same methods as RedisCache, for tests, the CLI and single-process tools.

None of this is Redis: the methods share their names with Redis commands because they share them with
`RedisCache`, and the data lives in a dict.
"""

from __future__ import annotations

import fnmatch
import os
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .cache import DEFAULT_TTL, RedisCache


class Cache(Protocol):
    """What services may rely on, whichever cache they were given."""

    def get(self, key: str, default: Any = None) -> Any: ...
    def set(self, key: str, value: Any, ttl: int | None = None) -> None: ...
    def delete(self, *keys: str) -> int: ...
    def get_many(self, keys: Iterable[str]) -> dict[str, Any]: ...
    def incr(self, key: str, amount: int = 1) -> int: ...
    def expire(self, key: str, seconds: int) -> bool: ...
    def keys(self, pattern: str = "*") -> list[str]: ...
    def clear(self) -> None: ...


class LocalCache:
    """A dict of key → (value, deadline), guarded by a lock."""

    def __init__(self, default_ttl: int | None = None) -> None:
        self._data: dict[str, tuple[Any, float | None]] = {}
        self._lock = threading.Lock()
        self.default_ttl = default_ttl

    def _alive(self, key: str) -> bool:
        item = self._data.get(key)
        if item is None:
            return False
        deadline = item[1]
        if deadline is not None and deadline < time.monotonic():
            self._data.pop(key, None)
            return False
        return True

    def get(self, key: str, default: Any = None) -> Any:
        with self._lock:
            return self._data[key][0] if self._alive(key) else default

    def set(self, key: str, value: Any, ttl: int | None = None) -> None:
        ttl = ttl if ttl is not None else self.default_ttl
        deadline = None if ttl is None else time.monotonic() + ttl
        with self._lock:
            self._data[key] = (value, deadline)

    def delete(self, *keys: str) -> int:
        with self._lock:
            return sum(self._data.pop(key, None) is not None for key in keys)

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        found = {}
        for key in keys:
            value = self.get(key)
            if value is not None:
                found[key] = value
        return found

    def set_many(self, mapping: Mapping[str, Any], ttl: int = DEFAULT_TTL) -> None:
        for key, value in mapping.items():
            self.set(key, value, ttl=ttl)

    def incr(self, key: str, amount: int = 1) -> int:
        with self._lock:
            value, deadline = self._data.get(key, (0, None))
            value = int(value) + amount
            self._data[key] = (value, deadline)
            return value

    def expire(self, key: str, seconds: int) -> bool:
        with self._lock:
            if not self._alive(key):
                return False
            self._data[key] = (self._data[key][0], time.monotonic() + seconds)
            return True

    def keys(self, pattern: str = "*") -> list[str]:
        with self._lock:
            return [key for key in list(self._data.keys()) if fnmatch.fnmatchcase(key, pattern)]

    def hgetall(self, key: str) -> dict[str, Any]:
        value = self.get(key, {})
        return dict(value) if isinstance(value, dict) else {}

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


def make_cache(url: str | None = None, default_ttl: int | None = DEFAULT_TTL) -> Cache:
    """RedisCache when a URL is configured, LocalCache otherwise (tests, `manage.py shell`)."""
    url = url or os.environ.get("CACHE_URL")
    if url:
        return RedisCache(url, default_ttl=default_ttl)
    return LocalCache(default_ttl=default_ttl)


def warm(target: Cache, rows: Mapping[str, Any]) -> None:
    """Prime any cache with rows read from the database at start-up."""
    for key, value in rows.items():
        target.set(key, value, ttl=DEFAULT_TTL)
    stale = list(target.keys("tmp:*"))
    target.delete(*stale)
    target.incr("warmups")
    target.expire("warmups", 86400)


def snapshot(local: LocalCache) -> dict[str, Any]:
    """Copy what a LocalCache holds, for a debug endpoint."""
    result = {key: local.get(key) for key in local.keys("*")}
    local.clear()
    return result
