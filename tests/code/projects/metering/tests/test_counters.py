"""Counters, uploads and reports on the project's InMemoryRedis (no server needed)."""

from __future__ import annotations

import pytest
from metering import counters, reports, store, uploads
from metering.fake import InMemoryRedis


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> InMemoryRedis:
    instance = InMemoryRedis()
    for module in (counters, reports, uploads, store):
        monkeypatch.setattr(module, "get_redis", lambda: instance)
    monkeypatch.setattr(counters, "today", lambda: "20240105")
    return instance


def test_record_counts_fields(fake: InMemoryRedis) -> None:
    counters.record("acme", "api_calls", 3)
    counters.record("acme", "api_calls")
    assert fake.hgetall("meter:acme:20240105") == {"api_calls": 4, "events": 2, "last_metric": "api_calls"}
    assert fake.ttl("meter:acme:20240105") == -1


def test_quota(fake: InMemoryRedis) -> None:
    assert counters.consume_quota("acme", limit=1)
    assert not counters.consume_quota("acme", limit=1)
    assert fake.ttl("quota:acme:20240105") > 0


def test_rankings(fake: InMemoryRedis) -> None:
    counters.bump_ranking("acme", 5)
    assert fake.keys("rank:*") == []
    counters.enter_ranking("acme", 5)
    counters.bump_ranking("acme", 7)
    assert fake.zrange("rank:usage:20240105", 0, -1, withscores=True) == [("acme", 7)]
    assert fake.zscore("rank:usage:20240105", "acme") == 7


def test_digests(fake: InMemoryRedis) -> None:
    digest = uploads.store_digest("f1", b"data")
    assert fake.get("file:f1:hash") == digest
    fake.set("file:f2:hash", digest)
    assert uploads.same_content("f1", "f2")
    assert uploads.claim_digest("f1", digest)
    assert not uploads.claim_digest("f2", digest)


def test_fake_basics(fake: InMemoryRedis) -> None:
    fake.set("meter:acme:total", 1)
    fake.incr("meter:acme:total")
    fake.hset("report:r1:row:0", mapping={"customer": "acme"})
    fake.zadd("rank:usage:20240105", {"acme": 1}, xx=True)
    assert sorted(fake.scan_iter(match="*")) == ["meter:acme:total", "report:r1:row:0"]
    assert fake.delete("meter:acme:total") == 1
    fake.flushall()
    assert fake.keys() == []


def test_write_row_on_the_fake_pipeline(fake: InMemoryRedis) -> None:
    reports.write_row("r1", 0, {"customer": "acme"}, ttl=60)
    assert fake.hgetall("report:r1:row:0") == {"customer": "acme"}
    assert fake.ttl("report:r1:row:0") > 0
