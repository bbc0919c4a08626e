"""chunked_mget / chunked_mset / chunked_delete on one server: exactly the data of the unchunked command, and
never more than `chunk` keys in a command or a round trip (MONITOR, INFO commandstats, the drivers' trips)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import redis
import redis.asyncio

from rediscipline.recipes import aio, chunked_delete, chunked_mget, chunked_mset
from rediscipline.recipes.chunked import rounds
from tests.recipes.oracle import Raw, commandstats, keys_of
from tests.support.monitor import MonitorRecorder
from tests.support.servers import ServerProcess

Trips = list[tuple[tuple[Any, ...], ...]]


def keys_and_values(count: int) -> dict[bytes, bytes]:
    """`count` keys, a few of them not UTF-8, with values of every byte."""
    data = {b"user:profile:%d" % i: b"v%d:" % i + bytes(range(256)) for i in range(count)}
    data[b"user:profile:\xff\xfe"] = b"\x00\xff"
    data[b"user:profile:\xe4\xb8\xad"] = "中文".encode()
    return data


def fill(raw: Raw, data: dict[bytes, bytes]) -> None:
    raw.pipeline([("SET", key, value) for key, value in data.items()])


def names_per_command(monitor: MonitorRecorder, name: str) -> list[int]:
    """How many arguments after the name each recorded `name` command carried."""
    return [len(record.args) - 1 for record in monitor.records if record.name == name]


def test_rounds_on_one_server_are_consecutive_slices() -> None:
    keys = [b"k%d" % i for i in range(7)]
    assert rounds(keys, 3, None) == [[[0, 1, 2]], [[3, 4, 5]], [[6]]]
    assert rounds([], 3, None) == []


def test_rounds_on_a_cluster_group_by_slot_and_pack_at_most_chunk_keys_per_trip() -> None:
    slots = {b"a1": 1, b"b1": 2, b"a2": 1, b"c1": 3, b"a3": 1, b"b2": 2, b"a4": 1}
    keys = list(slots)
    packed = rounds(keys, 3, slots.__getitem__)
    # slot 1's four keys: a command of 3, then one of 1 that shares its trip with slot 2's two keys
    assert packed == [[[0, 2, 4]], [[6], [1, 5]], [[3]]]
    for trip in packed:
        assert sum(len(command) for command in trip) <= 3
        for command in trip:
            assert len({slots[keys[p]] for p in command}) == 1
    assert sorted(p for trip in packed for command in trip for p in command) == list(range(len(keys)))


def test_chunked_mget_equals_mget_over_the_same_keys(server: ServerProcess, client: redis.Redis, raw: Raw) -> None:
    data = keys_and_values(250)
    fill(raw, data)
    raw.call("HSET", b"user:session:1", b"f", b"v")  # not a string: MGET says None
    keys = [*data, b"user:profile:missing", b"user:session:1", b"user:profile:7", b"\xff:missing"]
    random.Random(3).shuffle(keys)
    keys.append(keys[0])  # a key asked twice
    expected = raw.call("MGET", *keys)
    raw.call("CONFIG", "RESETSTAT")
    with MonitorRecorder(server) as monitor:
        got = chunked_mget(client, keys)
    assert got == expected
    assert got.count(None) == 3
    assert names_per_command(monitor, "mget") == [100, 100, 57]  # 257 keys, in order, at most 100 each
    assert commandstats(raw)["mget"] == 3


@pytest.mark.parametrize("chunk", [1, 7, 100, 1000])
def test_any_chunk_gives_the_same_values(client: redis.Redis, raw: Raw, trips: Trips, chunk: int) -> None:
    data = keys_and_values(40)
    fill(raw, data)
    keys = [*data, b"user:profile:none"]
    assert chunked_mget(client, keys, chunk=chunk) == [*data.values(), None]
    assert all(len(trip) == 1 and len(trip[0]) - 1 <= chunk for trip in trips)  # one MGET per round trip
    assert sum(len(trip[0]) - 1 for trip in trips) == len(keys)


def test_no_keys_send_nothing(client: redis.Redis, raw: Raw, trips: Trips) -> None:
    assert chunked_mget(client, []) == []
    assert chunked_mset(client, {}, ttl=60) == 0
    assert chunked_delete(client, iter([])) == 0
    assert trips == []
    assert set(commandstats(raw)) <= {"flushall", "config|resetstat"}


def test_a_single_key_or_a_bad_chunk_is_refused(client: redis.Redis) -> None:
    with pytest.raises(TypeError, match="not a single key"):
        chunked_mget(client, b"user:profile:1")
    with pytest.raises(TypeError, match="not a single key"):
        chunked_delete(client, "user:profile:1")
    for chunk in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="chunk must be a whole number >= 1"):
            chunked_mget(client, [b"k"], chunk=chunk)  # type: ignore[arg-type]


def test_chunked_mset_with_a_ttl_writes_every_key_with_set_ex(
    server: ServerProcess, client: redis.Redis, raw: Raw, trips: Trips
) -> None:
    data = keys_and_values(230)
    with MonitorRecorder(server) as monitor:
        assert chunked_mset(client, data, ttl=3600) == len(data)
    stats = commandstats(raw)
    assert stats["set"] == len(data) and not {"mset", "expire", "multi"} & set(stats)
    assert keys_of(raw) == set(data)
    assert raw.call("MGET", *data) == list(data.values())
    ttls = raw.pipeline([("TTL", key) for key in data])
    assert all(3599 <= ttl <= 3960 for ttl in ttls)
    assert len(set(ttls)) > 50  # each key drew its own
    sets = [record.args for record in monitor.records if record.name == "set"]
    assert len(sets) == len(data) and all(args[3] == b"EX" for args in sets)
    assert [len(trip) for trip in trips] == [100, 100, 32]  # pipelines of at most `chunk` SETs


def test_chunked_mset_without_a_ttl_sends_mset_of_at_most_chunk_keys(
    server: ServerProcess, client: redis.Redis, raw: Raw
) -> None:
    data = keys_and_values(148)
    raw.call("SET", b"user:profile:3", b"old", "EX", 100)  # MSET replaces it and drops its TTL
    with MonitorRecorder(server) as monitor:
        assert chunked_mset(client, data, chunk=50, ttl=None) == 150
    assert names_per_command(monitor, "mset") == [100, 100, 100]  # 50 keys, 50 values each
    assert keys_of(raw) == set(data)
    assert raw.call("MGET", *data) == list(data.values())
    assert set(raw.pipeline([("TTL", key) for key in data])) == {-1}


def test_chunked_mset_takes_a_seeded_rng_and_str_keys(client: redis.Redis, raw: Raw) -> None:
    mapping = {f"user:profile:{i}": f"名字{i}" for i in range(5)}
    chunked_mset(client, mapping, ttl=1000, rng=random.Random(5))
    first = raw.pipeline([("TTL", key) for key in mapping])
    chunked_mset(client, mapping, ttl=1000, rng=random.Random(5))
    assert raw.pipeline([("TTL", key) for key in mapping]) == first
    assert raw.call("MGET", *mapping) == [value.encode() for value in mapping.values()]


def test_chunked_delete_unlinks_at_most_chunk_keys_per_command(
    server: ServerProcess, client: redis.Redis, raw: Raw
) -> None:
    data = keys_and_values(300)
    fill(raw, data)
    raw.call("SET", b"user:other:1", b"stays")
    keys = [*data, b"user:profile:never", b"user:profile:1"]  # a missing key, a key twice
    with MonitorRecorder(server) as monitor:
        assert chunked_delete(client, keys) == len(data)
    assert keys_of(raw) == {b"user:other:1"}
    assert names_per_command(monitor, "unlink") == [100, 100, 100, 4]
    stats = commandstats(raw)
    assert stats["unlink"] == 4 and "del" not in stats


def test_chunked_delete_with_del_when_asked(client: redis.Redis, raw: Raw) -> None:
    fill(raw, keys_and_values(10))
    assert chunked_delete(client, [b"user:profile:%d" % i for i in range(10)], chunk=4, unlink=False) == 10
    stats = commandstats(raw)
    assert stats["del"] == 3 and "unlink" not in stats


def test_the_asyncio_recipes_send_what_the_sync_ones_do(server: ServerProcess, raw: Raw, trips: Trips) -> None:
    data = keys_and_values(120)
    keys = [*data, b"user:profile:gone"]

    async def scenario() -> tuple[int, list[Any], int, int]:
        async with redis.asyncio.Redis(host=server.host, port=server.port) as client:
            written = await aio.chunked_mset(client, data, ttl=None, chunk=60)
            values = await aio.chunked_mget(client, keys, chunk=60)
            rewritten = await aio.chunked_mset(client, data, ttl=120, chunk=60)
            deleted = await aio.chunked_delete(client, keys, chunk=60)
            return written, values, rewritten, deleted

    written, values, rewritten, deleted = asyncio.run(scenario())
    assert (written, rewritten, deleted) == (122, 122, 122)
    assert values == [*data.values(), None]
    assert keys_of(raw) == set()
    shapes = [(trip[0][0], len(trip), len(trip[0]) - 1) for trip in trips]
    assert shapes == [
        *[("MSET", 1, 120), ("MSET", 1, 120), ("MSET", 1, 4)],
        *[("MGET", 1, 60), ("MGET", 1, 60), ("MGET", 1, 3)],
        *[("SET", 60, 4), ("SET", 60, 4), ("SET", 2, 4)],
        *[("UNLINK", 1, 60), ("UNLINK", 1, 60), ("UNLINK", 1, 3)],
    ]
    stats = commandstats(raw)
    assert (stats["mset"], stats["mget"], stats["set"], stats["unlink"]) == (3, 3, 122, 3)


@pytest.mark.parametrize("options", [{"decode_responses": True}, {"protocol": 3}])
def test_clients_that_decode_or_speak_resp3(server: ServerProcess, raw: Raw, options: dict[str, Any]) -> None:
    mapping = {f"user:name:{i}": f"名字{i}" for i in range(150)}
    with server.client(**options) as client:
        assert chunked_mset(client, mapping, ttl=60) == 150
        values = chunked_mget(client, [*mapping, "user:name:none"])
        assert chunked_delete(client, mapping) == 150
    expected = list(mapping.values()) if options.get("decode_responses") else [v.encode() for v in mapping.values()]
    assert values == [*expected, None]
    assert keys_of(raw) == set()
