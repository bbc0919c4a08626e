"""The cache helpers against Django's test cache (django-redis on a throwaway Redis)."""

from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

import pytest
from dj_portal import caching
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_remember_builds_once() -> None:
    calls: list[int] = []

    def build() -> str:
        calls.append(1)
        return "<p>hello</p>"

    assert caching.remember("fragment:test:one", build) == "<p>hello</p>"
    assert caching.remember("fragment:test:one", build) == "<p>hello</p>"
    assert calls == [1]


def test_short_timeout() -> None:
    cache.set("fragment:test:short", "v", timeout=3)
    assert 0 < cache.ttl("fragment:test:short") <= 3


def test_touch_zero_expires_now() -> None:
    cache.set("fragment:test:gone", "v", timeout=60)
    cache.touch("fragment:test:gone", 0)
    assert cache.get("fragment:test:gone") is None


def test_user_fragments_round_trip() -> None:
    caching.store_user_fragments(7, {"header": "<h1>", "footer": "<hr>"})
    assert cache.get_many(["fragment:user:7:header", "fragment:user:7:footer"]) == {
        "fragment:user:7:header": "<h1>",
        "fragment:user:7:footer": "<hr>",
    }
    assert caching.invalidate_user(7) == 2
    assert cache.get("fragment:user:7:header", "missing") == "missing"


def test_presence() -> None:
    caching.mark_online(7)
    assert caching.is_online(7)
    assert cache.smembers("presence:online") == {7}
    cache.srem("presence:online", 7)
    assert not caching.is_online(7)


def test_bump_starts_at_one() -> None:
    assert caching.bump("site") == 1
    assert caching.bump("site") == 2
    cache.delete("version:site")


def test_bump_with_mocked_cache() -> None:
    with mock.patch.object(caching, "cache") as fake:
        fake.incr.side_effect = ValueError
        assert caching.bump("nav") == 1
        fake.set.assert_called_once_with("version:nav", 1, timeout=None)
        fake.incr.assert_called_once_with("version:nav", delta=1)
