"""The shop on redis-py's cluster client: the same calls, routed to the shard of each key."""

from __future__ import annotations

import random
from typing import Any

from tests.guard.apps.keys import page_key, profile_key


def save_profile(rc: Any, uid: int, data: bytes) -> None:
    rc.set(profile_key(uid), data, ex=3600 + random.randint(0, 360))


def load_profiles(rc: Any, uids: list[int]) -> list[Any]:
    return rc.mget_nonatomic([profile_key(uid) for uid in uids])


def save_profiles(rc: Any, profiles: dict[int, bytes]) -> list[Any]:
    return rc.mset_nonatomic({profile_key(uid): data for uid, data in profiles.items()})  # seeded: TTL006


def cache_page(rc: Any, path: str, html: bytes) -> None:
    rc.set(page_key(path), html)  # seeded: TTL006


def cache_big_page(rc: Any, path: str, html: bytes) -> None:
    rc.set(page_key(path), html, ex=600 + random.randint(0, 60))  # seeded: VAL001


def find_sessions(rc: Any) -> list[Any]:
    return rc.keys("session:*")  # seeded: CMD001


def warm_profiles(rc: Any, uids: list[int]) -> None:
    pipe = rc.pipeline()
    for uid in uids:
        pipe.set(profile_key(uid), b"{}", ex=3600 + random.randint(0, 360))
    pipe.execute()  # seeded: BAT003


def touch_profiles(rc: Any, uids: list[int]) -> None:
    pipe = rc.pipeline()
    for uid in uids:
        pipe.expire(profile_key(uid), 3600 + random.randint(0, 360))
    pipe.execute()
