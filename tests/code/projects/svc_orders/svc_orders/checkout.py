"""POST /checkout, coupons, and the order lifecycle around them.

An order is created "pending_payment", queued for cancellation 15 minutes out, and
either paid (webhook) or cancelled by the worker, which gives its stock back.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from dataclasses import dataclass, field

from svc_orders import keys
from svc_orders.clients import get_redis, primary
from svc_orders.inventory import InventoryService

IDEMPOTENCY_TTL = 24 * 3600
ORDER_TTL = 7 * 24 * 3600
STATUS_TTL = 3 * 24 * 3600
RECEIPT_TTL = 30 * 24 * 3600
WALLET_TTL = 30 * 24 * 3600
UNPAID_CANCEL_AFTER = 15 * 60
RECENT_ORDERS_KEPT = 50
LOCK_SECONDS = 30

CLAIM_LUA = """
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
local left = tonumber(redis.call('GET', KEYS[1]) or '0')
if left <= 0 then return -1 end
redis.call('DECR', KEYS[1])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
"""

_claim = primary.register_script(CLAIM_LUA)


@dataclass(frozen=True)
class Order:
    order_id: str
    user_id: int
    total_cents: int
    lines: dict[str, int] = field(default_factory=dict)


# ---- idempotency -------------------------------------------------------------------------------


def begin_checkout(request_id: str) -> bool:
    """True when this request is the first one carrying its Idempotency-Key."""
    r = get_redis()
    return bool(r.set(keys.checkout_request(request_id), "pending", nx=True, ex=IDEMPOTENCY_TTL))


def finish_checkout(request_id: str, order_id: str) -> None:
    get_redis().set(keys.checkout_request(request_id), order_id, xx=True, keepttl=True)


# ---- placing and paying ------------------------------------------------------------------------


def place_order(order: Order, inventory: InventoryService) -> bool:
    for sku, quantity in order.lines.items():
        if not inventory.reserve(order.order_id, sku, quantity):
            inventory.release(order.order_id)
            return False
    r = get_redis()
    summary_key = keys.order_summary(order.order_id)
    recent_key = keys.recent_orders(order.user_id)
    pipe = r.pipeline(transaction=False)
    pipe.hset(summary_key, mapping={"user_id": order.user_id, "total_cents": order.total_cents})
    pipe.hset(summary_key, "lines", json.dumps(order.lines))
    pipe.expire(summary_key, ORDER_TTL)
    pipe.set(keys.order_status(order.order_id), "pending_payment", ex=STATUS_TTL)
    pipe.zadd(keys.CANCEL_DUE, {order.order_id: time.time() + UNPAID_CANCEL_AFTER})
    pipe.lpush(recent_key, order.order_id)  # error: TTL006
    pipe.ltrim(recent_key, 0, RECENT_ORDERS_KEPT - 1)
    pipe.execute()
    return True


def order_status(order_id: str) -> str | None:
    raw = get_redis().get(keys.order_status(order_id))
    return raw.decode() if raw else None


def order_details(order_id: str) -> dict[bytes, bytes]:
    return get_redis().hgetall(keys.order_summary(order_id))  # error: CMD005


def mark_paid(order_id: str) -> None:
    """Payment webhook: the order moves on and leaves the cancellation queue."""
    r = get_redis()
    r.set(keys.order_status(order_id), "paid")  # error: TTL006
    r.zrem(keys.CANCEL_DUE, order_id)
    r.lpush(keys.FULFILMENT_QUEUE, json.dumps({"order_id": order_id}))


def store_receipt_url(order_id: str, url: str) -> None:
    get_redis().set(f"order:receipt: {order_id}", url, ex=RECEIPT_TTL)  # error: KEY001


def cache_shipping_address(order_id: str, address: dict[str, str]) -> None:
    get_redis().set(f"order:shippingAddress:{order_id}", json.dumps(address), ex=ORDER_TTL)  # error: KEY007


# ---- locking, cancellation, fulfilment ---------------------------------------------------------


def lock_order(order_id: str) -> str | None:
    """Keeps a refund and the cancellation worker from racing (helper from before SET NX EX)."""
    r = get_redis()
    token = uuid.uuid4().hex
    if r.setnx(keys.order_lock(order_id), token):  # error: TTL008
        r.expire(keys.order_lock(order_id), LOCK_SECONDS)
        return token
    return None


def unlock_order(order_id: str, token: str) -> None:
    r = get_redis()
    key = keys.order_lock(order_id)
    if r.get(key) == token.encode():
        r.delete(key)


def cancel_overdue(inventory: InventoryService, batch: int = 100) -> list[str]:
    """Every minute: orders still unpaid after 15 minutes are cancelled, their stock released."""
    r = get_redis()
    due = r.zrangebyscore(keys.CANCEL_DUE, 0, time.time(), start=0, num=batch)
    cancelled: list[str] = []
    for raw in due:
        order_id = raw.decode()
        if r.zrem(keys.CANCEL_DUE, order_id):
            inventory.release(order_id)
            r.set(keys.order_status(order_id), "cancelled", ex=STATUS_TTL)  # error: TTL007
            cancelled.append(order_id)
    return cancelled


def next_fulfilment_job() -> dict[str, str] | None:
    """Warehouse workers block here until a paid order shows up."""
    item = primary.brpop(keys.FULFILMENT_QUEUE)  # error: PUB001
    if item is None:
        return None
    _queue, payload = item
    job: dict[str, str] = json.loads(payload)
    return job


def next_fulfilment_job_or_idle(wait_seconds: int = 5) -> dict[str, str] | None:
    """Variant used by the autoscaled workers, which must notice a shutdown request."""
    item = primary.brpop([keys.FULFILMENT_QUEUE], timeout=wait_seconds)
    return json.loads(item[1]) if item else None


# ---- coupons -----------------------------------------------------------------------------------


def seed_coupon(code: str, quantity: int, ends_at: int) -> None:
    primary.set(keys.coupon_stock(code), quantity, exat=ends_at)


def claim_coupon(code: str, user_id: int) -> bool:
    """First come, first served; at most one claim per user (checked and written atomically)."""
    return _claim(keys=[keys.coupon_stock(code), keys.coupon_claimed(code)], args=[user_id]) == 1


def grant_coupon(code: str, user_ids: list[int]) -> None:
    """Marketing pushes a coupon into many wallets at once."""
    pipe = primary.pipeline(transaction=False)
    for user_id in user_ids:
        wallet = keys.user_coupons(user_id)
        pipe.sadd(wallet, code)
        pipe.expire(wallet, WALLET_TTL + random.randint(0, 6 * 3600))
    pipe.execute()


def has_claimed(code: str, user_id: int) -> bool:
    return bool(primary.sismember(keys.coupon_claimed(code), user_id))


def claimed_by(code: str) -> set[bytes]:
    """CSV export for the marketing team."""
    return primary.smembers(keys.coupon_claimed(code))  # error: CMD005


def mark_redeemed(code: str, order_id: str) -> bool:
    return bool(primary.set(f"coupon:redeemed:{code}-{order_id}", 1, nx=True, ex=WALLET_TTL))  # error: KEY010


def end_campaign(code: str) -> None:
    primary.delete(keys.coupon_stock(code), keys.coupon_claimed(code))  # error: CMD008
