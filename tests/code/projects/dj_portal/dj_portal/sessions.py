"""A session engine on django-redis's "sessions" connection: one string per session, plus a small meta hash."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.sessions.backends.base import CreateError, SessionBase
from django_redis import get_redis_connection


class SessionStore(SessionBase):
    prefix = "session:web"

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self.redis = get_redis_connection("sessions")

    def _key(self, session_key: str | None = None) -> str:
        return f"{self.prefix}:{session_key or self._get_or_create_session_key()}"

    def load(self) -> dict[str, Any]:
        raw = self.redis.get(self._key())
        if raw is None:
            self._session_key = None
            return {}
        return self.decode(raw.decode())

    def exists(self, session_key: str) -> bool:
        return bool(self.redis.exists(self._key(session_key)))

    def create(self) -> None:
        while True:
            self._session_key = self._get_new_session_key()
            try:
                self.save(must_create=True)
            except CreateError:
                continue
            self.modified = True
            return

    def save(self, must_create: bool = False) -> None:
        data = self.encode(self._get_session(no_load=must_create))
        stored = self.redis.set(self._key(), data, ex=self.get_expiry_age(), nx=must_create)
        if must_create and not stored:
            raise CreateError

    def delete(self, session_key: str | None = None) -> None:
        if session_key is None and self.session_key is None:
            return
        self.redis.delete(self._key(session_key))

    def touch_meta(self, path: str) -> None:
        meta = f"session:meta:{self.session_key}"
        self.redis.hset(meta, "last_path", path)  # error: TTL006
        self.redis.hset(meta, "seen_at", int(time.time()))

    def meta(self) -> dict[bytes, bytes]:
        return self.redis.hgetall(f"session:meta:{self.session_key}")  # error: CMD005

    @classmethod
    def clear_expired(cls) -> None:
        con = get_redis_connection("sessions")
        for key in con.keys("session:web:*"):  # error: CMD001
            if con.ttl(key) == -1:
                con.delete(key)
