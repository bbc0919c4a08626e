"""Operator tasks behind the /internal routes and the nightly cron."""

from __future__ import annotations

import logging
import random

import redis

from svc_orders import keys
from svc_orders.clients import primary, reporting

log = logging.getLogger(__name__)

ARCHIVE_TTL = 90 * 24 * 3600
REMINDER_TTL = 3 * 24 * 3600
ORDER_PREFIX = "order:"


def purge_status_cache() -> int:
    """After a bad deploy wrote garbage statuses: drop them all, MySQL refills them."""
    stale = primary.keys("order:status:*")  # error: CMD001
    if stale:
        primary.unlink(*stale)
    log.warning("purged %d cached statuses", len(stale))
    return len(stale)


def reset_sandbox(r: redis.Redis) -> None:
    """Staging only: wipe the sandbox between end-to-end runs."""
    r.flushdb()  # error: CMD002


def reset_sandbox_in_background(r: redis.Redis) -> None:
    r.flushdb(asynchronous=True)


def tune_for_flash_sale(r: redis.Redis) -> None:
    """Before a flash sale, eviction must spare keys without a TTL."""
    r.config_set("maxmemory-policy", "volatile-lru")  # error: CMD004


def key_report(r: redis.Redis, key: str) -> dict[str, object]:
    """Answers "why is this key so big?" on the admin page."""
    details = r.debug_object(key)  # error: CMD004
    return {"encoding": details.get("encoding"), "bytes": r.memory_usage(key, samples=5), "ttl": r.ttl(key)}


def memory_report(r: redis.Redis, key: str) -> dict[str, object]:
    return {"bytes": r.memory_usage(key, samples=5), "type": r.type(key), "ttl": r.ttl(key)}


def archive_orders(order_ids: list[str]) -> None:
    """Monthly: finished orders keep only their final status, for 90 days."""
    pipe = primary.pipeline(transaction=False)
    for order_id in order_ids:
        pipe.set(keys.order_status(order_id), "archived", ex=ARCHIVE_TTL)  # error: TTL007
        pipe.unlink(keys.order_summary(order_id))
    pipe.execute()


def backfill_recent_orders(user_id: int, order_ids: list[str]) -> None:
    """One-off migration from MySQL: the user's last orders, newest first."""
    primary.rpush(keys.recent_orders(user_id), *order_ids[:50])  # error: TTL006


def seed_load_test() -> None:
    """Staging: ten thousand paid orders for the load test, in one round trip."""
    pipe = primary.pipeline(transaction=False)
    for n in range(10_000):
        pipe.set(keys.order_status(str(n)), "paid", ex=3600 + random.randint(0, 600))
    pipe.execute()  # error: BAT003


def daily_revenue(day: str) -> list[tuple[bytes, float]]:
    """Revenue per merchant for the finance export."""
    return reporting.zrange(f"report:revenue:{day}", 0, -1, withscores=True)  # error: CMD005, KEY018


def legacy_status(order_id: str) -> bytes | None:
    """The PHP storefront still writes statuses under its own keys during the migration."""
    return primary.get("ORDER_STATUS:" + order_id)  # error: KEY006, KEY018


def status_by_prefix(order_id: str) -> bytes | None:
    return primary.get(f"{ORDER_PREFIX}:status:{order_id}")  # error: KEY009


def remember_reminder_sent(customer_id: int, campaign: str) -> bool:
    """The abandoned-cart mailer must not send the same reminder twice."""
    key = f"checkout:abandoned_cart_reminder_notification:customer:{customer_id}:campaign:{campaign}"
    return bool(primary.set(key, 1, nx=True, ex=REMINDER_TTL))  # error: KEY005, KEY015


def export_carts(redis_conn, user_ids: list[int]) -> dict[int, dict[bytes, bytes]]:
    """Data-warehouse export, written before the repository existed."""
    return {user_id: redis_conn.hgetall("cart:items:%s" % user_id) for user_id in user_ids}  # noqa: UP031  # error: CMD005


def cart_sizes(redis_conn, user_ids: list[int]) -> dict[int, int]:
    return {user_id: int(redis_conn.hlen("cart:items:{}".format(user_id))) for user_id in user_ids}  # noqa: UP032


def delete_archived_rows(session, rows: list[object]) -> None:
    """SQLAlchemy side of the archive job; nothing to do with Redis."""
    for row in rows:
        session.delete(row)
    session.commit()


def settle_refund(r: redis.Redis, order_id: str, amount_cents: int) -> None:
    """The refund and the status change are applied together."""
    pipe = r.pipeline(True)  # error: CMD007
    pipe.hset(keys.order_summary(order_id), "refunded_cents", amount_cents)
    pipe.expire(keys.order_summary(order_id), ARCHIVE_TTL)
    pipe.set(keys.order_status(order_id), "refunded", ex=ARCHIVE_TTL)
    pipe.execute()
