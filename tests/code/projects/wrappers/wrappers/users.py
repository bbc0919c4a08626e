"""User profiles and preferences, cached through the team's cache layer (never through redis-py).

Everything called `get`, `set`, `keys`, `clear` or `hgetall` here is a method of RedisCache, LocalCache or
a dict: the Redis commands they lead to are sent, and judged, inside `wrappers.cache`.
"""

from __future__ import annotations

import hashlib
from collections import Counter, OrderedDict
from typing import Any

from .cache import RedisCache, cache
from .local import Cache, LocalCache, make_cache

PROFILE_TTL = 900


class UserRepository:
    """Stands in for the SQL layer."""

    def __init__(self) -> None:
        self.rows: dict[int, dict[str, Any]] = {}

    def get(self, uid: int) -> dict[str, Any] | None:
        return self.rows.get(uid)

    def delete(self, uid: int) -> None:
        self.rows.pop(uid, None)

    def keys(self) -> list[int]:
        return sorted(self.rows.keys())


class UserService:
    def __init__(self, repo: UserRepository, redis_cache: RedisCache = cache) -> None:
        self.repo = repo
        self.redis_cache = redis_cache
        self.memo = LocalCache(default_ttl=30)
        self.prefs: dict[str, dict[str, str]] = {}

    def profile(self, uid: int) -> dict[str, Any] | None:
        hit = self.memo.get(f"profile:{uid}")
        if hit is not None:
            return hit
        cached = self.redis_cache.get(f"user:profile:{uid}")
        if cached is None:
            cached = self.repo.get(uid)
            if cached is not None:
                self.redis_cache.set(f"user:profile:{uid}", cached)
                self.redis_cache.set("userProfile:" + str(uid), cached, ttl=PROFILE_TTL)
        self.memo.set(f"profile:{uid}", cached)
        return cached

    def profiles(self, uids: list[int]) -> dict[str, Any]:
        return self.redis_cache.get_many([f"user:profile:{uid}" for uid in range(5000) if uid in uids])

    def legacy_profile(self, uid: int) -> dict[bytes, bytes]:
        return self.redis_cache.hgetall(f"user:legacy:{uid}")

    def remove(self, uid: int) -> None:
        self.repo.delete(uid)
        self.redis_cache.delete(f"user:profile:{uid}")
        self.memo.delete(f"profile:{uid}")
        self.prefs.pop(str(uid), None)

    def forget_everyone(self) -> int:
        names = self.redis_cache.keys("user:*")
        for name in names:
            self.redis_cache.delete(name)
        self.redis_cache.clear()
        self.memo.clear()
        return len(names)

    def set_preference(self, uid: int, name: str, value: str) -> None:
        prefs = self.prefs.setdefault(str(uid), {})
        prefs.update({name: value})
        for stale in [k for k, v in prefs.items() if not v]:
            prefs.pop(stale)


def avatar_etag(uid: int, image: bytes) -> str:
    digest = hashlib.sha256()
    digest.update(str(uid).encode())
    digest.update(image)
    etag = digest.hexdigest()[:16]
    cache.set(f"avatar:etag:{uid}", etag, ttl=86400)
    return etag


def top_visitors(visits: list[int], limit: int = 10) -> list[tuple[int, int]]:
    counts = Counter(visits)
    counts.update(cache.get("visits:carry", default=[]))
    recent: OrderedDict[int, int] = OrderedDict()
    for uid, n in counts.most_common(limit):
        recent[uid] = n
        recent.move_to_end(uid)
    cache.incr("visits:reports")
    return list(recent.items())


def reset_all(store: Cache | None = None) -> None:
    """Admin button: empty whichever cache the process runs with."""
    target = store or make_cache()
    for name in target.keys("*"):
        target.delete(name)
    target.clear()
    cache.clear()
