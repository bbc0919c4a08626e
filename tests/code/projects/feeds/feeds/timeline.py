"""Fan-out on write: a new post id is pushed onto every follower's timeline list."""

from __future__ import annotations

import random

from django.core.cache import cache
from django_redis import get_redis_connection

from .redis_conn import get_client

TIMELINE_LENGTH = 800
TIMELINE_TTL = 14 * 86400
FAN_OUT_CHUNK = 50


def fan_out(post_id: int, follower_ids: list[int]) -> None:
    """The first version: one pipeline for all followers, however many there are."""
    r = get_redis_connection("default")
    pipe = r.pipeline(transaction=False)
    for follower_id in follower_ids:
        key = f"feed:timeline:{follower_id}"
        pipe.lpush(key, post_id)
        pipe.ltrim(key, 0, TIMELINE_LENGTH - 1)
        pipe.expire(key, TIMELINE_TTL)  # error: TTL007
    pipe.execute()


def fan_out_chunked(post_id: int, follower_ids: list[int]) -> None:
    """What replaced it: small pipelines, and expiries spread over an hour."""
    r = get_redis_connection("default")
    for start in range(0, len(follower_ids), FAN_OUT_CHUNK):
        pipe = r.pipeline(transaction=False)
        for follower_id in follower_ids[start : start + FAN_OUT_CHUNK]:
            key = f"feed:timeline:{follower_id}"
            pipe.lpush(key, post_id)
            pipe.ltrim(key, 0, TIMELINE_LENGTH - 1)
            pipe.expire(key, TIMELINE_TTL + random.randint(0, 3600))
        pipe.execute()


def read_timeline(user_id: int, page: int = 0, size: int = 20) -> list[list[bytes | None]]:
    r = get_client()
    start = page * size
    post_ids = r.lrange(f"feed:timeline:{user_id}", start, start + size - 1)
    pipe = r.pipeline(transaction=False)
    for post_id in post_ids:
        pipe.hmget(f"post:body:{post_id.decode()}", ["author", "text", "created"])
    return pipe.execute()


def export_timeline(user_id: int) -> list[bytes]:
    """GDPR export: everything on the user's timeline."""
    return get_client().lrange(f"feed:timeline:{user_id}", 0, -1)  # error: CMD005


def timeline_length(user_id: int) -> int:
    return get_client().llen(f"feed:timeline:{user_id}")


def hot_posts(region: str) -> list[bytes]:
    return get_client().lrange(f"feed:Hot:{region}", 0, 49)  # error: KEY006


def deliver_to_inbox(user_id: int, message_id: int) -> None:
    r = get_client()
    key = f"feed:inbox:{user_id}:"
    r.rpush(key, message_id)  # error: KEY009
    r.expire(key, 3 * 86400)  # error: KEY009


def digest_html(user_id: int) -> str | None:
    """Rendered e-mail digest, in Django's cache (its own key prefix and versioning)."""
    html = cache.get(f"feed:digest:{user_id}")
    if html is None:
        html = f"<h1>Your week</h1><p>{timeline_length(user_id)} new posts</p>"
        cache.set(f"feed:digest:{user_id}", html, timeout=600)
    return html
