"""Partner sync: outbound changes queue up in Redis lists and a worker pushes them to partner APIs.

HTTP goes through httpx and requests, partner status is also mirrored in the legacy memcached that
the old PHP site still reads.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
from typing import Any

import requests

from .clients import http, legacy_mc, redis_client

log = logging.getLogger(__name__)

PARTNER_API = os.environ.get("PARTNER_API", "https://partners.example.com/v2")
OUTBOUND = "sync:queue:outbound"
SHARDS = 256
STATUS_TTL = 900

CLAIM_SCRIPT = """
local item = redis.call('RPOP', KEYS[1])
if item then redis.call('LPUSH', KEYS[2], item) end
return item
"""


def enqueue(change: dict[str, Any]) -> None:
    redis_client.lpush(OUTBOUND, json.dumps(change))
    redis_client.ltrim(OUTBOUND, 0, 99_999)


def enqueue_sharded(partner_id: int, change: dict[str, Any]) -> None:
    redis_client.rpush(f"sync:queue:shard:{partner_id % SHARDS}", json.dumps(change))


def push(change: dict[str, Any]) -> bool:
    r = http.post(f"{PARTNER_API}/changes", json=change)
    if r.status_code == 409:
        return True
    r.raise_for_status()
    return r.json().get("accepted", False)


def worker(stop: threading.Event) -> None:
    while not stop.is_set():
        item = redis_client.brpop(OUTBOUND, timeout=0)  # error: PUB001
        if item is None:
            continue
        _, raw = item
        try:
            push(json.loads(raw))
        except requests.RequestException:
            log.exception("push failed, requeueing")
            redis_client.rpush(OUTBOUND, raw)
            stop.wait(1 + random.random())


def polite_worker(stop: threading.Event) -> None:
    while not stop.is_set():
        item = redis_client.blpop([OUTBOUND], timeout=5)
        if item is not None:
            push(json.loads(item[1]))


def claim(source: str, processing: str) -> bytes | None:
    return redis_client.eval(CLAIM_SCRIPT, 2, source, processing)  # error: CMD009


def queue_depths() -> dict[int, int]:
    depths = {}
    for shard in range(SHARDS):
        depths[shard] = redis_client.llen(f"sync:queue:shard:{shard}")  # error: BAT002
    return depths


def queue_depths_pipelined() -> dict[int, int]:
    pipe = redis_client.pipeline(transaction=False)
    for shard in range(SHARDS):
        pipe.llen(f"sync:queue:shard:{shard}")
    return dict(enumerate(pipe.execute()))  # error: BAT003


def peek_all() -> list[bytes]:
    return redis_client.lrange(OUTBOUND, 0, -1)  # error: CMD005


def peek(n: int = 20) -> list[bytes]:
    return redis_client.lrange(OUTBOUND, 0, n - 1)


def refresh_status(partner_id: int) -> dict[str, Any]:
    resp = requests.get(f"{PARTNER_API}/partners/{partner_id}/status", timeout=5)
    resp.raise_for_status()
    status = resp.json()
    payload = json.dumps(status)
    redis_client.set(f"sync:partner:{partner_id}", payload, ex=STATUS_TTL + random.randint(0, 90))
    legacy_mc.set(f"partner_status_{partner_id}", payload, time=STATUS_TTL)
    return status


def refresh_all(partner_ids: list[int]) -> None:
    statuses = legacy_mc.get_multi([f"partner_status_{p}" for p in partner_ids])
    for partner_id in partner_ids:
        if f"partner_status_{partner_id}" in statuses:
            continue
        status = refresh_status(partner_id)
        redis_client.set(f"sync:partner:{partner_id}:seen", int(time.time()), ex=STATUS_TTL)  # error: TTL007
        legacy_mc.incr("partner_refreshes")
        if status.get("deleted"):
            requests.delete(f"{PARTNER_API}/partners/{partner_id}/webhooks", timeout=5)
            legacy_mc.delete_multi([f"partner_status_{partner_id}"])


def partner_lock(partner_id: int) -> bool:
    return bool(redis_client.set(f"sync:lock:{partner_id}", os.getpid(), nx=True, ex=30))  # error: KEY018
