"""Key templates: the naming rules of 000, 001, 003 and 004, and the declared namespaces of this service."""
# ruff: noqa: UP031, UP032 -- the %-format and .format templates are the point of this module

from __future__ import annotations

from issue_list.connection import async_client, redis_client

HOME_BANNER = "cache:HOME_BANNER"
EXPORT_STATUS = (
    "tmp:export:monthly_revenue_breakdown_by_region_and_product_category"
    "_including_refunds_chargebacks_partner_commissions_and_taxes:status"
)


# ---- upper case, camelCase (004 §2.1, §2.3) ---------------------------------------------------------------


def user_settings(uid: int) -> dict[bytes, bytes]:
    return redis_client.hmget(f"user:Settings:{uid}", ["theme", "lang"])  # error: KEY006


def home_banner() -> bytes | None:
    return redis_client.get(HOME_BANNER)  # error: KEY006


def last_seen(uid: int) -> bytes | None:
    return redis_client.get(f"user:lastSeen:{uid}")  # error: KEY007


def last_seen_ok(uid: int) -> bytes | None:
    return redis_client.get(f"user:last_seen:{uid}")


# ---- forbidden characters: spaces, quotes (001 §1.1), non-ASCII ---------------------------------------------


def display_name(uid: int) -> bytes | None:
    return redis_client.get(f"user:display name:{uid}")  # error: KEY001


def quoted_title(sku: str) -> bytes | None:
    return redis_client.get("product:title:'" + sku + "'")  # error: KEY001


def product_label(sku: str) -> bytes | None:
    return redis_client.get(f"product:名称:{sku}")  # error: KEY002


# ---- glob characters and other punctuation ----------------------------------------------------------------


def drop_user_cache() -> None:
    redis_client.delete("cache:user:*")  # error: KEY003


def price_of(sku: str) -> bytes | None:
    return redis_client.get(f"product:price:${sku}")  # error: KEY004


# ---- length (000 §大小: ≤ 128 bytes) ------------------------------------------------------------------------


def export_status() -> bytes | None:
    return redis_client.get(EXPORT_STATUS)  # error: KEY005, KEY015


# ---- levels: too few, too many, empty (004 §1, §5.2) -------------------------------------------------------


def visits() -> bytes | None:
    return redis_client.get("visits")  # error: KEY008, KEY018


def theme_color(uid: int) -> bytes | None:
    return redis_client.get(f"user:settings:display:theme:color:dark:{uid}")  # error: KEY008


def cached_banner() -> bytes | None:
    return redis_client.get("cache::banner")  # error: KEY009


# ---- operators as separators (000 §各种ID: not "-", ".", "+", "=") ------------------------------------------


def cart_line(uid: int, sku: str) -> bytes | None:
    return redis_client.get(f"order:line:{uid}-{sku}")  # error: KEY010


def price_history(sku: str) -> bytes | None:
    return redis_client.get("product:price.history:{}".format(sku))  # error: KEY010


# ---- hashtags (000 §命名: only where needed, well formed) ---------------------------------------------------


def broken_cart(uid: int) -> dict[bytes, bytes]:
    return redis_client.hmget(f"cart:{{{uid}:items", ["count"])  # error: KEY011


def order_items(order_id: str) -> bytes | None:
    return redis_client.get(f"order:{{{order_id}}}:items")  # error: KEY012


def cart_items(uid: int) -> list[bytes | None]:
    return redis_client.hmget(f"cart:{{{uid}}}:items", ["count", "total"])


# ---- `#` only for split keys (000 §命名) --------------------------------------------------------------------


def product_detail(sku: str) -> bytes | None:
    return redis_client.get(f"product:detail#{sku}:summary")  # error: KEY014


# ---- abbreviations (003, 004 §5.2: no ambiguous abbreviations) ---------------------------------------------


def profile_by_abbreviation(uid: int) -> bytes | None:
    # one short word next to readable ones passes the default "readable" abbreviation policy (KEY015 doc)
    return redis_client.hget(f"user:prf:{uid}", "name")


# ---- type and time levels (004 §3, §4) ---------------------------------------------------------------------


def chat_backlog(room_id: int) -> int:
    return redis_client.llen(f"chat:messages:lst:room_id:{room_id}")  # error: KEY016


def feed_length(uid: int) -> int:
    return redis_client.llen(f"user:feed:zset:{uid}")  # error: KEY016


def daily_summary() -> bytes | None:
    return redis_client.get("order:summary:date:2024_11_22")  # error: KEY017


def daily_summary_ok() -> bytes | None:
    return redis_client.get("order:summary:date:20241122")


# ---- declared namespaces: a template outside every one is reported ------------------------------------------


def coupon(code: str) -> bytes | None:
    return redis_client.get("coupon:code:%s" % code)  # error: KEY018


async def feature_flag(name: str) -> bytes | None:
    return await async_client.get(f"feature_flag:{name}")  # error: KEY018


def inventory(sku: str) -> bytes | None:
    return redis_client.get("inventory:sku:" + sku)  # error: KEY018


def stock(sku: str) -> bytes | None:
    return redis_client.get("product:stock:%s" % sku)
