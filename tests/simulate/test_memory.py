"""The memory a Redis 7.0 counts for string keys, as the simulator models it, against the server's own
`used_memory` growth for keys of every value encoding (embedded, plain sds of each header size)."""

from __future__ import annotations

import threading

import pytest
import redis

from rediscipline.simulate.memory import REDIS_70, jemalloc_size, sds_size, table_buckets
from tests.support.kinds import require_kind
from tests.support.servers import start_server

#: jemalloc's classes (16-byte quantum, four per doubling) at their edges.
CLASSES = {1: 8, 8: 8, 9: 16, 17: 32, 33: 48, 64: 64, 65: 80, 129: 160, 257: 320, 1025: 1280, 14337: 16384}


def test_sizes_go_to_jemallocs_classes() -> None:
    assert {size: jemalloc_size(size) for size in CLASSES} == CLASSES
    assert (sds_size(0), sds_size(255), sds_size(256), sds_size(70_000)) == (8, 320, 320, 81920)
    assert (table_buckets(0), table_buckets(4), table_buckets(5), table_buckets(1025)) == (4, 4, 8, 2048)


@pytest.mark.parametrize("value", [44, 45, 255, 300, 5000, 70_000])
def test_the_model_is_the_servers_used_memory(value: int) -> None:
    require_kind("redis70")
    keys = 4096  # a power of two: the dict's array is the same before and after a rehash is due
    with start_server("redis70") as server:
        client = server.client()
        client.set(b"seed", b"v")
        client.delete(b"seed")
        before = _settled(client)
        with server.client() as loader:  # its buffers grow with the pipeline: closed before `after` is read
            pipe = loader.pipeline(transaction=False)
            for number in range(keys):
                pipe.set(b"item:%06d" % number, b"x" * value)
            pipe.execute()
        after = _settled(client)
    model = keys * REDIS_70.key_bytes(len(b"item:000000"), value)
    model += REDIS_70.table_bytes(table_buckets(keys)) - REDIS_70.table_bytes(table_buckets(1))
    assert abs(model - (after - before)) <= 0.002 * (after - before) + 2048, (model, after - before)


def _settled(client: redis.Redis) -> int:
    """`used_memory` once it holds still over a few cron ticks: a closed connection freed, a dict's old bucket
    array freed when its rehash ends (the cron finishes it)."""
    last = -1
    for _ in range(50):
        used = int(client.info("memory")["used_memory"])
        if used == last:
            return used
        last = used
        threading.Event().wait(0.3)
    raise AssertionError("used_memory did not settle")
