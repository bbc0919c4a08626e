"""Rate limits against the real Redis behind django-redis's "default" connection."""

from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

import pytest
from dj_portal import ratelimit
from django.test import override_settings
from django_redis import get_redis_connection
from redis import Redis


@pytest.fixture
def con() -> Iterator[Redis]:
    connection = get_redis_connection("default")
    yield connection
    connection.flushdb()  # error: CMD002


@override_settings(RATE_LIMITS={"login": (2, 60)})
def test_fixed_window(con: Redis) -> None:
    assert ratelimit.hit("login", "alice")
    assert ratelimit.hit("login", "alice")
    assert not ratelimit.hit("login", "alice")
    keys = con.keys("ratelimit:login:*")  # error: CMD001
    assert len(keys) == 1
    assert 0 < con.ttl(keys[0]) <= 60


def test_lockout(con: Redis) -> None:
    ratelimit.lock_out("bob")
    assert ratelimit.is_locked_out("bob")
    assert 0 < con.ttl("ratelimit:lockout:bob") <= ratelimit.LOCKOUT_SECONDS


def test_lockout_already_set(con: Redis) -> None:
    con.set("ratelimit:lockout:carol", 1, ex=30)
    ratelimit.lock_out("carol")
    assert con.ttl("ratelimit:lockout:carol") <= 30


def test_sliding_with_a_stubbed_connection() -> None:
    with mock.patch.object(ratelimit, "get_redis_connection") as factory:
        pipe = factory.return_value.pipeline.return_value.__enter__.return_value
        pipe.execute.return_value = [0, 1, 1, True]
        assert ratelimit.sliding("api", "10.0.0.1")
        pipe.zadd.assert_called_once()
        pipe.expire.assert_called_once_with("ratelimit:sliding:api:10.0.0.1", 60)


def test_cached_limiter_with_a_mocked_cache() -> None:
    with mock.patch.object(ratelimit, "cache") as fake:
        fake.incr.return_value = 1
        assert ratelimit.hit_cached("comment", "dave")
        fake.add.assert_called_once_with("ratelimit:cached:comment:dave", 0, timeout=300)
        fake.expire.assert_called_once_with("ratelimit:cached:comment:dave", timeout=300)
