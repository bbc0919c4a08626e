"""Likes and counters: sets of user ids per post, plain counters, unique-visitor HyperLogLogs."""

from __future__ import annotations

from .redis_conn import get_client


def like(post_id: int, user_id: int) -> None:
    r = get_client()
    pipe = r.pipeline(transaction=False)
    pipe.sadd(f"likes:post:{post_id}", user_id)
    pipe.incr(f"counter:likes:{post_id}")
    pipe.execute()


def unlike(post_id: int, user_id: int) -> None:
    r = get_client()
    if r.srem(f"likes:post:{post_id}", user_id):
        r.decr(f"counter:likes:{post_id}")


def has_liked(post_id: int, user_id: int) -> bool:
    return bool(get_client().sismember(f"likes:post:{post_id}", user_id))


def likers(post_id: int) -> set[bytes]:
    return get_client().smembers(f"likes:post:{post_id}")  # error: CMD005


def likers_page(post_id: int, cursor: int = 0) -> tuple[int, list[bytes]]:
    return get_client().sscan(f"likes:post:{post_id}", cursor, count=100)


def likers_in_common(post_a: int, post_b: int) -> set[bytes]:
    return get_client().sinter(f"likes:post:{post_a}", f"likes:post:{post_b}")  # error: CMD005


def like_count(post_id: int) -> int:
    return int(get_client().get(f"counter:likes:{post_id}") or 0)


def unique_view(post_id: int, visitor: str) -> None:
    get_client().pfadd(f"counter:uv:{post_id}", visitor)


def unique_views(post_id: int) -> int:
    return get_client().pfcount(f"counter:uv:{post_id}")


def heat(post_id: int) -> None:
    get_client().incr("counter:热度:total")  # error: KEY002


def share(post_id: int, user_id: int) -> None:
    r = get_client()
    r.hincrby(f"post:stats:{post_id}", "shares", 1)  # error: TTL006
    r.sadd(f"likes:shared_by:{post_id}", user_id)
