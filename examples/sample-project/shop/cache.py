"""Sessions, carts and the product cache."""

from __future__ import annotations

import redis

r = redis.Redis.from_url("redis://localhost:6379/0")

SESSION_TTL = 1800


def save_session(token: str, payload: bytes) -> None:
    r.set(f"session:{token}", payload, ex=SESSION_TTL)  # clean: namespaced, lower case, with a TTL


def save_cart(user_id: int, items: dict[str, int]) -> None:
    r.hset(f"Cart:{user_id}", mapping=items)  # upper-case key, and no EXPIRE: the cart lives forever


def load_cart(user_id: int) -> dict[bytes, bytes]:
    return r.hgetall(f"Cart:{user_id}")  # reads the whole hash


def forget_products() -> None:
    for key in r.keys("product:*"):  # KEYS blocks the server
        r.delete(key)
