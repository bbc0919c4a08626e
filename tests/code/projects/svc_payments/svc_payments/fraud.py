"""Fraud checks run on every authorisation: velocity counters, blocklists and the scoring script.

A Flask blueprint mounted by the API app; it uses the process-wide client from `redis_clients`.
"""

from __future__ import annotations

import json
import time
from typing import Any

from flask import Blueprint, jsonify, request

from svc_payments import keys
from svc_payments.redis_clients import redis_client
from svc_payments.settings import settings

bp = Blueprint("fraud", __name__, url_prefix="/fraud")

WINDOWS = (60, 3600, 86400)
LIMITS = {60: 5, 3600: 30, 86400: 100}
DEVICE_TTL = 30 * 86400

SCORE_LUA = """
local hour = tonumber(redis.call('get', KEYS[1]) or '0')
local day = tonumber(redis.call('get', KEYS[2]) or '0')
return hour * tonumber(ARGV[1]) + day * tonumber(ARGV[2])
"""
_score = redis_client.register_script(SCORE_LUA)


def card_velocity(card_hash: str) -> dict[int, int]:
    """One INCR per window, all in one round trip; each counter lives two windows."""
    now = int(time.time())
    pipe = redis_client.pipeline(transaction=False)
    for window in WINDOWS:
        key = keys.card_velocity(card_hash, window, now // window)
        pipe.incr(key)
        pipe.expire(key, window * 2)
    replies = pipe.execute()
    return {window: int(replies[index * 2]) for index, window in enumerate(WINDOWS)}


def ip_velocity(ip: str) -> int:
    key = keys.ip_velocity(ip, int(time.time()) // 60)
    pipe = redis_client.pipeline(transaction=False)
    pipe.incr(key)  # error: KEY006
    pipe.expire(key, 120)  # error: KEY006
    count, _ = pipe.execute()
    return int(count)


def touch_device(device_id: str) -> None:
    redis_client.set(f"fraud:device:{device_id}:lastSeen", int(time.time()), ex=DEVICE_TTL)  # error: KEY007


def is_blocked(card_hash: str) -> bool:
    return bool(redis_client.sismember(keys.BLOCKLIST_CARDS, card_hash))


def load_blocklist(card_hashes: list[str]) -> int:
    """Nightly import of the card network's list of compromised cards."""
    if not card_hashes:
        return 0
    return int(redis_client.sadd(keys.BLOCKLIST_CARDS, *card_hashes))  # error: TTL006


def devices_shared_with_blocked_cards() -> set[bytes]:
    return redis_client.sinter(keys.BLOCKLIST_DEVICES, keys.FLAGGED_DEVICES)  # error: CMD005


def manual_review_rules() -> dict[str, Any]:
    raw = redis_client.get(keys.MANUAL_REVIEW_RULES)  # error: KEY001
    return dict(json.loads(raw)) if raw else {}


@bp.post("/score")
def score() -> Any:
    body = request.get_json(force=True)
    card_hash, ip = body["card_hash"], body["ip"]
    if is_blocked(card_hash):
        return jsonify({"decision": "decline", "reason": "blocklist"})
    counts = card_velocity(card_hash)
    over = [window for window, count in counts.items() if count > LIMITS[window]]
    now = int(time.time())
    hourly = keys.card_velocity(card_hash, 3600, now // 3600)
    daily = keys.card_velocity(card_hash, 86400, now // 86400)
    risk = _score(keys=[hourly, daily], args=[3, 1])
    ip_velocity(ip)
    if "device_id" in body:
        touch_device(body["device_id"])
    decision = "review" if over or int(risk) > 40 else "approve"
    return jsonify({"decision": decision, "windows": over, "risk": int(risk)})


@bp.get("/blocklist")
def export_blocklist() -> Any:
    members = redis_client.smembers(keys.BLOCKLIST_CARDS)  # error: CMD005
    return jsonify(sorted(member.decode() for member in members))


# ---- on-call helpers (the runbook links them; they run from a Flask shell) -------------------------------


def stale_velocity_keys() -> list[bytes]:
    """Counters left without a TTL by the 2023 pipeline bug."""
    return [key for key in redis_client.keys("fraud:velocity:*") if redis_client.ttl(key) == -1]  # error: CMD001


def counter_encoding(key: str) -> dict[str, Any]:
    return dict(redis_client.debug_object(key))  # error: CMD004


def reset_sandbox() -> None:
    """Wipe the sandbox instance between merchant integration test runs."""
    if settings.ENVIRONMENT != "sandbox":
        raise RuntimeError("reset_sandbox only runs in the sandbox")
    redis_client.flushdb()  # error: CMD002
