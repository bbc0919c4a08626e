"""The shop on redis-py's asyncio client."""

from __future__ import annotations

import random
from typing import Any

from tests.guard.apps.keys import cart_key, page_key, profile_key


async def save_profile(r: Any, uid: int, data: bytes) -> None:
    await r.set(profile_key(uid), data, ex=3600 + random.randint(0, 360))


async def load_many_profiles(r: Any, uids: list[int]) -> list[Any]:
    return await r.mget([profile_key(uid) for uid in uids])  # seeded: BAT001


async def add_to_cart(r: Any, uid: int, item: str) -> None:
    async with r.pipeline() as pipe:
        pipe.hset(cart_key(uid), item, 1)  # seeded: KEY006, TTL006
        await pipe.execute()


async def add_to_cart_clean(r: Any, uid: int, item: str) -> None:
    async with r.pipeline() as pipe:
        pipe.hset(f"cart:items:{uid}", item, 1)
        pipe.expire(f"cart:items:{uid}", 1800 + random.randint(0, 180))
        await pipe.execute()


async def cache_page(r: Any, path: str, html: bytes) -> None:
    await r.set(page_key(path), html)  # seeded: TTL006


async def find_sessions(r: Any) -> list[Any]:
    return await r.keys("session:*")  # seeded: CMD001


async def wait_for_job(r: Any) -> Any:
    return await r.blpop(["queue:jobs"], timeout=0)  # seeded: PUB001


async def follow(r: Any) -> None:
    pubsub = r.pubsub()
    await pubsub.subscribe(*[f"news:channel:{i}" for i in range(60)])  # seeded: PUB002
    await pubsub.aclose()
