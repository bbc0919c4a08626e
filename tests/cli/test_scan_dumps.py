"""`rediscipline scan DUMP...` end to end: one file, several files and directories as one report, filters,
parallel workers, and the errors a user can make. Dumps come from the byte-exact writer in tests/support."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import Run
from tests.support.rdbwriter import RdbBuilder, intset, listpack

CTIME = 1_790_000_000  # seconds; the AUX ctime every TTL counts from
BIG = 20_000  # elements: above the default 5,000-element limit (VAL002)


def shard(index: int, *, keys: int = 50, version: str = b"7.0.15".decode()) -> bytes:
    """One shard of a small keyspace: clean `user:profile:N` hashes with TTLs, plus seeded problems."""
    b = RdbBuilder(version=10).aux(b"redis-ver", version.encode()).aux(b"ctime", str(CTIME).encode())
    b.aux(b"used-mem", b"1048576").select(0)
    for n in range(keys):
        name = b"user:profile:%d" % (index * 1000 + n)
        b.blob(16, name, listpack([b"name", b"ann", b"age", 30]), expire_ms=(CTIME + 3600) * 1000)
    b.string(b"cache:page:%d" % index, b"x" * 100)  # no TTL (TTL001)
    b.set_hashtable(b"tags:all:%d" % index, [b"t%06d" % i for i in range(BIG)])  # big set (VAL002), no TTL
    b.blob(11, b"ids:small:%d" % index, intset([1, 2, 3]), expire_ms=(CTIME + 60) * 1000)
    b.select(2).string(b"Session Key %d" % index, b"v", expire_ms=(CTIME + 600) * 1000)  # KEY001 whitespace
    b.string(b"gone:%d" % index, b"v", expire_ms=(CTIME - 5) * 1000)  # had expired when written
    return b.build()


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def report(result: Any) -> dict[str, Any]:
    assert result.returncode in (0, 1), result.stderr.decode()
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def findings(data: dict[str, Any]) -> set[tuple[str, str, str, int]]:
    return {(f["rule"], f["code"], f.get("pattern") or "", f["count"]) for f in data["findings"]}


def test_one_dump_is_audited_like_a_server(run: Run, tmp_path: Path) -> None:
    dump = write(tmp_path / "dump.rdb", shard(1))
    data = report(run("scan", str(dump), "--format", "json", "--isolated"))
    assert data["summary"]["keys"] == 50 + 4  # the expired key is left out
    server = data["server"]
    assert server["address"] == str(dump)
    assert (server["flavor"], server["version"]) == ("redis", "7.0.15")
    assert server["role"] == "REDIS0010 dump · CRC verified"
    assert server["used_memory"] == 1048576
    assert server["databases"] == {"0": 53, "2": 1}  # the expired key is not counted
    keyspace = data["keyspace"]
    assert keyspace["memory_model"] == "redis-7, jemalloc"
    assert (keyspace["keys"], keyspace["with_ttl"]) == (54, 52)
    got = findings(data)
    assert ("VAL002", "over-limit", "tags:all:*", 1) in got
    assert ("TTL001", "missing", "cache:page:*", 1) in got
    assert ("TTL001", "missing", "tags:all:*", 1) in got
    assert any(rule == "KEY001" for rule, _code, _pattern, _count in got)
    assert not any(pattern.startswith("user:profile") for _rule, _code, pattern, _count in got)
    notes = " ".join(data["notes"]) if isinstance(data["notes"], list) else str(data["notes"])
    assert "1 keys had already expired" in notes
    assert "CFG001" in notes  # listed as not checkable from a dump


def test_several_dumps_make_one_report_whatever_the_parallelism(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "cluster"
    folder.mkdir()
    for index in range(3):
        write(folder / f"node-{index}.rdb", shard(index))
    (folder / "notes.txt").write_text("not a dump")
    serial = report(run("scan", str(folder), "--jobs", "1", "--format", "json", "--isolated"))
    parallel = report(run("scan", str(folder), "--jobs", "3", "--format", "json", "--isolated"))
    assert serial["summary"]["keys"] == parallel["summary"]["keys"] == 3 * 54
    assert findings(serial) == findings(parallel)
    assert ("VAL002", "over-limit", "tags:all:*", 3) in findings(serial)
    assert serial["server"]["address"] == "3 dumps: node-0.rdb, node-1.rdb, node-2.rdb"
    assert serial["server"]["databases"] == {"0": 159, "2": 3}
    assert serial["keyspace"] == {**parallel["keyspace"], "top_by_memory": serial["keyspace"]["top_by_memory"]}
    # each dump is a part merged in path order: the whole report, examples included, is the same
    serial["summary"]["elapsed_seconds"] = parallel["summary"]["elapsed_seconds"] = None
    assert serial == parallel


def test_filters_keep_only_matching_keys(run: Run, tmp_path: Path) -> None:
    dump = write(tmp_path / "dump.rdb", shard(1))
    only_db2 = report(run("scan", str(dump), "--db", "2", "--format", "json", "--isolated"))
    assert only_db2["summary"]["keys"] == 1
    sets = report(run("scan", str(dump), "--type", "set", "--format", "json", "--isolated"))
    assert sets["summary"]["keys"] == 2
    profiles = report(run("scan", str(dump), "--match", "user:profile:1*", "--format", "json", "--isolated"))
    assert profiles["summary"]["keys"] == 50


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["redis://127.0.0.1:1", "DUMP"], "either one server URL or dump files"),
        (["DUMP", "--sample", "10"], "--sample only apply to a live server"),
        (["redis://127.0.0.1:1", "--deep"], "only apply to dump files"),
    ],
)
def test_live_and_dump_options_do_not_mix(run: Run, tmp_path: Path, args: list[str], message: str) -> None:
    dump = write(tmp_path / "dump.rdb", shard(1))
    result = run("scan", *[str(dump) if a == "DUMP" else a for a in args])
    assert result.returncode == 2
    assert message in result.stderr.decode()


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: d / "missing.rdb", "no such file or directory"),
        (lambda d: d, "directory holds no *.rdb files"),
        (lambda d: write(d / "empty.rdb", b""), "empty file, not an RDB dump at byte offset 0"),
        (lambda d: write(d / "text.rdb", b"hello world\n"), "does not start with REDIS or VALKEY"),
        (lambda d: write(d / "future.rdb", b"REDIS0099" + b"\xff" + bytes(8)), "unsupported RDB version 99"),
    ],
)
def test_unreadable_inputs_give_one_line_and_exit_2(run: Run, tmp_path: Path, make: Any, expected: str) -> None:
    result = run("scan", str(make(tmp_path)))
    assert result.returncode == 2
    lines = [line for line in result.stderr.decode().splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr.decode()
    assert "Traceback" not in lines[0]
    assert expected in lines[0]


def test_corruption_in_a_worker_stops_the_whole_run(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "dumps"
    folder.mkdir()
    write(folder / "a.rdb", shard(0))
    good = shard(1)
    write(folder / "b.rdb", good[: len(good) // 2])
    result = run("scan", str(folder), "--jobs", "2")
    assert result.returncode == 2
    lines = [line for line in result.stderr.decode().splitlines() if line.strip()]
    assert len(lines) == 1 and "b.rdb" in lines[0] and "at byte offset" in lines[0], lines


def test_text_report_names_the_dump_and_labels_memory_as_estimated(run: Run, tmp_path: Path) -> None:
    dump = write(tmp_path / "nightly.rdb", shard(7))
    result = run("scan", str(dump), "--isolated", "--color", "never", "--allocator", "jemalloc16")
    assert result.returncode == 1, result.stderr.decode()
    text = result.stdout.decode()
    assert f"server: redis 7.0.15 (REDIS0010 dump · CRC verified) · {dump} · used 1.0 MB · db0 53, db2 1" in text
    assert "(estimated: redis-7, jemalloc16)" in text
    assert "memory (est.)" in text.split("memory by type")[1].splitlines()[1]
    assert 'e.g. "cache:page:7" (nightly.rdb db0)' in text
    assert "1 keys had already expired when the dump was written" in text


def test_a_non_utf8_glob_matches_non_utf8_keys(run: Run, tmp_path: Path) -> None:
    b = RdbBuilder(version=10).aux(b"redis-ver", b"7.0.15").select(0)
    b.string(b"bin:\xff:1", b"v").string(b"bin:\xfe:2", b"v").string(b"text:1", b"v")
    dump = write(tmp_path / "dump.rdb", b.build())
    result = run("scan", str(dump), "--match", os.fsdecode(b"bin:\xff*"), "--format", "json", "--isolated")
    assert report(result)["summary"]["keys"] == 1
