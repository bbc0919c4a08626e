"""The recipes on a real 3-master Redis Cluster, sync and asyncio: keys grouped by slot, at most `chunk` keys per
command and per round trip, and the data on every node exactly what one server would hold."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import redis.asyncio

from rediscipline.recipes import HotKeyReplicas, aio, chunked_delete, chunked_mget, chunked_mset, progressive_delete
from rediscipline.redis_meta.keyslot import key_slot
from tests.recipes.conftest import require_redis70
from tests.recipes.oracle import RawCluster, commandstats, keys_of, reset
from tests.support.monitor import MonitorRecorder, Recorded
from tests.support.topologies import Cluster, start_cluster

Trips = list[tuple[tuple[Any, ...], ...]]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """Three masters of Redis 7.0 for this module, every node stopped by its PID at the end."""
    require_redis70()
    with start_cluster(3, 0, "redis70") as started:
        yield started


@pytest.fixture
def nodes(cluster: Cluster) -> Iterator[RawCluster]:
    raw = RawCluster(cluster)
    for node in raw:
        reset(node)
    yield raw
    raw.close()


@pytest.fixture
def client(cluster: Cluster, nodes: RawCluster) -> Iterator[redis.RedisCluster]:
    with redis.RedisCluster(host=cluster[0].host, port=cluster[0].port) as connection:
        yield connection


@contextlib.contextmanager
def monitoring(cluster: Cluster) -> Iterator[list[Recorded]]:
    """Every command the masters execute inside the block, all nodes together."""
    records: list[Recorded] = []
    with contextlib.ExitStack() as stack:
        monitors = [stack.enter_context(MonitorRecorder(master)) for master in cluster.masters]
        yield records
    for monitor in monitors:
        records.extend(monitor.records)


def dataset() -> dict[bytes, bytes]:
    """Keys spread over the slots, 150 sharing one hashtag (one slot), a few not UTF-8."""
    data = {b"user:profile:%d" % i: b"\x00v%d\xff" % i for i in range(400)}
    data.update({b"user:feed:{7}:%d" % i: b"feed%d" % i for i in range(150)})
    data[b"user:profile:\xff\xfe"] = b"\xfe"
    return data


def fill(nodes: RawCluster, data: dict[bytes, bytes]) -> None:
    for key, value in data.items():
        nodes.node_for(key).call("SET", key, value)


def everything(nodes: RawCluster) -> set[bytes]:
    return set().union(*(keys_of(node) for node in nodes))


def check_commands(records: list[Recorded], name: str, chunk: int, keys_per_arg: int = 1) -> list[int]:
    """The keys of each `name` command, after checking each carries at most `chunk` keys of one slot."""
    sizes = []
    for record in records:
        if record.name != name:
            continue
        keys = list(record.args[1::keys_per_arg])
        assert len(keys) <= chunk, record.show()
        assert len({key_slot(key) for key in keys}) == 1, record.show()
        sizes.append(len(keys))
    return sizes


def check_trips(trips: Trips, chunk: int, keys_per_command: int = 1) -> None:
    for trip in trips:
        carried = sum((len(command) - 1) // keys_per_command for command in trip)
        assert carried <= chunk, [command[0] for command in trip]


def test_chunked_mget_on_a_cluster(
    cluster: Cluster, client: redis.RedisCluster, nodes: RawCluster, trips: Trips
) -> None:
    data = dataset()
    fill(nodes, data)
    keys = [*data, b"user:profile:none", b"user:feed:{7}:none", b"user:profile:1"]
    expected = [nodes.node_for(key).call("GET", key) for key in keys]
    with monitoring(cluster) as records:
        assert chunked_mget(client, keys) == expected
    assert expected.count(None) == 2
    sizes = check_commands(records, "mget", 100)
    assert sum(sizes) == len(keys)
    assert sorted(sizes)[-2:] == [51, 100]  # the hashtag's 151 keys: one full command and the rest
    check_trips(trips, 100)
    assert len(trips) < len(keys) // 2  # keys of many slots share a round trip


def test_chunked_mset_on_a_cluster_with_and_without_a_ttl(
    cluster: Cluster, client: redis.RedisCluster, nodes: RawCluster, trips: Trips
) -> None:
    data = dataset()
    with monitoring(cluster) as records:
        assert chunked_mset(client, data, ttl=None, chunk=40) == len(data)
    assert everything(nodes) == set(data)
    assert all(nodes.node_for(key).call("GET", key) == value for key, value in data.items())
    assert {nodes.node_for(key).call("TTL", key) for key in data} == {-1}
    assert sum(check_commands(records, "mset", 40, keys_per_arg=2)) == len(data)
    check_trips(trips, 40, keys_per_command=2)

    trips.clear()
    assert chunked_mset(client, data, ttl=500) == len(data)
    assert all(500 <= nodes.node_for(key).call("TTL", key) <= 550 for key in data)
    assert all(nodes.node_for(key).call("GET", key) == value for key, value in data.items())
    assert all(len(trip) <= 100 and {command[0] for command in trip} == {"SET"} for trip in trips)


def test_chunked_delete_on_a_cluster(cluster: Cluster, client: redis.RedisCluster, nodes: RawCluster) -> None:
    data = dataset()
    fill(nodes, data)
    nodes.node_for(b"user:other:1").call("SET", b"user:other:1", b"stays")
    with monitoring(cluster) as records:
        assert chunked_delete(client, [*data, b"user:profile:none"], chunk=30) == len(data)
    assert everything(nodes) == {b"user:other:1"}
    assert sum(check_commands(records, "unlink", 30)) == len(data) + 1
    assert not any(record.name == "del" for record in records)


def test_progressive_delete_and_hot_key_replicas_on_a_cluster(
    cluster: Cluster, client: redis.RedisCluster, nodes: RawCluster
) -> None:
    owner = nodes.node_for(b"big:hash:1")
    owner.pipeline([("HSET", b"big:hash:1", b"f%d" % i, b"v") for i in range(1000)])
    result = progressive_delete(client, b"big:hash:1")
    assert (result.key_type, result.elements, result.unlinked) == ("hash", 1000, False)
    assert everything(nodes) == set()
    assert commandstats(owner)["hdel"] == result.batches >= 10

    replicas = HotKeyReplicas(client, b"live:goods:1001", copies=6, ttl=120)
    replicas.set(b"goods")
    holders = {nodes.node_for(key) for key in replicas.copy_keys}
    assert len(holders) >= 2  # the copies spread over the shards
    assert everything(nodes) == {b"live:goods:1001", *replicas.copy_keys}
    assert replicas.get() == b"goods"
    assert replicas.delete() == 7
    assert everything(nodes) == set()


def test_the_asyncio_recipes_on_a_cluster(cluster: Cluster, nodes: RawCluster, trips: Trips) -> None:
    data = dataset()
    keys = [*data, b"user:profile:none"]

    nodes.node_for(b"big:list:1").pipeline([("RPUSH", b"big:list:1", i) for i in range(250)])

    async def scenario() -> tuple[int, list[Any], Any, int]:
        async with redis.asyncio.RedisCluster(host=cluster[0].host, port=cluster[0].port) as client:
            written = await aio.chunked_mset(client, data, ttl=300)
            values = await aio.chunked_mget(client, keys)
            dismantled = await aio.progressive_delete(client, b"big:list:1")
            deleted = await aio.chunked_delete(client, keys)
            return written, values, dismantled, deleted

    written, values, dismantled, deleted = asyncio.run(scenario())
    assert (written, deleted) == (len(data), len(data))
    assert values == [*data.values(), None]
    assert (dismantled.key_type, dismantled.elements, dismantled.batches) == ("list", 250, 3)
    assert everything(nodes) == set()
    mgets = [trip for trip in trips if trip[0][0] == "MGET"]
    check_trips(mgets, 100)
    assert all(len(command) - 1 <= 100 for trip in trips for command in trip)
