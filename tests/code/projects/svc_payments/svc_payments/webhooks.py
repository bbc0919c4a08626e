"""Merchant webhooks: Celery tasks that deliver events and retry them with exponential backoff.

Deliveries due for a retry wait in hourly sorted-set buckets scored by due time; after the last attempt an
event goes to the dead-letter list that on-call replays by hand.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta, timezone

import redis
import requests
from celery import shared_task

from svc_payments import keys
from svc_payments.redis_clients import get_redis
from svc_payments.settings import settings

log = logging.getLogger(__name__)

PAYLOAD_TTL = 3 * 24 * 3600
BUCKET_TTL = 2 * 24 * 3600
DUE_BATCH = 100
ALERTS_TTL = 24 * 3600


def _payload_key(event_id: str) -> str:
    return keys.WEBHOOK_PAYLOAD.format(event_id=event_id)


@shared_task
def enqueue_delivery(event_id: str, url: str, body: str, attempt: int = 0) -> None:
    r = get_redis()
    due = datetime.now(timezone.utc) + timedelta(seconds=30 * 2**attempt)
    bucket = keys.retry_bucket(due)
    pipe = r.pipeline(transaction=False)
    pipe.set(_payload_key(event_id), body, ex=PAYLOAD_TTL)
    pipe.zadd(bucket, {f"{event_id}|{attempt}|{url}": due.timestamp()})
    pipe.expire(bucket, BUCKET_TTL)
    pipe.execute()


@shared_task
def deliver_due() -> int:
    """Beat runs this every 10 s: at most DUE_BATCH deliveries per run keep each run short."""
    r = get_redis()
    bucket = keys.retry_bucket(datetime.now(timezone.utc))
    due = r.zrangebyscore(bucket, "-inf", time.time(), start=0, num=DUE_BATCH)
    delivered = 0
    for member in due:
        event_id, attempt, url = member.decode().split("|", 2)
        body = r.get(_payload_key(event_id))
        r.zrem(bucket, member)
        if body is None:
            continue
        try:
            requests.post(url, data=body, timeout=5).raise_for_status()
            delivered += 1
        except requests.RequestException:
            if int(attempt) + 1 >= settings.WEBHOOK_MAX_ATTEMPTS:
                _dead_letter(r, event_id)
            else:
                enqueue_delivery.delay(event_id, url, body.decode(), int(attempt) + 1)
    return delivered


def _dead_letter(r: redis.Redis, event_id: str) -> None:
    r.lpush(keys.WEBHOOK_DEAD_LETTER, event_id)  # error: TTL006
    r.ltrim(keys.WEBHOOK_DEAD_LETTER, 0, 9999)
    pipe = r.pipeline(transaction=False)
    pipe.lpush(keys.WEBHOOK_ALERTS, event_id)
    pipe.expire(keys.WEBHOOK_ALERTS, ALERTS_TTL)
    pipe.execute()


@shared_task
def replay_dead_letters(url: str) -> int:
    r = get_redis()
    event_ids = r.lrange(keys.WEBHOOK_DEAD_LETTER, 0, -1)  # error: CMD005
    for raw in event_ids:
        body = r.get(_payload_key(raw.decode()))
        if body is not None:
            enqueue_delivery.delay(raw.decode(), url, body.decode())
    r.unlink(keys.WEBHOOK_DEAD_LETTER)
    return len(event_ids)


def dead_letter_alerts() -> None:
    """`python -m svc_payments.webhooks`: pages on-call for every event that exhausted its retries."""
    r = get_redis()
    while True:
        _, event_id = r.brpop(keys.WEBHOOK_ALERTS, timeout=0)  # error: PUB001
        log.error("webhook event %s exhausted its retries", event_id.decode())


# ---- maintenance --------------------------------------------------------------------------------------


def reseed_payloads(archive: list[bytes]) -> None:
    """Restore the last 1000 archived payloads after a failover lost them."""
    r = get_redis()
    pipe = r.pipeline(transaction=False)
    for n in range(1000):
        ttl = PAYLOAD_TTL + random.randint(0, 3600)
        pipe.set(_payload_key(f"replay_{n}"), archive[n], ex=ttl)
    pipe.execute()  # error: BAT003


def audit_replayed_payloads() -> int:
    r = get_redis()
    bodies = r.mget([_payload_key(f"replay_{n}") for n in range(300)])  # error: BAT001
    return sum(body is not None for body in bodies)


def seed_load_test() -> None:
    """Staging only: fill the instance with fake payloads before a load test."""
    r = get_redis()
    for n in range(5000):
        r.set(f"webhook:payload:loadtest_{n}", "{}", ex=3600)  # error: BAT002, TTL007


def purge_orphan_payloads() -> int:
    """Payloads written by the 2023 bug have no TTL; unlink them in batches."""
    r = get_redis()
    removed = 0
    batch: list[bytes] = []
    for key in r.scan_iter(match="webhook:payload:*"):  # error: CMD010
        if r.ttl(key) == -1:
            batch.append(key)
        if len(batch) >= 100:
            removed += r.unlink(*batch)
            batch.clear()
    if batch:
        removed += r.unlink(*batch)
    return removed


def pending_retries() -> int:
    r = get_redis()
    return sum(r.zcard(bucket) for bucket in r.scan_iter(match="webhook:retry:*", count=500))


def tail_commands(seconds: float = 5.0) -> list[str]:
    """Debug helper for the webhook on-call: what is hitting the instance right now."""
    r = get_redis()
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    with r.monitor() as monitor:  # error: CMD003
        for command in monitor.listen():
            seen.append(command["command"])
            if time.monotonic() > deadline:
                break
    return seen


if __name__ == "__main__":
    dead_letter_alerts()
