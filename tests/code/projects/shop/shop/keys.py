"""Every key the storefront uses is built here, so the names stay in one place."""

from __future__ import annotations

CART_TTL = 7 * 24 * 3600
PRODUCT_TTL = 3600
SESSION_TTL = 1800

ORDER_ID_SEQ = "seq:order_id"
PRODUCT_PREFIX = "product:"


def cart_key(user_id: int) -> str:
    return f"cart:items:{user_id}"


def product_key(product_id: int) -> str:
    return f"product:detail:{product_id}"


def price_key(product_id: int) -> str:
    return "product:price:%d" % product_id  # noqa: UP031 (kept as the Java service writes it)


def review_count_key(product_id: int) -> str:
    return PRODUCT_PREFIX + ":reviews:" + str(product_id)


def stock_key(sku: str) -> str:
    return f"stock:sku:{sku}"


def session_key(session_id: str) -> str:
    return "session:web:{}".format(session_id)  # noqa: UP032


def recent_views_key(user_id: int) -> str:
    return f"user:recent_views:{user_id}"


def coupon_key(code: str) -> str:
    return f"coupon:redeemed:{code}"


def order_status_key(order_id: int) -> str:
    return f"order:status:{order_id}"


def invoice_key(order_id: int) -> str:
    return f"order:invoice-pdf:{order_id}"
