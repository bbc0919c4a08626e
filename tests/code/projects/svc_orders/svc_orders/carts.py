"""Shopping carts: one hash per user (sku -> quantity) with a sliding 14-day TTL.

Guests get a cart keyed by a negative id; at login it is folded into the user's cart.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis

from svc_orders import keys

CART_TTL = 14 * 24 * 3600
SWEEP_BATCH = 100


def _batched(items: list[bytes], size: int) -> Iterator[list[bytes]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class CartRepository:
    """All cart reads and writes; handlers never touch the cart keys directly."""

    def __init__(self, cache: redis.Redis, ttl: int = CART_TTL) -> None:
        self.cache = cache
        self.ttl = ttl

    def add_item(self, user_id: int, sku: str, quantity: int = 1) -> int:
        key = keys.cart_items(user_id)
        pipe = self.cache.pipeline(transaction=False)
        pipe.hincrby(key, sku, quantity)
        pipe.expire(key, self.ttl)
        new_quantity, _ = pipe.execute()
        return int(new_quantity)

    def set_quantity(self, user_id: int, sku: str, quantity: int) -> None:
        key = keys.cart_items(user_id)
        if quantity <= 0:
            self.cache.hdel(key, sku)
            return
        pipe = self.cache.pipeline(transaction=False)
        pipe.hset(key, sku, quantity)
        pipe.expire(key, self.ttl)
        pipe.execute()

    def contents(self, user_id: int) -> dict[str, int]:
        raw = self.cache.hgetall(keys.cart_items(user_id))  # error: CMD005
        return {sku.decode(): int(quantity) for sku, quantity in raw.items()}

    def quantities(self, user_id: int, skus: list[str]) -> dict[str, int]:
        """What the product page needs: a few SKUs, never the whole cart."""
        values = self.cache.hmget(keys.cart_items(user_id), skus)
        return {sku: int(value) for sku, value in zip(skus, values, strict=True) if value is not None}

    def skus(self, user_id: int) -> list[str]:
        return [sku.decode() for sku in self.cache.hkeys(keys.cart_items(user_id))]  # error: CMD005

    def item_count(self, user_id: int) -> int:
        return int(self.cache.hlen(keys.cart_items(user_id)))

    def attach_coupon(self, user_id: int, code: str) -> None:
        self.cache.hset(keys.cart_meta(user_id), "coupon", code)  # error: TTL006

    def applied_coupon(self, user_id: int) -> str | None:
        raw = self.cache.hget(keys.cart_meta(user_id), "coupon")
        return raw.decode() if raw else None

    def merge_guest_cart(self, guest_id: int, user_id: int) -> None:
        """At login the guest's cart is folded into the user's, then dropped."""
        guest_key = keys.cart_items(guest_id)
        user_key = keys.cart_items(user_id)
        guest_items = self.cache.hgetall(guest_key)  # error: CMD005
        if not guest_items:
            return
        pipe = self.cache.pipeline(transaction=False)
        for sku, quantity in guest_items.items():
            pipe.hincrby(user_key, sku, int(quantity))
        pipe.expire(user_key, self.ttl)
        pipe.unlink(guest_key)
        pipe.execute()

    def replace(self, user_id: int, items: dict[str, int]) -> None:
        """The mobile app syncs its whole cart; readers must never see half of it."""
        key = keys.cart_items(user_id)
        # redis-py's default pipeline is MULTI/EXEC, but only transaction=True written out is reported (CMD007 doc)
        with self.cache.pipeline() as pipe:
            pipe.unlink(key)
            pipe.hset(key, mapping=items)
            pipe.expire(key, self.ttl)
            pipe.execute()

    def clear(self, user_id: int) -> None:
        """After a successful checkout the cart and its metadata go."""
        self.cache.delete(keys.cart_items(user_id), keys.cart_meta(user_id))  # error: CMD008

    def discard_guest(self, guest_id: int) -> None:
        self.cache.unlink(keys.cart_items(guest_id), keys.cart_meta(guest_id))

    def sweep_orphaned_meta(self) -> int:
        """Nightly: metadata hashes outlive their cart when the two TTLs drift apart."""
        candidates = list(self.cache.scan_iter(match="cart:meta:*"))  # error: CMD010
        orphans: list[bytes] = []
        for chunk in _batched(candidates, SWEEP_BATCH):
            pipe = self.cache.pipeline(transaction=False)
            for meta_key in chunk:
                pipe.exists(meta_key.replace(b":meta:", b":items:"))
            for meta_key, alive in zip(chunk, pipe.execute(), strict=True):
                if not alive:
                    orphans.append(meta_key)
        for chunk in _batched(orphans, SWEEP_BATCH):
            self.cache.unlink(*chunk)
        return len(orphans)
