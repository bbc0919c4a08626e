"""Shared async Redis client and settings, created once per process on startup."""

from __future__ import annotations

import os

import redis.asyncio as aioredis

REDIS_URL = os.environ.get("NOTIFY_REDIS_URL", "redis://localhost:6379/0")
INBOX_SIZE = 200
INBOX_TTL = 30 * 86400
UNREAD_TTL = 30 * 86400

redis_client = aioredis.Redis.from_url(REDIS_URL, max_connections=64)


async def close() -> None:
    await redis_client.aclose()


def inbox_key(user_id: str) -> str:
    return f"notify:inbox:{user_id}"


def unread_key(user_id: str) -> str:
    return f"notify:unread:{user_id}"
