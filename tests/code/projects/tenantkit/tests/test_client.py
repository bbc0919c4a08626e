"""TenantRedis and the modules built on it, against a real Redis (REDIS_PORT)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from tenantkit import locks, usage
from tenantkit.client import TenantRedis
from tenantkit.sessions import SessionStore, last_seen

PORT = int(os.environ.get("REDIS_PORT", "6379"))


@pytest.fixture
def client() -> Iterator[TenantRedis]:
    conn = TenantRedis("test", port=PORT)
    yield conn
    conn.flushdb()  # error: CMD002


def test_purge_only_touches_the_tenant(client: TenantRedis) -> None:
    other = TenantRedis("other", port=PORT)
    client.remember("a", "1")
    other.remember_for("a", "1", ttl=60)
    assert client.purge_tenant() == 1
    assert other.exists("other:memo:a")
    assert client.keys("test:*") == []  # error: CMD001


def test_sessions(client: TenantRedis) -> None:
    store = SessionStore(client)
    sid = store.open(7, "curl")
    assert store.load(sid)[b"uid"] == b"7"
    assert store.recent(7) == [sid.encode()]
    last_seen(client, 7)
    assert client.ttl("test:seen:7") == -1


def test_locks(client: TenantRedis) -> None:
    token = locks.acquire(client, "import")
    assert token is not None
    assert locks.acquire(client, "import") is None
    assert locks.release_registered(client, "import", token)
    assert locks.acquire_legacy(client, "export", ttl=5)


def test_usage(client: TenantRedis) -> None:
    client.hset("test:usage:20240101", mapping={"search": 2, "upload": 1})  # error: TTL006
    client.hset("test:usage:20240102", "search", 4)  # error: TTL006
    assert usage.monthly_total_batched(client, "202401") == 7
