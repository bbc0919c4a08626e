"""HotKeyReplicas: every copy written with its own TTL, a random copy read, the origin read and written back
when that copy is missing, None when both are; sync and asyncio, bytes keys that are not UTF-8."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import pytest
import redis
import redis.asyncio

from rediscipline.recipes import HotKeyReplicas, aio
from rediscipline.recipes.steps import send
from tests.recipes.oracle import Raw, keys_of
from tests.support.monitor import MonitorRecorder
from tests.support.servers import ServerProcess

KEY = b"live:goods:\xff1001"
COPIES = [KEY + b"#%d" % i for i in range(5)]
Trips = list[tuple[tuple[Any, ...], ...]]


def test_set_writes_the_origin_and_every_copy_with_a_jittered_ttl(client: redis.Redis, raw: Raw, trips: Trips) -> None:
    replicas = HotKeyReplicas(client, KEY, copies=5, ttl=600)
    assert replicas.copy_keys == COPIES
    replicas.set(b"\x00goods\xff")
    assert keys_of(raw) == {KEY, *COPIES}
    assert raw.call("MGET", KEY, *COPIES) == [b"\x00goods\xff"] * 6
    assert all(600 <= ttl <= 660 for ttl in raw.pipeline([("TTL", key) for key in [KEY, *COPIES]]))
    assert [[command[:4] for command in trip] for trip in trips] == [
        [("SET", key, b"\x00goods\xff", "EX") for key in [KEY, *COPIES]]
    ]


def test_many_copies_are_written_on_pipelines_of_at_most_50(client: redis.Redis, raw: Raw, trips: Trips) -> None:
    replicas = HotKeyReplicas(client, "live:goods:7", copies=120, ttl=60)
    replicas.set("商品")
    assert [len(trip) for trip in trips] == [50, 50, 21]
    assert len(keys_of(raw)) == 121
    assert replicas.copy_keys[-1] == "live:goods:7#119"


def test_get_reads_one_random_copy(server: ServerProcess, client: redis.Redis, raw: Raw) -> None:
    replicas = HotKeyReplicas(client, KEY, copies=5, ttl=600, rng=random.Random(11))
    replicas.set(b"goods")
    with MonitorRecorder(server) as monitor:
        assert [replicas.get() for _ in range(200)] == [b"goods"] * 200
    reads = Counter(record.args[1] for record in monitor.records if record.name == "get")
    assert set(reads) == set(COPIES)  # every copy is read, the origin never while the copies are there
    assert sum(reads.values()) == 200
    assert min(reads.values()) > 20
    assert not any(record.name == "set" for record in monitor.records)


def test_a_missing_copy_falls_back_to_the_origin_and_is_written_back(
    server: ServerProcess, client: redis.Redis, raw: Raw
) -> None:
    replicas = HotKeyReplicas(client, KEY, copies=5, ttl=600, rng=random.Random(3))
    replicas.set(b"goods")
    raw.call("UNLINK", *COPIES)
    with MonitorRecorder(server) as monitor:
        assert replicas.get() == b"goods"
    commands = [record.args for record in monitor.records if record.name in ("get", "set")]
    assert [args[:2] for args in commands][:2] == [(b"GET", commands[0][1]), (b"GET", KEY)]
    chosen = commands[0][1]
    assert commands[2][:5] == (b"SET", chosen, b"goods", b"NX", b"EX")
    assert keys_of(raw) == {KEY, chosen}
    assert raw.call("TTL", chosen) in range(599, 661)


def test_the_write_back_does_not_overwrite_a_newer_copy(client: redis.Redis, raw: Raw) -> None:
    replicas = HotKeyReplicas(client, KEY, copies=1, ttl=600)
    raw.call("SET", KEY, b"old")
    plan = replicas.get_plan()  # driven by hand to let a newer set() land between the reads and the write-back
    batch = next(plan)
    batch = plan.send(send(client, batch))  # GET copy: missing
    batch = plan.send(send(client, batch))  # GET origin: "old"; the write-back is next
    replicas.set(b"new")
    send(client, batch)
    assert raw.call("GET", COPIES[0]) == b"new"


def test_both_missing_is_none_and_writes_nothing(client: redis.Redis, raw: Raw) -> None:
    replicas = HotKeyReplicas(client, KEY, copies=3, ttl=600)
    assert replicas.get() is None
    assert keys_of(raw) == set()


def test_delete_removes_the_origin_and_every_copy(client: redis.Redis, raw: Raw) -> None:
    replicas = HotKeyReplicas(client, KEY, copies=5, ttl=600)
    replicas.set(b"goods")
    raw.call("SET", b"live:goods:other", b"stays")
    raw.call("UNLINK", COPIES[2])
    assert replicas.delete() == 5
    assert keys_of(raw) == {b"live:goods:other"}


def test_no_ttl_only_when_asked(client: redis.Redis, raw: Raw) -> None:
    replicas = HotKeyReplicas(client, KEY, copies=2, ttl=None)
    replicas.set(b"goods")
    assert raw.pipeline([("TTL", key) for key in [KEY, *COPIES[:2]]]) == [-1, -1, -1]
    with pytest.raises(TypeError, match="ttl"):
        HotKeyReplicas(client, KEY, copies=2)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("key", "options", "message"),
    [
        (b"live:{goods}:1", {"copies": 3, "ttl": 60}, "has a hashtag"),
        ("live:goods:{1}", {"copies": 3, "ttl": 60}, "has a hashtag"),
        (b"live:goods:1", {"copies": 0, "ttl": 60}, "copies must be a whole number >= 1"),
        (b"live:goods:1", {"copies": 3, "ttl": 0}, "base_seconds must be a positive number"),
        (b"live:goods:1", {"copies": 3, "ttl": 60, "jitter": -1}, "jitter must be a finite number >= 0"),
    ],
)
def test_bad_replicas_are_refused_before_any_command(
    client: redis.Redis, trips: Trips, key: bytes, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        HotKeyReplicas(client, key, **options)
    assert trips == []


def test_an_empty_hashtag_is_no_hashtag(client: redis.Redis) -> None:
    assert HotKeyReplicas(client, b"live:goods:{}1", copies=2, ttl=60).copy_keys == [
        b"live:goods:{}1#0",
        b"live:goods:{}1#1",
    ]


def test_the_asyncio_hot_key_replicas(server: ServerProcess, raw: Raw, trips: Trips) -> None:
    async def scenario() -> tuple[Any, Any, Any, int]:
        async with redis.asyncio.Redis(host=server.host, port=server.port) as client:
            replicas = aio.HotKeyReplicas(client, KEY, copies=5, ttl=300, rng=random.Random(1))
            await replicas.set(b"goods")
            first = await replicas.get()
            await client.unlink(*COPIES)
            fallback = await replicas.get()
            await client.unlink(KEY, *COPIES)
            missing = await replicas.get()
            await replicas.set(b"again")
            return first, fallback, missing, await replicas.delete()

    assert asyncio.run(scenario()) == (b"goods", b"goods", None, 6)
    assert keys_of(raw) == set()
    assert [trip[0][0] for trip in trips] == ["SET", "GET", "GET", "GET", "SET", "GET", "GET", "SET", "UNLINK"]
