"""The keyspace summary's key-size histogram and expiry timeline on real servers and their dumps.

A server of each kind gets keys of many sizes (strings from empty to 200 KB, integers, small hashes, sets and
lists) and TTLs set with EX and PX in the middle of minute and hour bins (so that the seconds the test takes
move no key out of its bin), plus persistent keys. The live scan must put every key in the bucket of the
MEMORY USAGE the server reports for it and every TTL in its minute and hour; the server's own dump, saved
when the keys were written, must give the timeline its expiries (PEXPIRETIME) give counted from the dump's
`ctime`, and the sizes the memory model estimates for its keys. A scan that probes no memory or no TTL has
no such table, and a sampled scan's tables count the keys it drew.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rediscipline.sources.live.defaults import DEFAULT_MEMORY_SAMPLES
from rediscipline.sources.rdb.memory import model_for
from rediscipline.sources.rdb.parser import open_rdb
from tests.live.conftest import connect, run_scan, serve
from tests.support.servers import ServerProcess

MINUTE_MS = 60_000
HOUR_MS = 3_600_000
#: Minutes and hours of the timeline the keys are due in (each key half-way through its bin).
MINUTES = (0, 1, 7, 59, 60, 61, 777, 1439)
HOURS = (24, 25, 100, 718, 719)
LATER_DAYS = (31, 45)
STRING_LENGTHS = (0, 1, 5, 20, 39, 40, 44, 45, 60, 100, 200, 500, 1_000, 3_000, 10_000, 50_000, 200_000)


@dataclass
class Charted:
    server: ServerProcess
    memory: dict[bytes, int]  # MEMORY USAGE of every key
    expire_at: dict[bytes, int]  # PEXPIRETIME of the keys with a TTL
    dump: Path  # the server's dump of these keys, saved when they were written

    @property
    def with_ttl(self) -> int:
        return len(self.expire_at)


def _write(server: ServerProcess) -> list[bytes]:
    """Every key, its TTL (EX or PX, mid-bin) set as it is written."""
    client = connect(server)
    pipe = client.pipeline(transaction=False)
    names: list[bytes] = []

    def add(name: bytes) -> bytes:
        names.append(name)
        return name

    for length in STRING_LENGTHS:
        pipe.set(add(b"chart:str:%d" % length), b"v" * length)
    for number in (7, 12345, 2**40):
        pipe.set(add(b"chart:int:%d" % number), number)
    for fields in (1, 3, 40):
        name = add(b"chart:hash:%d" % fields)
        pipe.hset(name, mapping={b"f%d" % i: b"x" * (i % 30) for i in range(fields)})
    pipe.sadd(add(b"chart:set:ints"), *range(50))
    pipe.rpush(add(b"chart:list:short"), *(b"item-%d" % i for i in range(20)))
    pipe.set(add(b"chart:\xff\xfe:bin"), b"\x00" * 300)
    for minute in MINUTES:  # PX: half a minute into the minute
        pipe.set(add(b"chart:ttl:minute:%d" % minute), b"m" * minute, px=minute * MINUTE_MS + MINUTE_MS // 2)
    for hour in HOURS:  # EX: half an hour into the hour
        pipe.set(add(b"chart:ttl:hour:%d" % hour), b"h", ex=hour * 3600 + 1800)
    for days in LATER_DAYS:
        pipe.set(add(b"chart:ttl:later:%d" % days), b"l", ex=days * 86_400)
    pipe.hset(add(b"chart:ttl:hash"), mapping={b"a": b"1", b"b": b"2"})
    pipe.pexpire(b"chart:ttl:hash", 210 * MINUTE_MS + MINUTE_MS // 2)  # minute 210, hour 3
    pipe.execute()
    return names


def _ask(server: ServerProcess, names: list[bytes]) -> tuple[dict[bytes, int], dict[bytes, int]]:
    """MEMORY USAGE as the scan asks it, and PEXPIRETIME, of every key."""
    client = connect(server)
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.execute_command("MEMORY", "USAGE", name, "SAMPLES", DEFAULT_MEMORY_SAMPLES)
        pipe.execute_command("PEXPIRETIME", name)
    replies = pipe.execute()
    memory = dict(zip(names, replies[::2], strict=True))
    expire_at = {name: at for name, at in zip(names, replies[1::2], strict=True) if at >= 0}
    return memory, expire_at


@pytest.fixture(scope="module", params=["redis70", "valkey91"])
def charted(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Charted]:
    for server in serve(request.param):
        names = _write(server)
        memory, expire_at = _ask(server, names)
        with server.client() as client:
            client.save()
        dump = tmp_path_factory.mktemp("charts") / "dump.rdb"
        shutil.copyfile(server.workdir / "dump.rdb", dump)
        yield Charted(server, memory, expire_at, dump)


def _size_buckets(memories: Iterable[int]) -> list[dict[str, int]]:
    """The histogram as docs/json-report.md defines it, from the memory of each key."""
    keys: dict[int, int] = {}
    total: dict[int, int] = {}
    for memory in memories:
        size = memory.bit_length()
        keys[size] = keys.get(size, 0) + 1
        total[size] = total.get(size, 0) + memory
    return [
        {
            "low": 0 if size == 0 else 2 ** (size - 1),
            "high": 2**size,
            "keys": keys.get(size, 0),
            "memory": total.get(size, 0),
        }
        for size in range(min(keys), max(keys) + 1)
    ]


def _timeline(ttls: Iterable[int]) -> dict[str, Any]:
    """The timeline as docs/json-report.md defines it, from the TTL of each key (ms), as sparse tables."""
    minutes: dict[int, int] = {}
    hours: dict[int, int] = {}
    later = 0
    for ttl in ttls:
        if ttl < 24 * HOUR_MS:
            minutes[ttl // MINUTE_MS] = minutes.get(ttl // MINUTE_MS, 0) + 1
        if ttl < 720 * HOUR_MS:
            hours[ttl // HOUR_MS] = hours.get(ttl // HOUR_MS, 0) + 1
        else:
            later += 1
    return {"per_minute": minutes, "per_hour": hours, "later": later, "keys": sum(hours.values()) + later}


def _sparse(expiry: dict[str, Any]) -> dict[str, Any]:
    assert (len(expiry["per_minute"]), len(expiry["per_hour"])) == (1440, 720)
    return {
        "per_minute": {index: count for index, count in enumerate(expiry["per_minute"]) if count},
        "per_hour": {index: count for index, count in enumerate(expiry["per_hour"]) if count},
        "later": expiry["later"],
        "keys": expiry["keys"],
    }


def _keyspace(target: str, cwd: Path, *args: str) -> dict[str, Any]:
    result = run_scan(target, *args, cwd=cwd)
    assert result.returncode in (0, 1), result.describe()
    keyspace: dict[str, Any] = result.report["keyspace"]
    return keyspace


def test_a_live_scan_buckets_each_key_by_its_memory_usage_and_ttl(charted: Charted, tmp_path: Path) -> None:
    keyspace = _keyspace(charted.server.url, tmp_path, "--summary")
    assert "not_measured" not in keyspace
    assert keyspace["keys"] == len(charted.memory)
    assert keyspace["size_buckets"] == _size_buckets(charted.memory.values())
    assert len(keyspace["size_buckets"]) >= 10  # 20 bytes to 200 KB
    minutes = Counter([*MINUTES, 210])  # 210: the hash
    hours = Counter([*(minute // 60 for minute in minutes.elements()), *HOURS])
    assert _sparse(keyspace["expiry"]) == {
        "per_minute": dict(minutes),
        "per_hour": dict(hours),
        "later": len(LATER_DAYS),
        "keys": charted.with_ttl,
    }
    assert keyspace["expiry"]["keys"] == keyspace["with_ttl"] == len(MINUTES) + len(HOURS) + len(LATER_DAYS) + 1


def test_the_dump_gives_the_timeline_of_its_expiries_and_the_sizes_of_its_model(
    charted: Charted, tmp_path: Path
) -> None:
    with open_rdb(charted.dump) as dump:
        keys = list(dump.keys())
        model = model_for(dump.header, dump.aux)
        written_ms = int(dump.aux["ctime"]) * 1000
    assert len(keys) == len(charted.memory)
    keyspace = _keyspace(str(charted.dump), tmp_path)
    expected = _timeline(at - written_ms for at in charted.expire_at.values())
    assert _sparse(keyspace["expiry"]) == expected
    assert expected["keys"] == charted.with_ttl and len(expected["per_hour"]) >= 9
    buckets = keyspace["size_buckets"]
    assert sum(b["keys"] for b in buckets) == keyspace["keys"] == len(charted.memory)
    assert sum(b["memory"] for b in buckets) == keyspace["memory"]
    assert buckets == _size_buckets(model.estimate(key) for key in keys)


def test_a_scan_that_measures_no_memory_or_no_ttl_has_no_such_table(charted: Charted, tmp_path: Path) -> None:
    ttl_only = _keyspace(charted.server.url, tmp_path, "--select", "TTL001")
    assert "memory" in ttl_only["not_measured"] and "ttl" not in ttl_only["not_measured"]
    assert ttl_only["size_buckets"] == []
    assert ttl_only["expiry"]["keys"] == charted.with_ttl
    memory_only = _keyspace(charted.server.url, tmp_path, "--select", "VAL003")
    assert "ttl" in memory_only["not_measured"] and "memory" not in memory_only["not_measured"]
    assert memory_only["expiry"] is None
    assert memory_only["size_buckets"] == _size_buckets(charted.memory.values())


def test_a_sampled_scan_counts_the_keys_it_drew(charted: Charted, tmp_path: Path) -> None:
    keyspace = _keyspace(charted.server.url, tmp_path, "--summary", "--sample", "20", "--seed", "7")
    drawn = keyspace["sampling"]["sampled"]
    assert 0 < drawn < len(charted.memory) and keyspace["keys"] == drawn
    assert sum(b["keys"] for b in keyspace["size_buckets"]) == drawn
    assert keyspace["expiry"]["keys"] == keyspace["with_ttl"]
    whole = {(b["low"], b["high"]): b["keys"] for b in _size_buckets(charted.memory.values())}
    assert all(b["keys"] <= whole[(b["low"], b["high"])] for b in keyspace["size_buckets"])
