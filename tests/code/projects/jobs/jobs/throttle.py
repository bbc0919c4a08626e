"""Rate limits for outbound calls made by tasks: fixed windows, a sliding window and a token bucket."""

from __future__ import annotations

import time
import uuid

import redis

from .broker import app, r


class Throttled(Exception):
    pass


def allow(tenant: str, limit: int = 50, window: int = 60) -> bool:
    bucket = int(time.time() // window)
    key = f"rate:tenant:{tenant}:{bucket}"
    pipe = r.pipeline()
    pipe.incr(key)
    pipe.expire(key, window + 5)
    hits, _ = pipe.execute()
    return int(hits) <= limit


def allow_simple(tenant: str, limit: int = 50) -> bool:
    key = f"rate:tenant:{tenant}:{int(time.time() // 60)}"
    hits = r.incr(key)
    if hits == 1:
        r.expire(key, 60)
    return int(hits) <= limit


def allow_partner(partner: str, limit: int = 10) -> bool:
    key = f"rate:partner:{partner}"
    with r.pipeline(transaction=True) as pipe:  # error: CMD007
        pipe.incr(key)
        pipe.expire(key, 60)  # one key on a pipeline, no loop: not a bulk write
        hits, _ = pipe.execute()
    return int(hits) <= limit


def sliding_allow(user_id: int, limit: int = 100, window: int = 60) -> bool:
    now = time.time()
    key = f"rate:sliding:{user_id}"
    pipe = r.pipeline(transaction=False)
    pipe.zremrangebyscore(key, 0, now - window)
    pipe.zadd(key, {uuid.uuid4().hex: now})
    pipe.zcard(key)
    pipe.expire(key, window)
    _, _, count, _ = pipe.execute()
    return int(count) <= limit


def take_token(bucket_name: str) -> bool:
    key = f"rate:bucket:{bucket_name}"
    with r.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)  # WATCH precedes the MULTI reported below: one transaction, one finding
                tokens = int(pipe.get(key) or 0)
                if tokens <= 0:
                    pipe.unwatch()
                    return False
                pipe.multi()  # error: CMD007
                pipe.decr(key)  # the key was watched and read just above: it exists, DECR keeps its TTL
                pipe.execute()
                return True
            except redis.WatchError:
                continue


def refill(bucket_name: str, capacity: int, ttl: int) -> None:
    r.set(f"rate:bucket:{bucket_name}", capacity, ex=ttl)


@app.task(bind=True, rate_limit="10/m", max_retries=5)
def call_partner(self: object, partner: str, payload: dict[str, str]) -> str:
    if not allow_partner(partner):
        raise Throttled(partner)
    return f"sent {len(payload)} fields to {partner}"
