"""Application services: what the HTTP handlers and the workers call.

Services are dataclasses holding the Redis client as a field, so tests build them with a fakeredis and
production with `from_env()`.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import requests
from redis import Redis

from billing.repositories import BaseRepository, InvoiceRepository
from billing.settings import CUSTOMER_TTL, REMINDER_TTL, client, jittered


class CustomerRepository(BaseRepository):
    """Customer profiles (hashes) and the index of their invoices (a capped sorted set)."""

    def profile(self, customer_id: str) -> list[bytes | None]:
        return self.client.hmget(f"customer:profile:{customer_id}", "name", "email", "plan", "currency")

    def save_profile(self, customer_id: str, profile: dict[str, str]) -> None:
        self.client.hset(f"customer:profile:{customer_id}", mapping=profile)  # error: TTL006

    def remember_last_invoice(self, customer_id: str, invoice_id: str) -> None:
        key = f"customer:lastInvoice:{customer_id}"
        self.client.set(key, invoice_id, ex=jittered(CUSTOMER_TTL))  # error: KEY007

    def attach_invoice(self, customer_id: str, invoice_id: str, issued_at: float) -> None:
        key = f"customer:invoices:{customer_id}"
        self.client.zadd(key, {invoice_id: issued_at})
        self.client.zremrangebyrank(key, 0, -1001)
        self.client.expire(key, jittered(CUSTOMER_TTL))

    def invoices_page(self, customer_id: str, page: int, size: int = 20) -> list[bytes]:
        start = page * size
        return self.client.zrevrange(f"customer:invoices:{customer_id}", start, start + size - 1)

    def all_invoices(self, customer_id: str) -> list[bytes]:
        return self.client.zrange(f"customer:invoices:{customer_id}", 0, -1)  # error: CMD005

    def plan_card(self, plan: str) -> dict[bytes, bytes]:
        return self.client.hmget(f"billing:plan:hashmap:{plan}", "price", "currency", "interval")  # error: KEY016


@dataclass
class DunningService:
    """Schedules payment reminders and sends the ones that are due."""

    redis: Redis
    batch: int = 100
    sent: list[str] = field(default_factory=list)

    @classmethod
    def from_env(cls) -> DunningService:
        return cls(redis=Redis.from_url(os.environ.get("BILLING_REDIS_URL", "redis://localhost:6379/0")))

    def schedule(self, customer_id: str, due_at: float) -> None:
        self.redis.zadd("billing:dunning:schedule", {customer_id: due_at})

    def due(self, now: float) -> list[bytes]:
        return self.redis.zrangebyscore("billing:dunning:schedule", "-inf", now, start=0, num=self.batch)

    def everything(self) -> list[bytes]:
        return self.redis.zrangebyscore("billing:dunning:schedule", "-inf", "+inf")  # error: CMD005

    def mark_reminded(self, customer_ids: list[str]) -> None:
        for customer_id in customer_ids:
            self.redis.set(f"billing:reminder:{customer_id}", "sent", ex=REMINDER_TTL)  # error: TTL007
            self.sent.append(customer_id)

    def mark_reminded_spread(self, customer_ids: list[str]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for customer_id in customer_ids[:200]:
            pipe.set(f"billing:reminder:{customer_id}", "sent", ex=jittered(REMINDER_TTL))
        pipe.execute()


@dataclass
class RevenueReport:
    """Year-end revenue roll-up from the per-day totals the meter keeps."""

    redis: "Redis"  # noqa: UP037 (written before the team adopted postponed annotations)
    year: int

    def days(self) -> list[date]:
        first = date(self.year, 1, 1)
        return [first + timedelta(days=offset) for offset in range(366)]

    def daily_totals(self) -> list[bytes | None]:
        first = date(self.year, 1, 1)
        keys = [f"billing:revenue:{first + timedelta(days=offset):%Y%m%d}" for offset in range(366)]
        return self.redis.mget(keys)  # error: BAT001

    def monthly_totals(self, month: int) -> list[bytes | None]:
        keys = [f"billing:revenue:{self.year}{month:02d}{day:02d}" for day in range(1, 32)]
        return self.redis.mget(keys)

    def invoice_keys(self) -> list[bytes]:
        from billing.settings import reports_client

        return reports_client.keys("invoice:detail:*")  # error: CMD001

    def publish(self, month: int, body: str) -> None:
        from billing.settings import reports_client

        reports_client.set(f"report:revenue:{self.year}:{month}", body, ex=jittered(31 * 86400))  # error: KEY018


class RateCardStore:
    """Rate cards live in SQLite on every node; `dict` memo in front of it. Nothing here is Redis."""

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.row_factory = sqlite3.Row
        self.cards: dict[str, dict[str, Any]] = {}

    def get(self, plan: str) -> dict[str, Any] | None:
        if plan in self.cards:
            return self.cards[plan]
        cursor = self.conn.cursor()
        cursor.execute("SELECT * FROM rate_cards WHERE plan = ?", (plan,))
        row = cursor.fetchone()
        if row is None:
            return None
        card = {name: row[name] for name in row.keys()}  # noqa: SIM118 (sqlite3.Row has no __iter__ over names)
        self.cards[plan] = card
        return card

    def set(self, plan: str, card: dict[str, Any]) -> None:
        self.cards[plan] = card

    def delete(self, plan: str) -> None:
        self.cards.pop(plan, None)
        self.conn.execute("DELETE FROM rate_cards WHERE plan = ?", (plan,))

    def keys(self) -> list[str]:
        return sorted(self.cards.keys())


class TaxGateway:
    """The external tax service, over HTTP."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()
        self.session.headers.update({"Accept": "application/json"})

    def rate(self, country: str, region: str) -> float:
        response = self.session.get(f"{self.base_url}/rates/{country}/{region}", timeout=5)
        response.raise_for_status()
        return float(response.json()["rate"])


def invoices() -> InvoiceRepository:
    return InvoiceRepository(client)


def customers() -> CustomerRepository:
    return CustomerRepository(client, ttl=CUSTOMER_TTL)
