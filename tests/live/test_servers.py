"""The live-test infrastructure itself: real servers start and stop cleanly, the dataset is what the manifest
says, the MONITOR recorder sees and judges commands correctly."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.live.conftest import cli_env, connect, name_of
from tests.support.dataset import Manifest, all_names, bulk, pattern_of, reset_idle
from tests.support.monitor import (
    MonitorRecorder,
    calls_between,
    commandstats,
    forbidden_commands,
    forbidden_in_stats,
    parse_monitor_line,
)
from tests.support.servers import (
    ServerProcess,
    TLSUnsupported,
    available_kinds,
    binary_version,
    pid_alive,
    start_server,
    supports_tls,
    tls_files,
)

EXPECTED_VERSION = {"redis70": "7.0.", "valkey91": "9.1.", "redis82": "8.2.", "redis62": "6.2."}
COMPACT = {b"listpack", b"ziplist", b"intset"}


def test_kind_starts_answers_and_stops(kind: str) -> None:
    server = start_server(kind)
    try:
        assert server.alive
        with connect(server) as client:
            assert client.ping()
            assert client.dbsize() == 0
            assert client.config_get("save") in ({"save": ""}, {b"save": b""})
        assert server.version.startswith(EXPECTED_VERSION[kind]), server.version
        assert server.version == binary_version(kind)
        assert server.flavor == ("valkey" if kind == "valkey91" else "redis")
        assert server.url == f"redis://127.0.0.1:{server.port}"
        assert server.workdir.is_dir()
    finally:
        server.stop()
    assert not pid_alive(server.pid)
    assert not server.workdir.exists()
    server.stop()  # a second stop is harmless


def test_every_kind_required_in_ci_is_installed() -> None:
    if os.environ.get("CI") != "true":
        pytest.skip("only checked under CI=true")
    assert {"redis70", "valkey91"} <= set(available_kinds())


def test_kill_is_immediate_and_stop_cleans_up(kind: str) -> None:
    server = start_server(kind)
    server.kill()
    assert not server.alive
    assert not pid_alive(server.pid)
    server.stop()
    assert not server.workdir.exists()


def test_unix_socket_and_password(kind: str) -> None:
    with start_server(kind, password="s3cret pw", unixsocket=True) as server:
        assert server.unixsocket is not None
        assert server.unix_url == f"unix://{server.unixsocket}"
        with redis.Redis(unix_socket_path=str(server.unixsocket), password="s3cret pw") as client:
            assert client.ping()
        anonymous = redis.Redis(host=server.host, port=server.port, retry=Retry(NoBackoff(), 0))
        with anonymous, pytest.raises(redis.AuthenticationError):
            anonymous.ping()
        assert server.url_for("scanner", "p w@") == f"redis://scanner:p%20w%40@127.0.0.1:{server.port}"


def test_extra_args_reach_the_server() -> None:
    kind = available_kinds()[0] if available_kinds() else pytest.skip("no server installed")
    with start_server(kind, extra_args=("--maxmemory", "10mb", "--databases", "4")) as server, connect(server) as c:
        assert c.config_get("maxmemory") in ({"maxmemory": "10485760"}, {b"maxmemory": b"10485760"})
        with pytest.raises(redis.ResponseError):
            c.execute_command("SELECT", 5)


def test_tls(kind: str) -> None:
    if not supports_tls(kind):
        with pytest.raises(TLSUnsupported):
            start_server(kind, tls=True)
        pytest.skip(f"{kind} was built without TLS")
    with start_server(kind, tls=True) as server:
        assert server.tls_port is not None
        assert server.tls_url == f"rediss://127.0.0.1:{server.tls_port}"
        certs = tls_files()
        with redis.Redis(host=server.host, port=server.tls_port, ssl=True, ssl_ca_certs=str(certs.cert)) as client:
            assert client.ping()


# ---- the dataset ---------------------------------------------------------------------------------------------


def _length(client: redis.Redis, kind: str, name: bytes) -> int:
    command = {"string": "STRLEN", "hash": "HLEN", "list": "LLEN", "set": "SCARD", "zset": "ZCARD"}[kind]
    return int(client.execute_command(command, name))


def test_manifest_matches_the_server(server: ServerProcess, dataset: Manifest) -> None:
    with connect(server) as client:
        reset_idle(client, dataset)  # scans of this session-wide server may have touched them (Redis < 7.2)
    assert dataset.clean_count == dataset.scale
    assert dataset.clean_count / (dataset.clean_count + dataset.seed_key_count) >= 0.95
    clients = {db: connect(server, db=db) for db in dataset.keys_per_db}
    try:
        for db, count in dataset.keys_per_db.items():
            assert clients[db].dbsize() == count, f"db{db}"
        with connect(server) as c:
            assert set(c.info("keyspace")) == {f"db{db}" for db in dataset.keys_per_db}
        problems = []
        for (db, name), shape in dataset.shapes.items():
            client = clients[db]
            shown = name[:40]
            if shape.idle_at_least is not None:  # first: STRLEN & co. reset the idle clock on Redis < 7.2
                idle = client.object("idletime", name)
                if idle < shape.idle_at_least:
                    problems.append(f"{shown!r}: idle {idle} s, expected ≥ {shape.idle_at_least}")
            kind = str(client.type(name), "ascii")
            if kind != shape.type:
                problems.append(f"{shown!r}: type {kind}, expected {shape.type}")
                continue
            if _length(client, kind, name) != shape.length:
                problems.append(f"{shown!r}: length {_length(client, kind, name)}, expected {shape.length}")
            ttl = client.pttl(name)
            if (ttl == -1) != shape.persistent:
                problems.append(f"{shown!r}: pttl {ttl}, persistent expected: {shape.persistent}")
            encoding = client.object("encoding", name)
            if shape.compact is not None and (encoding in COMPACT) != shape.compact:
                problems.append(f"{shown!r}: encoding {encoding!r}, compact expected: {shape.compact}")
        assert not problems, "\n".join(problems)
    finally:
        for client in clients.values():
            client.close()


def test_seed_expectations_are_consistent(server: ServerProcess, dataset: Manifest) -> None:
    idle_keys = {key for (db, key), shape in dataset.shapes.items() if shape.idle_at_least}
    assert {key for s in dataset.seeds_of("TTL004") for key in s.keys} == idle_keys
    assert {("TTL001", "missing"), ("TTL004", "idle")} <= dataset.expected(0, sorted(idle_keys)[0])
    assert dataset.expected(0, b"shop:order:1") == frozenset()
    with connect(server) as client:
        lazy = client.config_get("lazyfree-lazy-expire")
    lazy_on = "yes" in {str(v) for v in lazy.values()} or b"yes" in lazy.values()
    assert dataset.lazyfree_lazy_expire == lazy_on
    assert bool(dataset.seeds_of("TTL005")) == (not lazy_on)
    required = {"KEY001", "KEY002", "KEY005", "KEY006", "KEY007", "KEY009", "KEY011", "VAL001", "VAL002", "VAL003"}
    required |= {"VAL004", "VAL005", "VAL006", "VAL007", "VAL008", "TTL001", "TTL002", "TTL004", "CFG007"}
    assert required <= dataset.rules()
    for seed in dataset.seeds:
        if seed.pattern is not None:
            assert seed.pattern not in dataset.clean_patterns, seed


def test_clean_keys_are_all_as_promised(server: ServerProcess, dataset: Manifest) -> None:
    names = [key for db, key in all_names(dataset) if not dataset.expected(db, key) and db == 0]
    assert len(names) == dataset.scale
    with connect(server) as client:
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.pttl(name)
            pipe.type(name)
            pipe.memory_usage(name)
        replies = pipe.execute()
    problems = []
    for index, name in enumerate(names):
        ttl, kind, memory = replies[3 * index : 3 * index + 3]
        if not 0.9 * 6 * 3600_000 * 0.99 < ttl <= 1.1 * 4 * 86400_000:
            problems.append(f"{name!r}: pttl {ttl}")
        if len(name) > 50 or name != name.lower() or name.count(b":") != 2:
            problems.append(f"{name!r}: bad name")
        if kind == b"string" and memory > 1100:
            problems.append(f"{name!r}: {memory} bytes")
    assert not problems, "\n".join(problems[:20])


def test_every_key_name_trips_exactly_its_key_rules(redis70_dataset: Manifest, tmp_path: Path) -> None:
    """The KEY seeds, checked offline with `rediscipline keys`: every other name is clean for the KEY rules."""
    manifest = redis70_dataset
    lines = [json.dumps({"key_b64": base64.b64encode(key).decode()}) for _db, key in all_names(manifest)]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rediscipline",
            "keys",
            "-",
            "--input-format",
            "jsonl",
            "--format",
            "json",
            "--isolated",
        ],
        input="\n".join(lines).encode(),
        capture_output=True,
        cwd=tmp_path,
        env=cli_env(),
        timeout=120,
        check=False,
    )
    report = json.loads(result.stdout)
    found: Counter[tuple[str, str | None, bytes | None]] = Counter()
    for finding in report["findings"]:
        found[(finding["rule"], finding["code"], name_of(finding, "pattern"))] += finding["count"]
    expected: Counter[tuple[str, str | None, bytes | None]] = Counter()
    for seed in manifest.seeds:
        if seed.rule.startswith("KEY"):
            expected[(seed.rule, seed.code, seed.pattern)] += len(seed.keys)
    assert found == expected


def test_bulk_mode_writes_clean_keys_fast(kind: str) -> None:
    with start_server(kind) as server, connect(server) as client:
        manifest = bulk(client, 20_000)
        assert client.dbsize() == 20_000
        assert manifest.seeds == ()
        sample = [client.randomkey() for _ in range(200)]
        assert all(client.pttl(key) > 0 for key in sample)
        assert all(pattern_of(key) in manifest.clean_patterns for key in sample)


# ---- the MONITOR recorder ------------------------------------------------------------------------------------


def test_parse_monitor_line_handles_escapes() -> None:
    line = b'1700000000.123456 [3 127.0.0.1:5555] "SET" "a\\x00\\"b\\\\ \\n" "\\xff\\xfe" ""'
    record = parse_monitor_line(line)
    assert record is not None
    assert record.db == 3 and record.client == "127.0.0.1:5555"
    assert record.args == (b"SET", b'a\x00"b\\ \n', b"\xff\xfe", b"")
    assert record.name == "set"
    assert parse_monitor_line(b"OK") is None


def test_monitor_records_and_judges_commands(kind: str) -> None:
    with start_server(kind, password="pw") as server, connect(server) as client:
        client.set(b"k\xff", b"v")
        client.rpush(b"l", b"a")
        before = commandstats(client)
        with MonitorRecorder(server) as recorder:
            client.get(b"k\xff")
            client.lrange(b"l", 0, -1)
            client.lrange(b"l", 0, 9)
            client.memory_usage(b"l", samples=0)
            client.memory_usage(b"l", samples=5)
            client.keys(b"k*")
            client.config_get("maxmemory")
            client.expire(b"l", 100)
            client.object("encoding", b"l")
        records = recorder.records
        calls = calls_between(before, commandstats(client))
        names = [r.name for r in records]
        assert names[:4] == ["get", "lrange", "lrange", "memory"]
        assert records[0].args == (b"GET", b"k\xff")
        problems = forbidden_commands(records, client)
        assert [p.split(":", 1)[0] for p in problems] == [
            "reads the whole value",
            "MEMORY USAGE SAMPLES 0 walks the whole value",
            "forbidden command",
            "write command",
        ]
        expected = ["expire called 1 times", "keys called 1 times", "monitor called 1 times"]
        assert forbidden_in_stats(calls, client) == expected


def test_monitor_survives_a_dying_server() -> None:
    kind = available_kinds()[0] if available_kinds() else pytest.skip("no server installed")
    server = start_server(kind)
    recorder = MonitorRecorder(server).start()
    with connect(server) as client:
        client.ping()
    server.kill()
    assert recorder.stop(timeout=5) is recorder.records
    server.stop()
