"""Repositories: the storage side of sessions and browsing history, given a client by the app factory."""

from __future__ import annotations

import random
import time

from .keys import SESSION_TTL, recent_views_key, session_key

RECENT_VIEWS = 50


class SessionRepository:
    """Web sessions, one hash per session, sliding expiry."""

    def __init__(self, client, ttl=SESSION_TTL):  # type: ignore[no-untyped-def]
        self._client = client
        self._ttl = ttl

    def load(self, session_id: str) -> dict[bytes, bytes]:
        return self._client.hgetall(session_key(session_id))  # error: CMD005

    def load_user(self, session_id: str) -> bytes | None:
        return self._client.hget(session_key(session_id), "user_id")

    def save(self, session_id: str, data: dict[str, str]) -> None:
        key = session_key(session_id)
        self._client.hset(key, mapping=data)
        self._client.expire(key, self._ttl)

    def touch(self, session_id: str) -> None:
        self._client.expire(session_key(session_id), self._ttl)

    def destroy(self, session_id: str) -> None:
        self._client.delete(session_key(session_id))

    def mark_login(self, session_id: str) -> None:
        self._client.hset(session_key(session_id), "login_at", int(time.time()))  # error: TTL006


class RecentlyViewed:
    """The last products a user looked at, newest first, capped with LTRIM."""

    def __init__(self, client):  # type: ignore[no-untyped-def]
        self.client = client

    def push(self, user_id: int, product_id: int) -> None:
        key = recent_views_key(user_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.lrem(key, 0, product_id)
        pipe.lpush(key, product_id)
        pipe.ltrim(key, 0, RECENT_VIEWS - 1)
        pipe.expire(key, 30 * 86400)  # one key on a pipeline, no loop: not a bulk write
        pipe.execute()

    def push_many(self, user_id: int, product_ids: list[int]) -> None:
        key = recent_views_key(user_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.lpush(key, *product_ids)
        pipe.ltrim(key, 0, RECENT_VIEWS - 1)
        pipe.expire(key, 30 * 86400 + random.randint(0, 86400))
        pipe.execute()

    def latest(self, user_id: int, limit: int = 10) -> list[bytes]:
        return self.client.lrange(recent_views_key(user_id), 0, limit - 1)

    def everything(self, user_id: int) -> list[bytes]:
        return self.client.lrange(recent_views_key(user_id), 0, -1)  # error: CMD005

    def last_seen(self, user_id: int) -> bytes | None:
        return self.client.get(f"user:lastSeen:{user_id}")  # error: KEY007

    def tier(self, user_id: int) -> bytes | None:
        return self.client.get("user:{user_id}:tier")  # error: KEY012
