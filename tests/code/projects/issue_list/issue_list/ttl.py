"""Writes that create keys: sessions, profiles, feeds, followers, rankings and the cache warmer."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping

import redis.asyncio as aioredis

from issue_list.connection import async_client, jittered, redis_client

SESSION_TTL = 30 * 60
ONE_DAY = 24 * 3600
PROFILE_TTL = 7 * ONE_DAY


# ---- `set` without ex/px/exat/keepttl -------------------------------------------------------------------


def save_session(session_id: str, payload: bytes) -> None:
    redis_client.set(f"user:session:{session_id}", payload)  # error: TTL006


def remember_login(uid: int, when: str) -> None:
    redis_client.set(name=f"user:last_login:{uid}", value=when)  # error: TTL006


def save_session_with_ttl(session_id: str, payload: bytes) -> None:
    redis_client.set(f"user:session:{session_id}", payload, ex=SESSION_TTL)


def refresh_session_payload(session_id: str, payload: bytes) -> None:
    redis_client.set(f"user:session:{session_id}", payload, keepttl=True)


def save_login_until_midnight(uid: int, when: str, midnight: int) -> None:
    redis_client.set(f"user:last_login:{uid}", when, exat=midnight)


def save_token(uid: int, token: str) -> None:
    redis_client.setex(f"user:token:{uid}", SESSION_TTL, token)


class PageCache:
    """Rendered pages, written by the asyncio handlers."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client

    async def store(self, path: str, html: bytes) -> None:
        await self.redis.set(f"cache:page:{path}", html)  # error: TTL006

    async def store_briefly(self, path: str, html: bytes) -> None:
        await self.redis.set(f"cache:page:{path}", html, px=jittered(60_000))


def cache_product(sku: str, blob: bytes) -> None:
    cache = redis_client
    cache.set(f"cache:product:{sku}", blob)  # error: TTL006


# ---- hset/lpush/sadd/zadd with no expire on the same key in the same function or pipeline ----------------


def save_profile(uid: int, fields: Mapping[str, str]) -> None:
    redis_client.hset(f"user:profile:{uid}", mapping=fields)  # error: TTL006


def save_profile_with_ttl(uid: int, fields: Mapping[str, str]) -> None:
    key = f"user:profile:{uid}"
    redis_client.hset(key, mapping=fields)
    redis_client.expire(key, jittered(PROFILE_TTL))


def push_to_feed(uid: int, post_id: int) -> None:
    redis_client.lpush(f"user:feed:{uid}", post_id)  # error: TTL006


def push_to_feed_capped(uid: int, post_id: int) -> None:
    key = f"user:feed:{uid}"
    with redis_client.pipeline(transaction=False) as pipe:
        pipe.lpush(key, post_id)
        pipe.ltrim(key, 0, 199)
        pipe.expire(key, jittered(ONE_DAY))
        pipe.execute()


def follow(uid: int, follower: int) -> None:
    pipe = redis_client.pipeline(transaction=False)
    pipe.sadd(f"user:follower:{uid}", follower)  # error: TTL006
    pipe.incr(f"stats:follows:{uid}")
    pipe.expire(f"stats:follows:{uid}", jittered(ONE_DAY))
    pipe.execute()


def follow_with_ttl(uid: int, follower: int) -> None:
    key = f"user:follower:{uid}"
    pipe = redis_client.pipeline(transaction=False)
    pipe.sadd(key, follower)
    pipe.expire(key, jittered(PROFILE_TTL))
    pipe.execute()


async def record_score(day: str, player: str, score: float) -> None:
    await async_client.zadd(f"leaderboard:daily:{day}", {player: score})  # error: TTL006


async def record_score_with_ttl(day: str, player: str, score: float) -> None:
    key = f"leaderboard:daily:{day}"
    await async_client.zadd(key, {player: score})
    await async_client.expire(key, jittered(2 * ONE_DAY))


# ---- a constant TTL in a loop or bulk path (no jitter) ---------------------------------------------------


def warm_user_cache(users: Iterable[tuple[int, dict[str, str]]]) -> None:
    for uid, user in users:
        redis_client.set(f"cache:user:{uid}", json.dumps(user), ex=3600)  # error: TTL007


def warm_product_cache(products: Mapping[str, bytes]) -> None:
    pipe = redis_client.pipeline(transaction=False)
    for sku, blob in products.items():
        pipe.setex(f"cache:product:{sku}", ONE_DAY, blob)  # error: TTL007
    pipe.execute()


async def warm_pages(pages: Mapping[str, bytes]) -> None:
    for path, html in pages.items():
        await async_client.set(f"cache:page:{path}", html, ex=24 * 3600)  # error: TTL007


def warm_user_cache_spread(users: Iterable[tuple[int, dict[str, str]]]) -> None:
    for uid, user in users:
        redis_client.set(f"cache:user:{uid}", json.dumps(user), ex=jittered(3600))


def warm_product_cache_spread(products: Mapping[str, bytes]) -> None:
    pipe = redis_client.pipeline(transaction=False)
    for sku, blob in products.items():
        pipe.setex(f"cache:product:{sku}", jittered(ONE_DAY), blob)
    pipe.execute()


# ---- `set` followed by a separate `expire` (non-atomic) -------------------------------------------------


def store_verification_code(phone: str, code: str) -> None:
    key = f"user:sms_code:{phone}"
    redis_client.set(key, code)  # error: TTL008
    redis_client.expire(key, 300)


def store_reset_token(uid: int, token: str) -> None:
    pipe = redis_client.pipeline(transaction=False)
    pipe.set(f"user:reset_token:{uid}", token)  # error: TTL008
    pipe.expire(f"user:reset_token:{uid}", jittered(900))
    pipe.execute()


def acquire_lock(order_id: str, token: str) -> bool:
    key = f"lock:order:{order_id}"
    if redis_client.setnx(key, token):  # error: TTL008
        redis_client.expire(key, 30)
        return True
    return False


def acquire_lock_atomically(order_id: str, token: str) -> bool:
    return bool(redis_client.set(f"lock:order:{order_id}", token, nx=True, ex=30))


def store_verification_code_atomically(phone: str, code: str) -> None:
    redis_client.set(f"user:sms_code:{phone}", code, ex=300)


def stamp_last_seen(uid: int) -> None:
    redis_client.set(f"user:last_seen:{uid}", int(time.time()), pxat=int(time.time() * 1000) + 86_400_000)
