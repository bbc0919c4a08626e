"""Rate limits: fixed and sliding windows on django-redis's connection, and a cheap one on Django's cache."""

from __future__ import annotations

import time
import uuid

from django.conf import settings
from django.core.cache import cache
from django_redis import get_redis_connection

LOCKOUT_SECONDS = 900

TOKEN_BUCKET = """
local tokens = tonumber(redis.call('get', KEYS[1]) or ARGV[1])
if tokens <= 0 then return 0 end
redis.call('set', KEYS[1], tokens - 1, 'EX', ARGV[2])
return 1
"""


def hit(scope: str, ident: str) -> bool:
    limit, window = settings.RATE_LIMITS[scope]
    con = get_redis_connection("default")
    key = f"ratelimit:{scope}:{ident}:{int(time.time()) // window}"
    pipe = con.pipeline(transaction=False)
    pipe.incr(key)
    pipe.expire(key, window)
    count, _ = pipe.execute()
    return int(count) <= limit


def sliding(scope: str, ident: str) -> bool:
    limit, window = settings.RATE_LIMITS[scope]
    con = get_redis_connection("default")
    key = f"ratelimit:sliding:{scope}:{ident}"
    now = time.time()
    with con.pipeline(transaction=False) as pipe:
        pipe.zremrangebyscore(key, 0, now - window)
        pipe.zadd(key, {uuid.uuid4().hex: now})
        pipe.zcard(key)
        pipe.expire(key, window)
        _, _, count, _ = pipe.execute()
    return int(count) <= limit


def hit_cached(scope: str, ident: str) -> bool:
    """Good enough for comments: Django's cache API (`add`, `incr(delta=)`, `expire(timeout=)`)."""
    limit, window = settings.RATE_LIMITS[scope]
    key = f"ratelimit:cached:{scope}:{ident}"
    cache.add(key, 0, timeout=window)
    count = cache.incr(key, delta=1)
    if count == 1:
        cache.expire(key, timeout=window)
    return int(count) <= limit


def lock_out(username: str) -> None:
    con = get_redis_connection("default")
    key = f"ratelimit:lockout:{username}"
    if con.setnx(key, 1):  # error: TTL008
        con.expire(key, LOCKOUT_SECONDS)


def is_locked_out(username: str) -> bool:
    return bool(get_redis_connection("default").exists(f"ratelimit:lockout:{username}"))


def take_token(scope: str, ident: str, capacity: int = 20, ttl: int = 60) -> bool:
    con = get_redis_connection("default")
    return bool(con.eval(TOKEN_BUCKET, 1, f"ratelimit:bucket:{scope}:{ident}", capacity, ttl))  # error: CMD009
