"""Key names of the payments service, kept in one module so rediscipline.toml stays the true schema."""

from __future__ import annotations

from datetime import datetime

IDEMPOTENCY = "payment:idempotency:{merchant_id}:{request_key}"
WALLET_HISTORY = "payment:wallet_history:{wallet_id}"
LEDGER_STREAM = "payment:ledger:{wallet_id}"
LEDGER_OUTBOX = "payment:ledger:outbox"
WALLET_LOCK = "payment:lock:wallet:{wallet_id}"
PAYOUT_LOCK = "payment:lock:payout:{merchant_id}"
EXCHANGE_RATE = "payment:rate:{base}-{quote}"

BLOCKLIST_CARDS = "fraud:blocklist:cards"
BLOCKLIST_DEVICES = "fraud:blocklist:devices"
FLAGGED_DEVICES = "fraud:blocklist:flagged_devices"
MANUAL_REVIEW_RULES = "fraud:rules:manual review"

WEBHOOK_PAYLOAD = "webhook:payload:{event_id}"
WEBHOOK_DEAD_LETTER = "webhook:dead_letter:queue"
WEBHOOK_ALERTS = "webhook:dead_letter:alerts"


def idempotency_key(merchant_id: str, request_key: str) -> str:
    return IDEMPOTENCY.format(merchant_id=merchant_id, request_key=request_key)


def wallet_key(wallet_id: str) -> str:
    return f"payment:wallet:{wallet_id}"


def card_velocity(card_hash: str, window: int, bucket: int) -> str:
    return f"fraud:velocity:{card_hash}:{window}:{bucket}"


def ip_velocity(ip: str, bucket: int) -> str:
    return f"fraud:velocity:IP:{ip}:{bucket}"


def retry_bucket(due: datetime) -> str:
    """Retries are bucketed by hour so a bucket can expire once its hour is long gone."""
    return f"webhook:retry:{due:%Y%m%d%H}"
