"""progressive_delete takes each type apart in batches (INFO commandstats and MONITOR show the commands), leaves
nothing, never sends DEL, and stays right when the key vanishes or changes type half-way."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import redis
import redis.asyncio

from rediscipline.recipes import ProgressiveDelete, aio, progressive_delete, steps
from tests.recipes.oracle import Raw, commandstats, keys_of
from tests.support.monitor import MonitorRecorder
from tests.support.servers import ServerProcess

KEY = b"big:key:\xff1"  # not UTF-8

#: How to make a big value of each type: (command with its arguments, per element), for a raw pipeline.
MAKERS: dict[str, Callable[[int], tuple[Any, ...]]] = {
    "hash": lambda i: ("HSET", KEY, b"field:\xfe%d" % i, b"v"),
    "set": lambda i: ("SADD", KEY, b"member:\xfe%d" % i),
    "zset": lambda i: ("ZADD", KEY, i, b"member:\xfe%d" % i),
    "list": lambda i: ("RPUSH", KEY, b"\xfe%d" % i),
    "stream": lambda i: ("XADD", KEY, "*", b"f", b"%d" % i),
}


def make(raw: Raw, key_type: str, elements: int) -> None:
    raw.pipeline([MAKERS[key_type](i) for i in range(elements)])
    raw.call("CONFIG", "RESETSTAT")


#: Commands of the tests' own: the oracle's, MONITOR's, and a redis-py connection's handshake.
NOT_THE_RECIPE = frozenset({"info", "config|resetstat", "monitor", "echo", "hello", "client|setinfo"})


def calls(raw: Raw) -> dict[str, int]:
    """The recipe's calls so far: commandstats without the tests' own commands."""
    return {name: n for name, n in commandstats(raw).items() if name not in NOT_THE_RECIPE}


@pytest.mark.parametrize(
    ("key_type", "expected_calls"),
    [
        ("zset", {"type": 1, "zcard": 1, "zremrangebyrank": 25, "unlink": 1}),
        ("list", {"type": 1, "llen": 26, "ltrim": 25, "unlink": 1}),
        ("stream", {"type": 1, "xlen": 1, "xtrim": 25, "unlink": 1}),
    ],
)
def test_sorted_sets_lists_and_streams_are_trimmed_a_batch_at_a_time(
    server: ServerProcess, client: redis.Redis, raw: Raw, key_type: str, expected_calls: dict[str, int]
) -> None:
    make(raw, key_type, 2450)
    with MonitorRecorder(server) as monitor:
        result = progressive_delete(client, KEY)
    assert result == ProgressiveDelete(key_type, 2450, 25, unlinked=key_type == "stream")
    assert calls(raw) == expected_calls
    assert keys_of(raw) == set()
    assert all(record.args[1] == KEY for record in monitor.records if record.name not in ("hello", "client"))
    trims = [record.args[2:] for record in monitor.records if record.name in ("zremrangebyrank", "ltrim", "xtrim")]
    if key_type == "stream":
        assert trims == [(b"MAXLEN", b"=", b"%d" % (2450 - 100 * n)) for n in range(1, 25)] + [(b"MAXLEN", b"=", b"0")]
    else:
        assert set(trims) == {(b"0", b"99")} if key_type == "zset" else {(b"100", b"-1")}


@pytest.mark.parametrize("key_type", ["hash", "set"])
def test_hashes_and_sets_are_scanned_and_removed_a_batch_at_a_time(
    server: ServerProcess, client: redis.Redis, raw: Raw, key_type: str
) -> None:
    scan, remove = {"hash": ("hscan", "hdel"), "set": ("sscan", "srem")}[key_type]
    make(raw, key_type, 2450)
    with MonitorRecorder(server) as monitor:
        result = progressive_delete(client, KEY)
    assert (result.key_type, result.elements, result.unlinked) == (key_type, 2450, False)
    stats = calls(raw)
    assert keys_of(raw) == set()
    assert stats.keys() == {"type", scan, remove, "unlink"}
    assert stats[remove] == result.batches >= 25  # a SCAN step may return a little more than COUNT
    assert stats[scan] >= 24
    assert stats["type"] == stats["unlink"] == 1
    removals = [record for record in monitor.records if record.name == remove]
    assert all(record.args[1] == KEY and len(record.args) - 2 <= 100 for record in removals)
    assert sum(len(record.args) - 2 for record in removals) == 2450  # each element named once
    scans = [record.args for record in monitor.records if record.name == scan]
    assert all(args[1] == KEY and args[3:] == (b"COUNT", b"100") for args in scans)
    assert scans[0][2] == b"0"


def test_a_compact_hash_comes_back_whole_and_is_still_removed_a_batch_at_a_time(
    server: ServerProcess, client: redis.Redis, raw: Raw
) -> None:
    make(raw, "hash", 120)  # listpack: HSCAN ignores COUNT and returns all 120 fields
    assert raw.call("OBJECT", "ENCODING", KEY) == b"listpack"
    with MonitorRecorder(server) as monitor:
        result = progressive_delete(client, KEY, batch=50)
    assert result == ProgressiveDelete("hash", 120, 3, unlinked=False)
    assert [len(r.args) - 2 for r in monitor.records if r.name == "hdel"] == [50, 50, 20]


@pytest.mark.parametrize(("key_type", "elements", "batches"), [("zset", 200, 2), ("list", 200, 2), ("stream", 0, 0)])
def test_exact_multiples_and_an_empty_stream(
    client: redis.Redis, raw: Raw, key_type: str, elements: int, batches: int
) -> None:
    if key_type == "stream":
        raw.call("XGROUP", "CREATE", KEY, "readers", "$", "MKSTREAM")  # a stream with no entries, one group
    else:
        make(raw, key_type, elements)
    result = progressive_delete(client, KEY)
    assert result == ProgressiveDelete(key_type, elements, batches, unlinked=key_type == "stream")
    assert keys_of(raw) == set()


def test_a_missing_key_sends_only_type(client: redis.Redis, raw: Raw) -> None:
    assert progressive_delete(client, b"big:key:none") == ProgressiveDelete("none", 0, 0, unlinked=False)
    assert calls(raw) == {"type": 1}


def test_a_string_is_unlinked_at_once(client: redis.Redis, raw: Raw) -> None:
    raw.call("SET", KEY, b"x" * 100_000)
    raw.call("CONFIG", "RESETSTAT")
    assert progressive_delete(client, KEY) == ProgressiveDelete("string", 0, 0, unlinked=True)
    assert calls(raw) == {"type": 1, "unlink": 1}
    assert keys_of(raw) == set()


def interfere(monkeypatch: pytest.MonkeyPatch, after: int, action: Callable[[], None]) -> None:
    """Run `action` (another client's change) right after the recipe's `after`-th round trip."""
    sent = steps.send
    count = [0]

    def send(client: Any, batch: steps.Batch) -> list[Any]:
        replies = sent(client, batch)
        count[0] += 1
        if count[0] == after:
            action()
        return replies

    monkeypatch.setattr(steps, "send", send)


@pytest.mark.parametrize("key_type", ["hash", "set", "zset", "list", "stream"])
def test_a_key_that_vanishes_half_way_ends_the_batches(
    monkeypatch: pytest.MonkeyPatch, client: redis.Redis, raw: Raw, key_type: str
) -> None:
    make(raw, key_type, 1000)
    interfere(monkeypatch, 4, lambda: raw.call("UNLINK", KEY))
    result = progressive_delete(client, KEY)
    assert result.key_type == key_type
    assert 0 < result.elements < 1000
    assert result.unlinked is False
    assert "del" not in calls(raw)
    assert keys_of(raw) == set()


@pytest.mark.parametrize("key_type", ["hash", "set", "zset", "list", "stream"])
def test_a_key_that_changes_type_half_way_is_unlinked(
    monkeypatch: pytest.MonkeyPatch, client: redis.Redis, raw: Raw, key_type: str
) -> None:
    make(raw, key_type, 1000)
    replacement = ("SADD", KEY, b"other") if key_type == "hash" else ("HSET", KEY, b"f", b"v")

    def replace() -> None:
        raw.call("UNLINK", KEY)
        raw.call(*replacement)

    interfere(monkeypatch, 3, replace)
    result = progressive_delete(client, KEY)
    assert result.key_type == key_type
    assert 0 < result.elements < 1000
    assert result.unlinked is True  # the new value, removed by the final UNLINK
    assert "del" not in calls(raw)
    assert keys_of(raw) == set()


def test_another_server_error_is_raised(client: redis.Redis, raw: Raw, server: ServerProcess) -> None:
    make(raw, "hash", 300)
    raw.call("ACL", "SETUSER", "nohdel", "on", "nopass", "~*", "+@all", "-hdel")
    try:
        with (
            server.client(username="nohdel", password="") as limited,
            pytest.raises(redis.ResponseError, match="no permissions to run the 'hdel' command"),
        ):
            progressive_delete(limited, KEY)
    finally:
        raw.call("ACL", "DELUSER", "nohdel")
    assert raw.call("HLEN", KEY) == 300


def test_a_bad_batch_is_refused(client: redis.Redis) -> None:
    with pytest.raises(ValueError, match="batch must be a whole number >= 1"):
        progressive_delete(client, KEY, batch=0)


def test_the_asyncio_progressive_delete(server: ServerProcess, raw: Raw) -> None:
    make(raw, "zset", 1000)

    async def scenario() -> ProgressiveDelete:
        async with redis.asyncio.Redis(host=server.host, port=server.port) as client:
            return await aio.progressive_delete(client, KEY, batch=300)

    assert asyncio.run(scenario()) == ProgressiveDelete("zset", 1000, 4, unlinked=False)
    assert calls(raw) == {"type": 1, "zcard": 1, "zremrangebyrank": 4, "unlink": 1}
    assert keys_of(raw) == set()


@pytest.mark.parametrize(
    "options", [{"decode_responses": True}, {"protocol": 3}, {"protocol": 3, "decode_responses": True}]
)
def test_clients_that_decode_or_speak_resp3(server: ServerProcess, raw: Raw, options: dict[str, Any]) -> None:
    raw.pipeline([("HSET", b"big:key:2", f"字段{i}".encode(), b"v") for i in range(300)])
    raw.pipeline([("SADD", b"big:key:3", f"成员{i}".encode()) for i in range(300)])
    raw.pipeline([("RPUSH", b"big:key:4", i) for i in range(300)])
    with server.client(**options) as client:
        results = [progressive_delete(client, key) for key in (b"big:key:2", b"big:key:3", b"big:key:4")]
    assert [(r.key_type, r.elements, r.unlinked) for r in results] == [
        ("hash", 300, False),
        ("set", 300, False),
        ("list", 300, False),
    ]
    assert keys_of(raw) == set()
