"""Per-device rate limits, ingest quotas, the downlink command queue and alert fan-in.

Limits live on the standalone limiter instance, not on the telemetry cluster.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import redis

from svc_iot import keys
from svc_iot.clients import cluster, limiter

WINDOW = 60
MAX_PER_WINDOW = 120
COMMAND_TTL = 24 * 3600
ROLLOUT_TTL = 7 * 24 * 3600
TOKEN_BUCKET_LUA = """
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or ARGV[1])
local stamp = tonumber(redis.call('HGET', KEYS[1], 'stamp') or ARGV[4])
tokens = math.min(tonumber(ARGV[1]), tokens + (tonumber(ARGV[4]) - stamp) * tonumber(ARGV[2]))
local allowed = tokens >= tonumber(ARGV[3])
if allowed then tokens = tokens - tonumber(ARGV[3]) end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'stamp', ARGV[4])
redis.call('EXPIRE', KEYS[1], 3600)
return allowed and 1 or 0
"""


def allow(device_id: str, r: redis.Redis = limiter) -> bool:
    """Fixed window: INCR, and EXPIRE only when the window was just created."""
    key = keys.device_rate(device_id, int(time.time()) // WINDOW)
    count = int(r.incr(key))
    if count == 1:
        r.expire(key, WINDOW * 2)
    return count <= MAX_PER_WINDOW


def allow_download(device_id: str, cost: int = 1) -> bool:
    """Token bucket for firmware downloads: 20 tokens, refilled at one every two seconds."""
    bucket = f"rate_limit:bucket:{device_id}"
    allowed = limiter.eval(TOKEN_BUCKET_LUA, 1, bucket, 20, 0.5, cost, time.time())  # error: CMD009
    return bool(allowed)


def charge_ingest_quota(tenant: str, readings: int) -> int:
    """Daily ingest quota per tenant; billing reads the counters after midnight."""
    return int(limiter.incrby(keys.ingest_quota(tenant, time.strftime("%Y%m%d")), readings))  # error: TTL006


def reset_window(device_id: str) -> None:
    """Support tool: give a throttled device a fresh window."""
    key = keys.device_rate(device_id, int(time.time()) // WINDOW)
    limiter.set(key, 0)  # error: TTL008
    limiter.expire(key, WINDOW * 2)


def reset_device_limits(device_id: str) -> None:
    """Both limits go at once so the device cannot slip through between them."""
    pipe = limiter.pipeline(transaction=True)  # error: CMD007
    pipe.unlink(f"rate_limit:bucket:{device_id}")
    pipe.unlink(keys.device_rate(device_id, int(time.time()) // WINDOW))
    pipe.execute()


def start_rollout(campaign: str, device_ids: list[str]) -> None:
    """Devices taking part in a firmware rollout, for the OTA dashboard."""
    key = f"firmware:rollout:{campaign}"
    limiter.sadd(key, *device_ids)  # error: KEY018
    limiter.expire(key, ROLLOUT_TTL)  # error: KEY018


# ---- downlink commands ----------------------------------------------------------------------------


def send_command(device_id: str, command: dict[str, Any]) -> None:
    key = keys.command_queue(device_id)
    pipe = cluster.pipeline(transaction=False)
    pipe.rpush(key, json.dumps(command))
    pipe.expire(key, COMMAND_TTL)
    pipe.execute()


def next_command(device_id: str, wait_seconds: float = 25.0) -> dict[str, Any] | None:
    """Long-poll endpoint for devices behind NAT: wait at most 25 s."""
    item = cluster.blpop([keys.command_queue(device_id)], timeout=wait_seconds)
    return json.loads(item[1]) if item else None


def drain_commands(device_id: str, handle: Callable[[dict[str, Any]], None]) -> None:
    """Device simulator: forwards commands to the virtual device until the process is killed."""
    while True:
        _queue, payload = cluster.blpop([keys.command_queue(device_id)])  # error: PUB001
        handle(json.loads(payload))


# ---- alerts -----------------------------------------------------------------------------------------


def alert_listener() -> redis.client.PubSub:
    """The alerting service listens to every fleet's channel on one connection."""
    pubsub = limiter.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(*[f"alerts:fleet:{fleet}" for fleet in range(100)])  # error: PUB002
    return pubsub


def publish_alert(fleet: int, alert: dict[str, Any]) -> int:
    return int(limiter.publish(f"alerts:fleet:{fleet}", json.dumps(alert)))
