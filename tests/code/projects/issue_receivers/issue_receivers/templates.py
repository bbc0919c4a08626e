"""Key names built every way item 2 lists: literals, f-strings, `%`, `.format`, concatenation, module constants."""
# ruff: noqa: UP031, UP032 -- the %-format and .format templates are the point of this module

from __future__ import annotations

from issue_receivers.factories import primary

HOME_PAGE = "cache:page:Home"
PROFILE_PREFIX = "user:profile:"
TIMELINE_PREFIX = "timeline:home:"
ORDER_TEMPLATE = "order:status:%s"


def home_page_literal() -> bytes | None:
    return primary.get("cache:page:HOME")  # error: KEY006


def nickname_fstring(uid: int) -> bytes | None:
    return primary.get(f"user:nick name:{uid}")  # error: KEY001


def coupon_percent(code: str) -> bytes | None:
    return primary.get("coupon:code:%s" % code)  # error: KEY018


def price_format(sku: str) -> bytes | None:
    return primary.get("product:price.history:{}".format(sku))  # error: KEY010


def address_concat(uid: int) -> bytes | None:
    return primary.get("user::address:" + str(uid))  # error: KEY009


def home_page_constant() -> bytes | None:
    return primary.get(HOME_PAGE)  # error: KEY006


def timeline_constant_fstring(uid: int) -> list[bytes]:
    return primary.lrange(f"{TIMELINE_PREFIX}{uid}", 0, 49)  # error: KEY018


def profile_constant_concat(uid: int) -> bytes | None:
    return primary.hget(PROFILE_PREFIX + str(uid) + ":Avatar", "url")  # error: KEY006


def order_constant_percent(order_id: str) -> bytes | None:
    return primary.get(ORDER_TEMPLATE % order_id)


def profile_fields(uid: int) -> list[bytes | None]:
    return primary.hmget(PROFILE_PREFIX + str(uid), ["name", "email"])


def order_status(order_id: str) -> bytes | None:
    return primary.get("order:status:{}".format(order_id))


def product_title(sku: str) -> bytes | None:
    return primary.get(f"product:title:{sku}")


def glob_in_constant_key() -> int:
    return primary.exists("cache:page:*")  # error: KEY003
