"""Every key the order service touches, spelled once.

Handlers never format key names themselves: the on-call engineer greps this file to
learn which team owns a key that shows up in `redis-cli --bigkeys`.
"""

from __future__ import annotations

#: Order ids scored by the time an unpaid order must be cancelled.
CANCEL_DUE = "checkout:cancel_due"
#: Paid orders waiting for a warehouse worker.
FULFILMENT_QUEUE = "checkout:fulfilment"


def cart_items(user_id: int) -> str:
    """Hash sku -> quantity."""
    return f"cart:items:{user_id}"


def cart_meta(user_id: int) -> str:
    """Hash of currency, applied coupon and last touch."""
    return f"cart:meta:{user_id}"


def stock(sku: str) -> str:
    return f"inventory:stock:{sku}"


def reservation(order_id: str) -> str:
    """Hash sku -> quantity held for an unpaid order."""
    return f"inventory:reserved:{order_id}"


def checkout_request(request_id: str) -> str:
    """The Idempotency-Key header of POST /checkout."""
    return f"checkout:request:{request_id}"


def order_status(order_id: str) -> str:
    return f"order:status:{order_id}"


def order_summary(order_id: str) -> str:
    return f"order:summary:{order_id}"


def order_lock(order_id: str) -> str:
    return f"order:lock:{order_id}"


def recent_orders(user_id: int) -> str:
    """List of the user's latest order ids, newest first."""
    return f"order:recent:{user_id}"


def coupon_stock(code: str) -> str:
    return f"coupon:stock:{code}"


def coupon_claimed(code: str) -> str:
    return f"coupon:claimed:{code}"


def user_coupons(user_id: int) -> str:
    return f"coupon:wallet:{user_id}"
