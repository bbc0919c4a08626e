"""Rate limiting: a fixed window per client IP, a sliding window per user, a token bucket per tenant."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from redis.asyncio import Redis

from .deps import get_redis

WINDOW_SECONDS = 60
IP_LIMIT = 300

TOKEN_BUCKET = """
local tokens = tonumber(redis.call('hget', KEYS[1], 'tokens') or ARGV[2])
local now = tonumber(ARGV[1])
local last = tonumber(redis.call('hget', KEYS[1], 'ts') or now)
tokens = math.min(tonumber(ARGV[2]), tokens + (now - last) * tonumber(ARGV[3]))
if tokens < 1 then return 0 end
redis.call('hset', KEYS[1], 'tokens', tokens - 1, 'ts', now)
redis.call('expire', KEYS[1], 3600)
return 1
"""


async def limit_by_ip(request: Request, r: Annotated[Redis, Depends(get_redis)]) -> None:
    host = request.client.host if request.client else "unknown"
    key = f"rate:ip:{host}:{int(time.time()) // WINDOW_SECONDS}"
    count = await r.incr(key)
    if count == 1:
        await r.expire(key, WINDOW_SECONDS)
    if count > IP_LIMIT:
        raise HTTPException(status_code=429, detail="too many requests")


async def limit_by_user(user_id: str, limit: int = 100) -> bool:
    """Sliding window: a sorted set of request timestamps per user."""
    r = get_redis()
    now = time.time()
    key = f"rate:user:{user_id}"
    async with r.pipeline(transaction=True) as pipe:  # error: CMD007
        pipe.zremrangebyscore(key, 0, now - WINDOW_SECONDS)
        pipe.zadd(key, {str(now): now})
        pipe.zcard(key)
        pipe.expire(key, WINDOW_SECONDS)  # one key on a pipeline, no loop: not a bulk write
        _, _, count, _ = await pipe.execute()
    return int(count) <= limit


async def take_token(tenant_id: str, capacity: int = 50, rate: float = 5.0) -> bool:
    r = get_redis()
    allowed = await r.eval(TOKEN_BUCKET, 1, f"rate:bucket:{tenant_id}", time.time(), capacity, rate)  # error: CMD009
    return bool(allowed)


async def take_token_cached(tenant_id: str, capacity: int = 50, rate: float = 5.0) -> bool:
    r = get_redis()
    bucket = r.register_script(TOKEN_BUCKET)
    return bool(await bucket(keys=[f"rate:bucket:{tenant_id}"], args=[time.time(), capacity, rate]))


async def limit_by_route(tenant_id: str, route: str) -> int:
    """Counts per tenant and route, kept together on one cluster slot (copied from the cluster gateway)."""
    r = get_redis()
    key = f"rate:tenant:{{{tenant_id}}}"
    count = await r.hincrby(key, route, 1)  # error: KEY012
    await r.expire(key, WINDOW_SECONDS, nx=True)  # error: KEY012
    return int(count)


async def reset_limits(user_id: str) -> None:
    r = get_redis()
    await r.unlink(f"rate:user:{user_id}", f"rate:ip:{user_id}")
