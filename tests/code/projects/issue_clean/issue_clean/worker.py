"""Background worker: ticket e-mails from the queue, expired holds, notifications, nightly maintenance."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from issue_clean.extensions import DAY, HOUR, analytics, store, ttl

log = logging.getLogger(__name__)

EMAIL_QUEUE = "queue:ticket_email"
DEAD_LETTERS = "queue:ticket_email:dead"
POLL_SECONDS = 5


def enqueue_ticket_email(order_id: str, address: str) -> None:
    store.lpush(EMAIL_QUEUE, json.dumps({"order": order_id, "to": address}))


def work_forever(send: Callable[[dict[str, str]], None]) -> None:
    while True:
        job = store.brpop(EMAIL_QUEUE, timeout=POLL_SECONDS)
        if job is None:
            continue
        _queue, raw = job
        try:
            send(json.loads(raw))
        except Exception:
            log.exception("ticket e-mail failed")
            store.lpush(DEAD_LETTERS, raw)
            store.ltrim(DEAD_LETTERS, 0, 999)


def drain_dead_letters(send: Callable[[dict[str, str]], None]) -> None:
    while job := store.brpop(DEAD_LETTERS):  # error: PUB001
        send(json.loads(job[1]))


def queue_length() -> int:
    return store.llen(EMAIL_QUEUE)


def stale_holds() -> list[bytes]:
    """Holds are expired by Redis; this only lists the ones checkout still shows, for the dashboard."""
    return list(store.scan_iter(match="hold:seat:*", count=500, _type="string"))


def audit_holds() -> int:
    return sum(1 for _key in store.scan_iter(match="hold:seat:*"))  # error: CMD010


def publish_sale_started(event_id: int) -> None:
    store.publish(f"notify:sale:{event_id}", "started")


def listen_for_sales(event_ids: list[int], handler: Callable[[dict[str, object]], None]) -> None:
    pubsub = store.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(*[f"notify:sale:{event_id}" for event_id in event_ids[:50]])
    for message in pubsub.listen():
        handler(message)


def count_checkout(day: str) -> None:
    key = f"metrics:checkout:{day}"  # reported where the key is used, at each call (below)
    analytics.incr(key)  # error: KEY018
    analytics.expire(key, ttl(7 * DAY))  # error: KEY018


def record_sales_total(day: str, total: int) -> None:
    analytics.set(f"user:sales_total:{day}", total, ex=ttl(HOUR))


def reset_staging() -> None:
    """Run by the staging deploy before fixtures are loaded."""
    store.flushdb()  # error: CMD002
