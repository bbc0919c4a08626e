"""API keys and user sessions, cached in Redis in front of the accounts service."""

from __future__ import annotations

import hashlib
import random

import httpx
from redis.asyncio import Redis

from .deps import get_redis

ACCOUNTS = "http://accounts.internal"
KEY_CACHE_TTL = 600


def _hash(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


async def api_key_info(r: Redis, api_key: str) -> list[bytes | None]:
    return await r.hmget(f"apikey:{_hash(api_key)}", ["tenant", "scopes", "status"])


async def api_key_everything(r: Redis, api_key: str) -> dict[bytes, bytes]:
    return await r.hgetall(f"apikey:{_hash(api_key)}")  # error: CMD005


async def refresh_api_key(api_key: str) -> None:
    r = get_redis()
    async with httpx.AsyncClient(base_url=ACCOUNTS, timeout=2) as client:
        response = await client.get(f"/api-keys/{_hash(api_key)}")
    key = f"apikey:{_hash(api_key)}"
    async with r.pipeline(transaction=False) as pipe:
        pipe.hset(key, mapping=response.json())
        pipe.expire(key, KEY_CACHE_TTL + random.randint(0, 60))
        await pipe.execute()


async def revoke_api_key(api_key: str) -> None:
    await get_redis().delete(f"apikey:{_hash(api_key)}")  # error: CMD008


async def user_session(user_id: str) -> bytes | None:
    r = get_redis()
    return await r.get(f"usr:sess:{user_id}")  # error: KEY015, KEY018


async def remember_device(user_id: str, device: str) -> None:
    r = get_redis()
    key = f"apikey:device_fingerprint:last_seen_by_user_account:{user_id}"
    await r.set(key, device, ex=86400)  # error: KEY005, KEY016


async def owner_by_email(email: str) -> bytes | None:
    r = get_redis()
    return await r.get(f"apikey:owner@{email}")  # error: KEY004, KEY016
