"""Reports and legacy readers against a real Redis (REDIS_PORT)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis
from metering import legacy, reports, store

PORT = int(os.environ.get("REDIS_PORT", "6379"))


@pytest.fixture
def r(monkeypatch: pytest.MonkeyPatch) -> Iterator[redis.Redis]:
    client = redis.Redis(port=PORT)
    monkeypatch.setattr(store, "get_redis", lambda: client)
    monkeypatch.setattr(reports, "get_redis", lambda: client)
    monkeypatch.setattr(legacy, "get_redis", lambda: client)
    yield client
    client.flushdb(asynchronous=True)


def test_close_day_once(r: redis.Redis) -> None:
    r.hset("meter:acme:20240105", "api_calls", 3)  # error: TTL006
    assert reports.close_day("acme", "20240105")
    assert not reports.close_day("acme", "20240105")
    assert r.zscore("rank:closed:20240105", "acme") is not None


def test_export(r: redis.Redis) -> None:
    for row in range(3):
        reports.write_row("r1", row, {"customer": f"c{row}", "total": str(row)}, ttl=60)
    rows = reports.export_rows("r1")
    assert rows[:3] == [r.hgetall(f"report:r1:row:{n}") for n in range(3)]  # error: CMD005
    reports.drop_report("r1")
    assert r.keys("report:*") == []  # error: CMD001


def test_migrate(r: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(legacy, "today", lambda: "20240105")
    r.hset("meter-acme-20240105", mapping={"api_calls": 3})  # error: KEY008, KEY010, TTL006
    legacy.migrate_customer("acme")
    assert not r.exists("meter-acme-20240105")  # error: KEY008, KEY010
    assert r.hgetall("meter:acme:20240105") == {b"api_calls": b"3"}  # error: CMD005
