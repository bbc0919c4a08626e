"""Checkout: order ids, status cache, coupons, invoices. Orders themselves live in PostgreSQL."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import redis
from sqlalchemy.orm import Session

from shop.extensions import analytics, redis_client
from shop.keys import ORDER_ID_SEQ, cart_key, coupon_key, invoice_key, order_status_key

STATUS_TTL = 7 * 86400
INVOICE_DIR = Path("/var/lib/shop/invoices")


def next_order_id() -> int:
    return int(redis_client.incr(ORDER_ID_SEQ))


def set_status(order_id: int, status: str) -> None:
    redis_client.set(order_status_key(order_id), status, ex=STATUS_TTL)


def get_status(order_id: int) -> bytes | None:
    return redis_client.get(order_status_key(order_id))


def redeem_coupon(user_id: int, code: str) -> bool:
    """A coupon can be used once per user: the set remembers who used it."""
    return bool(redis_client.sadd(coupon_key(code), user_id))  # error: TTL006


def coupon_users(code: str) -> int:
    return redis_client.scard(coupon_key(code))


def rename_coupon(old_code: str, new_code: str) -> None:
    """Support tool: move who redeemed a coupon to its new code, atomically."""

    def move(pipe: redis.client.Pipeline) -> None:
        users = pipe.smembers(coupon_key(old_code))  # error: CMD005
        pipe.multi()  # the transaction below: reported once, at `redis_client.transaction(move, ...)`
        if users:
            pipe.sadd(coupon_key(new_code), *users)  # error: TTL006
        pipe.unlink(coupon_key(old_code))

    redis_client.transaction(move, coupon_key(old_code), coupon_key(new_code))  # error: CMD007


def checkout(db: Session, user_id: int, order: object) -> None:
    """Empty the cart only if nobody changed it while the order was written (optimistic locking)."""
    key = cart_key(user_id)
    with redis_client.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)  # WATCH precedes the MULTI reported below: one transaction, one finding
                if not pipe.hlen(key):
                    return
                pipe.multi()  # error: CMD007
                pipe.delete(key)  # error: CMD008
                pipe.execute()
                break
            except redis.WatchError:
                continue
    db.add(order)
    db.commit()


def cancel(db: Session, order: object) -> None:
    db.delete(order)
    db.commit()
    analytics.incr(f"metrics:cancelled:{datetime.date.today():%Y%m%d}")  # error: KEY018, TTL006


def store_invoice(order_id: int, pdf: bytes) -> Path:
    path = INVOICE_DIR / f"{order_id}.pdf"
    path.write_bytes(pdf)
    redis_client.set(invoice_key(order_id), str(path), ex=STATUS_TTL)  # error: KEY010
    return path


def drop_invoice(order_id: int) -> None:
    path = INVOICE_DIR / f"{order_id}.pdf"
    if path.exists():
        os.unlink(path)
    redis_client.unlink(invoice_key(order_id))  # error: KEY010


def count_checkout(day: datetime.date) -> None:
    key = f"order:checkouts:{day:%Y%m%d}"
    analytics.incr(key)
    analytics.expire(key, 90 * 86400)
