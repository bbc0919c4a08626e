"""Login sessions: the one service that talks to Redis directly (it predates the cache layer).

Sessions live on their own Redis, as hashes `session:data:<sid>`, with one-shot flash messages in lists
`session:flash:<sid>`. Login statistics go through the shared cache layer like everything else.
"""

from __future__ import annotations

import os
import random
import secrets
import time

import redis

from .cache import cache
from .local import LocalCache

SESSION_TTL = 1800
FLASH_TTL = 300

_sessions = redis.Redis(  # error: CMD006
    host=os.environ.get("SESSION_REDIS_HOST", "localhost"),
    port=6379,
    db=1,
    socket_timeout=1.5,
)


class SessionStore:
    def __init__(self, client: redis.Redis | None = None) -> None:
        self.redis = client or _sessions
        self.recent = LocalCache(default_ttl=60)

    @staticmethod
    def _key(sid: str) -> str:
        return f"session:data:{sid}"

    def create(self, user_id: int, data: dict[str, str]) -> str:
        sid = secrets.token_urlsafe(24)
        key = self._key(sid)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(key, mapping={"user_id": str(user_id), "created": str(int(time.time())), **data})
        pipe.expire(key, SESSION_TTL + random.randint(0, 120))
        pipe.execute()
        cache.incr(f"stats:logins:{user_id}")
        cache.expire(f"stats:logins:{user_id}", 86400)
        self.recent.set(sid, user_id)
        return sid

    def load(self, sid: str) -> dict[bytes, bytes]:
        return self.redis.hgetall(self._key(sid))  # error: CMD005

    def user_id(self, sid: str) -> int | None:
        cached = self.recent.get(sid)
        if cached is not None:
            return int(cached)
        raw = self.redis.hget(self._key(sid), "user_id")
        return int(raw) if raw is not None else None

    def touch(self, sid: str) -> None:
        self.redis.expire(self._key(sid), SESSION_TTL)

    def update(self, sid: str, **fields: str) -> None:
        self.redis.hset(self._key(sid), mapping=fields)  # error: TTL006

    def destroy(self, sid: str) -> None:
        self.redis.delete(self._key(sid))  # error: CMD008
        self.recent.delete(sid)

    def add_flash(self, sid: str, message: str) -> None:
        key = f"session:flash:{sid}"
        self.redis.rpush(key, message)
        self.redis.ltrim(key, -20, -1)
        self.redis.expire(key, FLASH_TTL)

    def pop_flashes(self, sid: str) -> list[str]:
        key = f"session:flash:{sid}"
        messages = self.redis.lrange(key, 0, -1)  # error: CMD005
        self.redis.delete(key)  # error: CMD008
        return [m.decode("utf-8", "replace") for m in messages]

    def pop_flashes_atomically(self, sid: str) -> list[bytes]:
        key = f"session:flash:{sid}"
        messages = self.redis.lpop(key, 20) or []
        self.redis.unlink(key)
        return messages


def logout_everywhere(user_id: int, store: SessionStore) -> int:
    """Drop every session of a user. Session ids are listed by the cache layer, not by Redis KEYS."""
    sids = cache.get(f"user:sessions:{user_id}", default=[])
    for sid in sids:
        store.destroy(sid)
    cache.delete(f"user:sessions:{user_id}")
    for name in cache.keys(f"stats:logins:{user_id}*"):
        cache.delete(name)
    return len(sids)
