"""A synchronous shop on redis-py: profiles, carts, a page cache, an admin purge."""

from __future__ import annotations

import random
from typing import Any

from tests.guard.apps.keys import cart_key, page_key, profile_key, raw_key


def save_profile(r: Any, uid: int, data: bytes) -> None:
    r.set(profile_key(uid), data, ex=3600 + random.randint(0, 360))


def load_profiles(r: Any, uids: list[int]) -> list[Any]:
    return r.mget([profile_key(uid) for uid in uids])


def load_many_profiles(r: Any, uids: list[int]) -> list[Any]:
    return r.mget([profile_key(uid) for uid in uids])  # seeded: BAT001


def add_to_cart(r: Any, uid: int, item: str) -> None:
    pipe = r.pipeline()
    pipe.hset(cart_key(uid), item, 1)  # seeded: KEY006, TTL006
    pipe.execute()


def add_to_cart_clean(r: Any, uid: int, item: str) -> None:
    pipe = r.pipeline()
    pipe.hset(f"cart:items:{uid}", item, 1)
    pipe.expire(f"cart:items:{uid}", 1800 + random.randint(0, 180))
    pipe.execute()


def cache_page(r: Any, path: str, html: bytes) -> None:
    r.set(page_key(path), html)  # seeded: TTL006


def cache_big_page(r: Any, path: str, html: bytes) -> None:
    r.set(page_key(path), html, ex=600 + random.randint(0, 60))  # seeded: VAL001


def store_raw(r: Any, suffix: bytes, value: bytes) -> None:
    r.set(raw_key(suffix), value, ex=60 + random.randint(0, 6))  # seeded: KEY001, KEY002


def purge(r: Any) -> None:
    r.flushdb()  # seeded: CMD002


def find_sessions(r: Any) -> list[Any]:
    return r.keys("session:*")  # seeded: CMD001


def fill_queue(r: Any, n: int) -> None:
    pipe = r.pipeline(transaction=False)
    for i in range(n):
        pipe.rpush("queue:jobs", i)
    pipe.expire("queue:jobs", 600 + random.randint(0, 60))
    pipe.execute()  # seeded: BAT003


def read_all(r: Any, uid: int) -> Any:
    return r.hgetall(f"cart:items:{uid}")  # seeded: CMD005
