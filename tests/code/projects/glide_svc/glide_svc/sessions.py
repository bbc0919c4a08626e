"""Sessions on GLIDE: a hash per session, its TTL refreshed on every request."""

from __future__ import annotations

import secrets
import time

from glide import ExpirySet, ExpiryType, GlideClient

from .clients import GlideStore

SESSION_TTL = 1800


def session_key(sid: str) -> str:
    return f"session:data:{sid}"


class SessionStore:
    def __init__(self, store: GlideStore) -> None:
        self.store = store

    async def create(self, uid: int) -> str:
        sid = secrets.token_urlsafe(24)
        await self.store.hset(session_key(sid), {"uid": str(uid), "created": str(int(time.time()))}, SESSION_TTL)
        return sid

    async def load(self, sid: str) -> dict[bytes, bytes]:
        return await self.store.hgetall(session_key(sid))

    async def destroy(self, sid: str) -> None:
        await self.store.delete(session_key(sid))

    async def all_sessions(self) -> list[bytes]:
        return await self.store.keys("session:data:*")

    async def wipe(self) -> None:
        await self.store.flushall()


async def touch(client: GlideClient, sid: str) -> bool:
    return await client.expire(session_key(sid), SESSION_TTL)


async def flash(client: GlideClient, sid: str, message: str) -> None:
    key = f"session:flash:{sid}"
    await client.lpush(key, [message])
    await client.set(f"session:flash_at:{sid}", str(time.time()), expiry=ExpirySet(ExpiryType.SEC, 60))


async def pop_flashes(client: GlideClient, sid: str) -> list[bytes]:
    key = f"session:flash:{sid}"
    items = await client.lrange(key, 0, -1)
    await client.delete([key])
    return items
