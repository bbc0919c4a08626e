"""Stock counters and reservations.

Reserving stock must be atomic across "check, then decrement", so it runs as a Lua
script registered once per process and called by SHA on the hot path.
"""

from __future__ import annotations

import random

import redis

from svc_orders import keys
from svc_orders.clients import get_redis

RESERVATION_TTL = 15 * 60  # an unpaid order gives its stock back after 15 minutes
STOCK_PREFIX = "inventory:stock:"

RESERVE_LUA = """
local available = tonumber(redis.call('GET', KEYS[1]) or '0')
local wanted = tonumber(ARGV[1])
if available < wanted then return -1 end
redis.call('DECRBY', KEYS[1], wanted)
redis.call('HINCRBY', KEYS[2], ARGV[2], wanted)
redis.call('EXPIRE', KEYS[2], ARGV[3])
return available - wanted
"""

RELEASE_LUA = """
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  redis.call('INCRBY', 'inventory:stock:' .. held[i], held[i + 1])
end
redis.call('DEL', KEYS[1])
return #held / 2
"""


class InventoryService:
    def __init__(self, client: redis.Redis | None = None) -> None:
        self.redis = client or get_redis()
        self._reserve = self.redis.register_script(RESERVE_LUA)

    def available(self, sku: str) -> int:
        return int(self.redis.get(keys.stock(sku)) or 0)

    def availability(self, skus: list[str]) -> dict[str, int]:
        values = self.redis.mget([keys.stock(sku) for sku in skus])
        return {sku: int(value or 0) for sku, value in zip(skus, values, strict=True)}

    def reserved_elsewhere(self, sku: str) -> int:
        """Units held by marketplace partners, tracked next to our own counter."""
        return int(self.redis.get(STOCK_PREFIX + ":partners:" + sku) or 0)  # error: KEY009

    def reserve(self, order_id: str, sku: str, quantity: int) -> bool:
        stock_key, reservation_key = keys.stock(sku), keys.reservation(order_id)
        left = self._reserve(keys=[stock_key, reservation_key], args=[quantity, sku, RESERVATION_TTL])
        return int(left) >= 0

    def release(self, order_id: str) -> int:
        """Called by the cancellation worker and by the payment-failed webhook."""
        return int(self.redis.eval(RELEASE_LUA, 1, keys.reservation(order_id)))  # error: CMD009

    def forget_line_reservations(self, order_id: str) -> None:
        """Per-line reservation keys of the v1 checkout; to be removed after the migration."""
        self.redis.delete(f"inventory:reserved:{order_id}:*")  # error: KEY003

    def restock(self, sku: str, quantity: int) -> int:
        """Goods received: the warehouse scanner calls this per pallet."""
        return int(self.redis.incrby(keys.stock(sku), quantity))  # error: TTL006

    def seed_flash_sale(self, stock_by_sku: dict[str, int], ends_at: int) -> None:
        """Flash-sale stock lives until shortly after the sale ends, never longer."""
        pipe = self.redis.pipeline(transaction=False)
        for sku, quantity in stock_by_sku.items():
            pipe.set(keys.stock(sku), quantity, exat=ends_at + random.randint(60, 900))
        pipe.execute()

    def sync_from_warehouse(self, levels: dict[str, int]) -> None:
        """Hourly job: overwrite the counters with the warehouse system's numbers."""
        pipe = self.redis.pipeline(transaction=False)
        for sku, quantity in levels.items():
            pipe.set(keys.stock(sku), quantity, ex=3600)  # error: TTL007
        pipe.execute()

    def flash_sale_page(self) -> list[int]:
        """The flash-sale landing page shows products 1-500 in one round trip."""
        values = self.redis.mget([keys.stock(str(product_id)) for product_id in range(1, 501)])  # error: BAT001
        return [int(value or 0) for value in values]

    def low_stock(self, skus: list[str], threshold: int = 5) -> list[str]:
        counts = self.availability(skus)
        return sorted(sku for sku, count in counts.items() if count < threshold)
