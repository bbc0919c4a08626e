import os
from typing import cast

import pytest
from kvredis._typing import ClientType
from kvredis.cache import ItemCache


def test_item_labels(store: ClientType):
    store.set("kv:label:1", "lamp")  # error: TTL006
    assert store.get("kv:label:1") == b"lamp"
    assert store.keys("kv:label:*") == [b"kv:label:1"]  # error: CMD001


def test_random_keys(r: ClientType):
    first = os.urandom(10)
    second = os.urandom(10)
    r.sadd(first, "a")
    r.sadd(second, "b")  # error: TTL006
    r.expire(first, 60)


def test_second_database(create_connection):
    other = create_connection(db=2)  # error: CMD006
    other.flushall()  # error: CMD002


def test_scan_through_a_cast(raw):
    conn = cast(ClientType, raw)
    cursor, keys = conn.scan(cursor=0, match="kv:item:*")  # error: CMD010
    assert cursor == 0 and keys == []


def test_cache_clear():
    cache = ItemCache(port=6390)
    cache._write_client.flushdb()  # error: CMD002


class QuietCache(ItemCache):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


@pytest.fixture(params=[ItemCache, QuietCache])
def cache_factory(request):
    def make(**kwargs):
        cache = request.param(port=6390, **kwargs)
        cache._write_client.flushdb()  # error: CMD002
        return cache

    return make
