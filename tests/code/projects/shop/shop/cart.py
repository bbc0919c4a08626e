"""The cart: one hash per user (field = product id, value = quantity), kept for a week of inactivity."""

from __future__ import annotations

import random

from shop.extensions import redis_client
from shop.keys import CART_TTL, cart_key


def add_item(user_id: int, product_id: int, quantity: int = 1) -> int:
    key = cart_key(user_id)
    pipe = redis_client.pipeline(transaction=False)
    pipe.hincrby(key, str(product_id), quantity)
    pipe.expire(key, CART_TTL + random.randint(0, 3600))
    new_quantity, _ = pipe.execute()
    return int(new_quantity)


def set_quantity(user_id: int, product_id: int, quantity: int) -> None:
    if quantity <= 0:
        redis_client.hdel(cart_key(user_id), str(product_id))
        return
    redis_client.hset(cart_key(user_id), str(product_id), quantity)  # error: TTL006


def quantity_of(user_id: int, product_id: int) -> int:
    return int(redis_client.hget(cart_key(user_id), str(product_id)) or 0)


def cart_contents(user_id: int) -> dict[bytes, bytes]:
    return redis_client.hgetall(cart_key(user_id))  # error: CMD005


def cart_size(user_id: int) -> int:
    return redis_client.hlen(cart_key(user_id))


def cart_page(user_id: int, cursor: int = 0) -> tuple[int, dict[bytes, bytes]]:
    return redis_client.hscan(cart_key(user_id), cursor, count=50)


def clear_cart(user_id: int) -> None:
    redis_client.delete(cart_key(user_id))  # error: CMD008


def abandon_cart(user_id: int) -> None:
    redis_client.unlink(cart_key(user_id))


def merge_guest_cart(guest_id: int, user_id: int) -> None:
    """At login, move what a guest put in the cart into the user's cart."""
    guest = cart_key(guest_id)
    target = cart_key(user_id)
    pipe = redis_client.pipeline(transaction=False)
    for product_id, quantity in redis_client.hscan_iter(guest, count=100):
        pipe.hincrby(target, product_id, int(quantity))
    pipe.expire(target, CART_TTL)  # one key on a pipeline, no loop: not a bulk write
    pipe.unlink(guest)
    pipe.execute()
