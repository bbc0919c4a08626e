"""Per-tenant sessions: a hash per session and a list of the user's recent sessions."""

from __future__ import annotations

import secrets
import time

from .client import TenantRedis

SESSION_TTL = 3600
RECENT_TTL = 30 * 86400


class SessionStore:
    def __init__(self, client: TenantRedis) -> None:
        self.client = client

    def _key(self, sid: str) -> str:
        return self.client.tkey("session", sid)

    def open(self, uid: int, agent: str) -> str:
        sid = secrets.token_hex(16)
        with self.client.pipeline(transaction=False) as pipe:
            pipe.hset(self._key(sid), mapping={"uid": uid, "agent": agent, "at": int(time.time())})
            pipe.expire(self._key(sid), SESSION_TTL)
            pipe.lpush(self.client.tkey("recent", uid), sid)
            pipe.ltrim(self.client.tkey("recent", uid), 0, 19)
            pipe.expire(self.client.tkey("recent", uid), RECENT_TTL)
            pipe.execute()
        return sid

    def recent(self, uid: int) -> list[bytes]:
        return self.client.lrange(self.client.tkey("recent", uid), 0, -1)  # error: CMD005

    def load(self, sid: str) -> dict[bytes, bytes]:
        return self.client.hgetall(self._key(sid))  # error: CMD005

    def refresh(self, sid: str) -> None:
        self.client.expire(self._key(sid), SESSION_TTL)

    def close(self, sid: str) -> None:
        self.client.unlink(self._key(sid))


def remember_device(client: TenantRedis, uid: int, device: str) -> None:
    key = client.tkey("devices", uid)
    client.sadd(key, device)
    client.expire(key, RECENT_TTL)


def last_seen(client: TenantRedis, uid: int) -> None:
    client.set(client.tkey("seen", uid), int(time.time()))  # error: TTL006
