"""Repositories: one class per aggregate, all sharing the client they are given.

`BaseRepository` takes whatever client the caller passes (the process-wide one from settings, a
fakeredis in tests), so it is typed with a small Protocol instead of redis.Redis.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any, Protocol

from billing.settings import INVOICE_TTL, LOCK_TTL, jittered

CAPTURE_SCRIPT = """
local balance = tonumber(redis.call('HGET', KEYS[1], 'balance') or '0')
if balance < tonumber(ARGV[1]) then return 0 end
redis.call('HINCRBYFLOAT', KEYS[1], 'balance', -tonumber(ARGV[1]))
return 1
"""


class KeyValueStore(Protocol):
    """The part of redis-py's client the repositories use."""

    def get(self, name: str) -> bytes | None: ...
    def set(self, name: str, value: Any, ex: int | None = None, nx: bool = False) -> Any: ...
    def setnx(self, name: str, value: Any) -> bool: ...
    def expire(self, name: str, time: int) -> bool: ...
    def delete(self, *names: str) -> int: ...
    def pipeline(self, transaction: bool = True) -> Any: ...
    def eval(self, script: str, numkeys: int, *keys_and_args: Any) -> Any: ...
    def register_script(self, script: str) -> Any: ...


class BaseRepository:
    """Holds the client and the TTL policy; subclasses build their own keys."""

    ttl = 3600

    def __init__(self, client, ttl=None):
        self.client = client
        if ttl is not None:
            self.ttl = ttl

    def fresh_ttl(self) -> int:
        return self.ttl + random.randint(0, max(1, self.ttl // 10))


class ExpiringMixin:
    """Sliding expiry for repositories whose records stay hot while they are read."""

    client: Any
    ttl: int

    def touch(self, key: str) -> None:
        self.client.expire(key, self.ttl + random.randint(0, 300))


class AuditMixin:
    """Appends every state change to the capped audit stream."""

    client: Any
    AUDIT_STREAM = "billing:audit"

    def audit(self, event: str, **fields: str) -> None:
        entry = {"event": event, "at": str(time.time()), **fields}
        self.client.xadd(self.AUDIT_STREAM, entry, maxlen=200_000, approximate=True)


class InvoiceRepository(ExpiringMixin, AuditMixin, BaseRepository):
    """Invoices as hashes, their lines as lists."""

    ttl = INVOICE_TTL

    def save(self, invoice_id: str, fields: dict[str, str]) -> None:
        key = f"invoice:detail:{invoice_id}"
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(key, mapping=fields)
        pipe.expire(key, self.fresh_ttl())
        pipe.execute()
        self.audit("invoice.saved", invoice_id=invoice_id)

    def load(self, invoice_id: str) -> dict[bytes, bytes]:
        return self.client.hgetall(f"invoice:detail:{invoice_id}")  # error: CMD005

    def totals(self, invoice_id: str) -> list[bytes | None]:
        return self.client.hmget(f"invoice:detail:{invoice_id}", ["subtotal", "tax", "total", "currency"])

    def add_line(self, invoice_id: str, line: dict[str, Any]) -> None:
        self.client.rpush(f"invoice:lines:{invoice_id}", json.dumps(line))  # error: TTL006

    def add_lines(self, invoice_id: str, lines: list[dict[str, Any]]) -> None:
        key = f"invoice:lines:{invoice_id}"
        self.client.rpush(key, *(json.dumps(line) for line in lines))
        self.client.expire(key, jittered(INVOICE_TTL))

    def lines(self, invoice_id: str) -> list[bytes]:
        return self.client.lrange(f"invoice:lines:{invoice_id}", 0, -1)  # error: CMD005

    def first_lines(self, invoice_id: str, page_size: int = 50) -> list[bytes]:
        return self.client.lrange(f"invoice:lines:{invoice_id}", 0, page_size - 1)

    def attach_pdf(self, invoice_id: str, pdf_url: str) -> None:
        self.client.set(f"invoice:{{{invoice_id}}}:pdf", pdf_url, ex=self.fresh_ttl())  # error: KEY012

    def purge(self, invoice_id: str) -> None:
        self.client.delete(f"invoice:detail:{invoice_id}", f"invoice:lines:{invoice_id}")  # error: CMD008
        self.audit("invoice.purged", invoice_id=invoice_id)

    def archive(self, invoice_id: str) -> None:
        self.client.unlink(f"invoice:detail:{invoice_id}", f"invoice:lines:{invoice_id}")
        self.audit("invoice.archived", invoice_id=invoice_id)


class PaymentRepository(AuditMixin, BaseRepository):
    """Locks and idempotency records around the payment provider's calls."""

    def __init__(self, client: KeyValueStore) -> None:
        super().__init__(client, ttl=LOCK_TTL)
        self._capture = client.register_script(CAPTURE_SCRIPT)

    def lock(self, payment_id: str, token: str) -> bool:
        key = f"payment:lock:{payment_id}"
        if self.client.setnx(key, token):  # error: TTL008
            self.client.expire(key, LOCK_TTL)
            return True
        return False

    def try_lock(self, payment_id: str, token: str) -> bool:
        return bool(self.client.set(f"payment:lock:{payment_id}", token, nx=True, ex=LOCK_TTL))

    def remember_response(self, idempotency_key: str, response: str) -> None:
        self.client.set(f"payment:idempotency:{idempotency_key}", response, ex=86400, nx=True)

    def capture(self, account_id: str, amount: str) -> bool:
        return bool(self._capture(keys=[f"payment:wallet:{account_id}"], args=[amount]))

    def capture_inline(self, account_id: str, amount: str) -> bool:
        return bool(self.client.eval(CAPTURE_SCRIPT, 1, f"payment:wallet:{account_id}", amount))  # error: CMD009

    def refund(self, account_id: str, payment_id: str, amount: float) -> None:
        wallet = f"payment:wallet:{account_id}"
        pipe = self.client.pipeline(transaction=True)  # error: CMD007
        pipe.hincrbyfloat(wallet, "balance", amount)
        pipe.expire(wallet, jittered(7 * 86400))
        pipe.set(f"payment:refunded:{payment_id}", "1", ex=jittered(7 * 86400))
        pipe.execute()
        self.audit("payment.refunded", payment_id=payment_id)
