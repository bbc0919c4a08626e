"""Locks and dedup for tasks that must not run twice: redis-py's Lock, SET NX EX, and an old SETNX path."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from redis.exceptions import LockError

from .broker import app, get_redis, r

DEDUP_TTL = 24 * 3600

RELEASE = """
if redis.call("get", KEYS[1]) == ARGV[1] then
    return redis.call("del", KEYS[1])
end
return 0
"""
_release = r.register_script(RELEASE)


class AlreadyRunning(RuntimeError):
    pass


@contextmanager
def job_lock(name: str, ttl: int = 300) -> Iterator[str]:
    token = uuid.uuid4().hex
    key = f"lock:job:{name}"
    if not r.set(key, token, nx=True, ex=ttl):
        raise AlreadyRunning(name)
    try:
        yield token
    finally:
        _release(keys=[key], args=[token])


@app.task(bind=True, max_retries=3, default_retry_delay=30)
def rebuild_search_index(self: Any, shard: int) -> str:
    try:
        with r.lock(f"lock:index:{shard}", timeout=600, blocking_timeout=1):
            return f"shard {shard} rebuilt by {self.request.id}"
    except LockError as exc:
        raise self.retry(exc=exc) from exc


@app.task
def send_invoices(batch_id: int) -> None:
    with job_lock(f"invoices:{batch_id}", ttl=900):
        pass


def acquire_legacy(name: str) -> bool:
    key = f"lock:legacy:{name}"
    if r.setnx(key, os.getpid()):  # error: TTL008
        r.expire(key, 60)
        return True
    return False


def release_legacy(name: str, token: str) -> int:
    return int(r.eval(RELEASE, 1, f"lock:legacy:{name}", token))  # error: CMD009


def first_delivery(message_id: str) -> bool:
    return bool(r.set(f"dedup:msg:{message_id}", 1, nx=True, ex=DEDUP_TTL))


@app.task
def ingest(events: list[dict[str, Any]]) -> int:
    fresh = []
    for event in events:
        if r.set(f"dedup:event:{event['id']}", 1, nx=True, ex=86400):  # error: TTL007
            fresh.append(event)
    return len(fresh)


@app.task
def ingest_spread(events: list[dict[str, Any]]) -> int:
    conn = get_redis()
    fresh = 0
    for event in events:
        if conn.set(f"dedup:event:{event['id']}", 1, nx=True, ex=DEDUP_TTL + random.randint(0, 600)):
            fresh += 1
    return fresh


def mark_batch(batch_id: str, ids: list[str]) -> None:
    key = f"dedup:batch:{batch_id}"
    pipe = r.pipeline(transaction=False)
    pipe.sadd(key, *ids)
    pipe.expire(key, DEDUP_TTL + random.randint(0, 600))
    pipe.execute()


def seen_in_batch(batch_id: str, item_id: str) -> bool:
    return bool(r.sismember(f"dedup:batch:{batch_id}", item_id))
