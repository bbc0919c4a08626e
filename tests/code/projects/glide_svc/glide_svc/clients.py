"""Connections: the GLIDE client (async, list arguments, ExpirySet for TTLs) and the store wrapping it."""

from __future__ import annotations

import os
from typing import Any

from glide import (
    ConditionalChange,
    ExpirySet,
    ExpiryType,
    FlushMode,
    GlideClient,
    GlideClientConfiguration,
    NodeAddress,
    RangeByIndex,
)

VALKEY_HOST = os.environ.get("VALKEY_HOST", "localhost")


async def connect_glide() -> GlideClient:
    config = GlideClientConfiguration([NodeAddress(VALKEY_HOST, 6379)], request_timeout=500)
    return await GlideClient.create(config)


class GlideStore:
    """The service's key-value API over GLIDE. Names follow Redis; arguments follow GLIDE (lists, ExpirySet)."""

    def __init__(self, client: GlideClient) -> None:
        self._client = client

    async def get(self, key: str) -> bytes | None:
        return await self._client.get(key)

    async def set(self, key: str, value: str, ttl: int | None = None) -> None:
        if ttl:
            await self._client.set(key, value, expiry=ExpirySet(ExpiryType.SEC, ttl))
        else:
            await self._client.set(key, value)

    async def add(self, key: str, value: str, ttl: int) -> bool:
        old = await self._client.set(
            key, value, conditional_set=ConditionalChange.ONLY_IF_DOES_NOT_EXIST, expiry=ExpirySet(ExpiryType.SEC, ttl)
        )
        return old == "OK"

    async def delete(self, *keys: str) -> int:
        return await self._client.delete(list(keys))

    async def hset(self, key: str, fields: dict[str, str], ttl: int) -> None:
        await self._client.hset(key, fields)
        await self._client.expire(key, ttl)

    async def hgetall(self, key: str) -> dict[bytes, bytes]:
        return await self._client.hgetall(key)

    async def zadd(self, key: str, scores: dict[str, float]) -> int:
        return await self._client.zadd(key, scores)

    async def zrange(self, key: str) -> list[bytes]:
        return await self._client.zrange(key, RangeByIndex(0, -1))

    async def lpush(self, key: str, *values: str) -> int:
        return await self._client.lpush(key, list(values))

    async def blpop(self, key: str) -> list[bytes] | None:
        return await self._client.blpop([key], 0)

    async def keys(self, pattern: str) -> list[bytes]:
        return await self._client.custom_command(["KEYS", pattern])

    async def scan(self, pattern: str) -> list[bytes]:
        cursor: Any = "0"
        found: list[bytes] = []
        while True:
            cursor, batch = await self._client.scan(cursor, match=pattern)
            found.extend(batch)
            if cursor in ("0", b"0"):
                return found

    async def flushall(self) -> None:
        await self._client.flushall(FlushMode.SYNC)

    async def close(self) -> None:
        await self._client.close()
