"""`@cached` and friends: memoise function results in whichever cache the application configured.

The same calls on the module-level `cache` (a RedisCache) appear in every module that records stats:
they are the library's methods, whatever they are named.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from .backend import RedisCache, cache
from .memory import MemoryCache

F = TypeVar("F", bound=Callable[..., Any])


def _call_key(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    digest = hashlib.sha1(repr((args, sorted(kwargs.items()))).encode(), usedforsecurity=False).hexdigest()
    return f"call:{fn.__module__}:{fn.__qualname__}:{digest}"


def cached(store: RedisCache | MemoryCache = cache, ttl: int = 60) -> Callable[[F], F]:
    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = _call_key(fn, args, kwargs)
            hit = store.get(key)
            if hit is not None:
                store.zadd("stats:hits", fn.__qualname__, 1, ttl=3600)
                return hit
            value = fn(*args, **kwargs)
            store.set(key, value, ttl=ttl)
            store.lpush("stats:misses", fn.__qualname__)
            return value

        return wrapper  # type: ignore[return-value]

    return decorate


def hit_report() -> dict[str, Any]:
    return {
        "hits": cache.zrange("stats:hits", 0, -1, desc=True),
        "keys": cache.keys("call:*"),
        "summary": cache.hgetall("stats:summary", default={}),
    }


def forget(fn: Callable[..., Any], store: RedisCache | MemoryCache = cache) -> int:
    return store.delete_pattern(f"call:{fn.__module__}:{fn.__qualname__}:*")


def reset_stats(store: Any) -> None:
    """`store` is any cache of this library: the calls below use the library's signatures."""
    store.hgetall("stats:summary", default={})
    store.zadd("stats:hits", "reset", 0, ttl=60)
    store.expire("stats:misses", 0)
    store.flushall()
