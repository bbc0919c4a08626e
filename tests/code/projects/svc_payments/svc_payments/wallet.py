"""Wallet balances, idempotent payment requests and the ledger streams.

Balances are owned by Postgres; Redis holds the hot copy every API node reads, the idempotency records that
make a retried POST safe, and the per-wallet ledger stream the reconciliation workers consume.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

import redis
from redis import Redis

from svc_payments import keys
from svc_payments.redis_clients import ledger_client, redis_client

WALLET_TTL = 7 * 24 * 3600
IDEMPOTENCY_TTL = 48 * 3600
LEDGER_TTL = 30 * 24 * 3600
LOCK_SECONDS = 30
MERCHANT_SETTINGS_TTL = 600

RELEASE_LOCK_LUA = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


class WalletBusyError(RuntimeError):
    """Another request holds the wallet's lock; the API answers 409 and the client retries."""


class InsufficientFundsError(ValueError):
    pass


@dataclass(frozen=True)
class LedgerEntry:
    wallet_id: str
    amount_cents: int
    currency: str
    reference: str

    def as_fields(self) -> dict[str, str]:
        return {
            "wallet_id": self.wallet_id,
            "amount_cents": str(self.amount_cents),
            "currency": self.currency,
            "reference": self.reference,
            "at": str(int(time.time() * 1000)),
        }


class WalletService:
    """Reads and moves money in the cached wallets. Clients are injected so tests can pass fakeredis."""

    def __init__(self, redis: Redis, ledger: redis.Redis) -> None:
        self.redis = redis
        self.ledger = ledger

    # ---- balances ------------------------------------------------------------------------------------

    def balance(self, wallet_id: str) -> int:
        raw = self.redis.hget(keys.wallet_key(wallet_id), "available")
        return int(raw or 0)

    def snapshot(self, wallet_id: str) -> dict[bytes, bytes]:
        """Everything we cache about a wallet, for the support console."""
        return self.redis.hgetall(keys.wallet_key(wallet_id))  # error: CMD005

    def open_wallet(self, wallet_id: str, currency: str) -> None:
        opened = {"available": 0, "held": 0, "currency": currency, "opened_at": int(time.time())}
        self.redis.hset(keys.wallet_key(wallet_id), mapping=opened)  # error: TTL006

    def credit(self, entry: LedgerEntry) -> None:
        key = keys.wallet_key(entry.wallet_id)
        with self.redis.pipeline(transaction=True) as pipe:  # error: CMD007
            pipe.hincrby(key, "available", entry.amount_cents)
            pipe.hset(key, "updated_at", int(time.time()))
            pipe.expire(key, WALLET_TTL)
            pipe.execute()
        self._append_ledger(entry)
        self._push_history(entry)

    def debit(self, entry: LedgerEntry) -> None:
        lock_key = keys.WALLET_LOCK.format(wallet_id=entry.wallet_id)
        token = uuid.uuid4().hex
        if not self.redis.set(lock_key, token, nx=True):  # error: TTL008
            raise WalletBusyError(entry.wallet_id)
        self.redis.expire(lock_key, LOCK_SECONDS)
        try:
            key = keys.wallet_key(entry.wallet_id)
            available = int(self.redis.hget(key, "available") or 0)
            if available < -entry.amount_cents:
                raise InsufficientFundsError(entry.wallet_id)
            self.redis.hincrby(key, "available", entry.amount_cents)
            self.redis.expire(key, WALLET_TTL)
        finally:
            self.redis.eval(RELEASE_LOCK_LUA, 1, lock_key, token)  # error: CMD009
        self._append_ledger(entry)
        self._push_history(entry)

    def payout(self, merchant_id: str, amount_cents: int) -> str:
        """One payout per merchant at a time; redis-py's Lock sets the key with PX and releases by token."""
        lock_name = keys.PAYOUT_LOCK.format(merchant_id=merchant_id)
        with self.redis.lock(lock_name, timeout=15, blocking_timeout=5):
            payout_id = uuid.uuid4().hex
            entry = LedgerEntry(merchant_id, -amount_cents, "EUR", payout_id)
            self._append_ledger(entry)
            return payout_id

    def close_wallet(self, wallet_id: str) -> None:
        self.redis.delete(keys.wallet_key(wallet_id))  # error: CMD008
        self.redis.unlink(keys.WALLET_HISTORY.format(wallet_id=wallet_id))

    # ---- ledger and history --------------------------------------------------------------------------

    def _append_ledger(self, entry: LedgerEntry) -> None:
        stream = keys.LEDGER_STREAM.format(wallet_id=entry.wallet_id)
        pipe = self.ledger.pipeline(transaction=False)
        pipe.xadd(stream, entry.as_fields(), maxlen=5000, approximate=True)
        pipe.expire(stream, LEDGER_TTL)
        pipe.execute()

    def publish_outbox(self, entry: LedgerEntry) -> None:
        """The accounting exporter tails this stream; it is trimmed, never expired."""
        self.ledger.xadd(keys.LEDGER_OUTBOX, entry.as_fields(), maxlen=50_000)  # error: TTL006

    def recent_movements(self, wallet_id: str, count: int = 50) -> list[Any]:
        return self.ledger.xrevrange(keys.LEDGER_STREAM.format(wallet_id=wallet_id), count=count)

    def _push_history(self, entry: LedgerEntry) -> None:
        key = keys.WALLET_HISTORY.format(wallet_id=entry.wallet_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(key, json.dumps(entry.as_fields()))
        pipe.ltrim(key, 0, 199)
        pipe.expire(key, WALLET_TTL)
        pipe.execute()

    def recent_history(self, wallet_id: str) -> list[bytes]:
        return self.redis.lrange(keys.WALLET_HISTORY.format(wallet_id=wallet_id), 0, 49)

    def export_history(self, wallet_id: str) -> list[bytes]:
        """CSV export of the support console."""
        return self.redis.lrange(keys.WALLET_HISTORY.format(wallet_id=wallet_id), 0, -1)  # error: CMD005

    # ---- idempotency -------------------------------------------------------------------------------------

    def begin_request(self, merchant_id: str, request_key: str) -> bytes | None:
        """None when this request is new; the stored response (or b"pending") when it is a retry."""
        key = keys.idempotency_key(merchant_id, request_key)
        if self.redis.set(key, "pending", nx=True, ex=IDEMPOTENCY_TTL):
            return None
        return self.redis.get(key)

    def finish_request(self, merchant_id: str, request_key: str, response: dict[str, Any]) -> None:
        key = keys.idempotency_key(merchant_id, request_key)
        self.redis.set(key, json.dumps(response))  # error: TTL006

    # ---- reference data ------------------------------------------------------------------------------

    def convert(self, amount_cents: int, base: str, quote: str) -> int:
        rate_key = keys.EXCHANGE_RATE.format(base=base.lower(), quote=quote.lower())
        rate = self.redis.get(rate_key)  # error: KEY010
        if rate is None:
            raise LookupError(f"no rate for {base}/{quote}")
        return round(amount_cents * float(rate))

    def merchant_settings(self, merchant_id: str, load: Any) -> dict[str, Any]:
        cached = self.redis.get(f"merchant:settings:{merchant_id}")  # error: KEY018
        if cached is not None:
            return dict(json.loads(cached))
        fresh = dict(load(merchant_id))
        body = json.dumps(fresh)
        self.redis.set(f"merchant:settings:{merchant_id}", body, ex=MERCHANT_SETTINGS_TTL)  # error: KEY018
        return fresh


wallet_service = WalletService(redis_client, ledger_client)
