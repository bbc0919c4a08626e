"""The memory a server counts for string keys, as the simulator models it (`simulate.memory`), against the
server's own `used_memory` growth: keys of every value encoding (embedded, plain sds of each header size),
short and long names, with and without a TTL, on each server layout (Redis 7.0 with Debian's jemalloc, Redis 8.2
with the bundled jemalloc, Valkey 9.1 on glibc)."""

from __future__ import annotations

import threading

import pytest
import redis

from rediscipline.redis_meta.allocation import ALLOCATORS, sds_size
from rediscipline.simulate.memory import LAYOUTS, REDIS_70, MemoryModel, model_for
from tests.support.kinds import require_kind
from tests.support.replay import SERVER_MODELS
from tests.support.servers import start_server

#: jemalloc's classes (16-byte quantum, four per doubling) at their edges.
CLASSES = {1: 8, 8: 8, 9: 16, 17: 32, 33: 48, 64: 64, 65: 80, 129: 160, 257: 320, 1025: 1280, 14337: 16384}
#: How far from each server the model may be (a share of the growth).
TOLERANCE = {"redis70": 0.002, "redis82": 0.05, "valkey91": 0.035}
KEYS = 4096  # a power of two: the dicts' arrays are the same before and after a rehash is due


def test_sizes_go_to_jemallocs_classes() -> None:
    jemalloc16 = ALLOCATORS["jemalloc16"]
    assert {size: jemalloc16(size) for size in CLASSES} == CLASSES
    assert (sds_size(0), sds_size(31), sds_size(32), sds_size(253), sds_size(70_000)) == (2, 33, 36, 259, 70_010)
    assert [REDIS_70.table_buckets(keys) for keys in (0, 4, 5, 1025)] == [4, 4, 8, 2048]


def test_valkey_tables_hold_seven_keys_a_bucket() -> None:
    valkey = model_for("valkey-9.1", "libc")
    assert valkey.layout == LAYOUTS["valkey-8.1"]
    assert [valkey.table_buckets(keys) for keys in (1, 7, 8, 14, 15, 3584, 3585)] == [1, 1, 2, 2, 4, 512, 1024]
    assert valkey.table_bytes(2) == ALLOCATORS["libc"](128)


@pytest.mark.parametrize(
    ("server", "layout"),
    [
        ("redis-7.0", "redis-7"),
        ("redis-6.2", "redis-7"),
        ("Redis 7.4.2", "redis-7"),
        ("valkey-8.0", "redis-7"),
        ("redis-8.2", "redis-8"),
        ("redis-8", "redis-8"),
        ("valkey-8.1", "valkey-8.1"),
        ("valkey-9.1", "valkey-8.1"),
    ],
)
def test_a_server_name_picks_its_layout(server: str, layout: str) -> None:
    assert model_for(server, "jemalloc").layout.name == layout


@pytest.mark.parametrize("server", ["keydb-6.3", "redis", "7.0", ""])
def test_an_unknown_server_is_refused(server: str) -> None:
    with pytest.raises(ValueError, match="unknown server"):
        model_for(server, "jemalloc")


SHAPES = [(11, 5), (11, 44), (11, 45), (30, 20), (11, 300), (130, 60), (11, 70_000)]  # (name, value) bytes


@pytest.mark.parametrize("kind", sorted(TOLERANCE))
@pytest.mark.parametrize("volatile", [False, True], ids=["persistent", "ttl"])
def test_the_model_is_the_servers_used_memory(kind: str, volatile: bool) -> None:
    require_kind(kind)
    model, tolerance = SERVER_MODELS[kind], TOLERANCE[kind]
    with start_server(kind) as server:
        client = server.client()
        for name, value in SHAPES:
            client.flushall()
            client.set(b"seed", b"v", ex=3600)  # both dicts get their first array, kept once the key is gone
            client.delete(b"seed")
            before = _settled(client)
            with server.client() as loader:  # its buffers grow with the pipeline: closed before `after` is read
                pipe = loader.pipeline(transaction=False)
                for number in range(KEYS):
                    pipe.set((b"k%06d:" % number).ljust(name, b"n"), b"x" * value, ex=3600 if volatile else None)
                pipe.execute()
            grown = _settled(client) - before
            expected = _expected(model, name, value, volatile)
            assert abs(expected - grown) <= tolerance * grown + 2048, (name, value, expected, grown)


def _expected(model: MemoryModel, name: int, value: int, volatile: bool) -> int:
    """What `KEYS` keys add: each key, and each dict's array grown from its smallest."""
    tables = 2 if volatile else 1
    grown = model.table_bytes(model.table_buckets(KEYS)) - model.table_bytes(model.table_buckets(1))
    return KEYS * model.key_bytes(name, value, volatile) + tables * grown


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
