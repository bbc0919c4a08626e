"""Helpers around Django's cache framework: fragments, per-user invalidation, versions and presence.

`cache` is `django.core.cache.cache`, with django-redis behind it. Its API is Django's, not redis-py's:
`timeout=` instead of `ex=`, `get_many`/`set_many`, `delete_pattern`, `touch(key, 0)` to expire an entry
now, and (django-redis 5.4) set operations such as `sadd` and `sismember` with their own signatures.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache
from redis import Redis

T = TypeVar("T")
FRAGMENT_TIMEOUT = 300
PRESENCE_TIMEOUT = 120


def fragment_key(name: str, *parts: object) -> str:
    digest = hashlib.md5(":".join(str(p) for p in parts).encode(), usedforsecurity=False).hexdigest()
    return f"fragment:{name}:{digest}"


def remember(key: str, build: Callable[[], T], timeout: int = FRAGMENT_TIMEOUT) -> T:
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, timeout=timeout)
    return value


def remember_briefly(key: str, build: Callable[[], T]) -> T:
    """For pages that change every few seconds (live scores): three seconds are enough to absorb a spike."""
    value = cache.get(key, None)
    if value is None:
        value = build()
        cache.set(key, value, timeout=3)
    return value


def user_fragments(uid: int) -> dict[str, Any]:
    return cache.get_many([f"fragment:user:{uid}:{part}" for part in ("header", "sidebar", "footer")])


def store_user_fragments(uid: int, fragments: dict[str, str]) -> None:
    rows = {f"fragment:user:{uid}:{part}": html for part, html in fragments.items()}
    cache.set_many(rows, timeout=FRAGMENT_TIMEOUT)


def invalidate_user(uid: int) -> int:
    return int(cache.delete_pattern(f"fragment:user:{uid}:*", itersize=200))


def expire_now(key: str) -> bool:
    """Django's way to drop an entry while keeping concurrent readers happy: a zero timeout."""
    return bool(cache.touch(key, 0))


def bump(name: str) -> int:
    try:
        return int(cache.incr(f"version:{name}", delta=1))
    except ValueError:
        cache.set(f"version:{name}", 1, timeout=None)
        return 1


def mark_online(uid: int) -> None:
    cache.sadd("presence:online", uid)
    cache.expire("presence:online", timeout=PRESENCE_TIMEOUT)


def is_online(uid: int) -> bool:
    return bool(cache.sismember("presence:online", uid))


def raw_client() -> Redis:
    """django-redis's own redis-py client, for the commands the cache API does not offer."""
    return cache.client.get_client(write=True)
