"""Traces read for the eviction simulator, in each format, byte for byte; and each malformed input one error
line naming the file and the line."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from rediscipline.sources.errors import SourceError
from rediscipline.sources.simulation.traces import FORMAT_MONITOR, FORMAT_TEXT, FORMAT_TRACE, load_trace


def accesses(path: Path, **options: int) -> list[tuple[int, int, bytes, int]]:
    loaded = load_trace(path, **options)
    trace = loaded.trace
    return [(trace.times[i], trace.dbs[i], trace.names[trace.keys[i]], trace.sizes[i]) for i in range(len(trace))]


def test_a_text_trace_with_times(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"# comment\n\n1000 user:1 120\n1005\tbin:\xff\x00 7\n1005 user:1 120\n")
    assert load_trace(path).format == FORMAT_TEXT and load_trace(path).timed
    assert accesses(path) == [(1000, 0, b"user:1", 120), (1005, 0, b"bin:\xff\x00", 7), (1005, 0, b"user:1", 120)]
    assert load_trace(path).trace.keys[0] == load_trace(path).trace.keys[2]  # one key, one number


def test_ttls_from_each_format(tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text("1000 a 10 ttl=60000\n1001 b 10\n")
    assert list(load_trace(text).trace.ttls) == [60000, 0]
    capture = tmp_path / "capture.txt"
    capture.write_bytes(
        b'1700000000.000000 [0 127.0.0.1:5000] "SET" "a" "v" "PX" "1500"\n'
        b'1700000000.000000 [0 127.0.0.1:5000] "SETEX" "b" "60" "v"\n'
        b'1700000000.000000 [0 127.0.0.1:5000] "SET" "c" "v" "EXAT" "1700000010"\n'
        b'1700000000.000000 [0 127.0.0.1:5000] "GET" "a"\n'
    )
    assert list(load_trace(capture).trace.ttls) == [1500, 60000, 10000, 0]
    jsonl = tmp_path / "trace.jsonl"
    jsonl.write_text(
        '{"format": "rediscipline-trace", "version": 1}\n'
        '{"us": 1000, "db": 0, "cmd": "setex", "size": 5, "key": "YQ==", "ttl": 30000}\n'
        '{"us": 2000, "db": 0, "cmd": "get", "size": 1, "key": "YQ=="}\n'
    )
    assert list(load_trace(jsonl).trace.ttls) == [30000, 0]


def test_a_text_trace_without_times_is_spaced_at_the_rate(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("a 1\nb 2\nc 3\n")
    assert [t for t, _db, _k, _s in accesses(path, rate=2)] == [0, 500, 1000]
    assert not load_trace(path).timed


def test_a_rediscipline_trace_sizes_keys_by_their_writes(tmp_path: Path) -> None:
    def line(us: int, db: int, cmd: str, size: int, key: bytes) -> str:
        return json.dumps({"us": us, "db": db, "cmd": cmd, "size": size, "key": base64.b64encode(key).decode()})

    path = tmp_path / "trace.jsonl"
    path.write_text(
        "\n".join([
            json.dumps({"format": "rediscipline-trace", "version": 1}),
            line(1_000_000, 0, "get", 6, b"page:1"),
            line(1_002_000, 0, "set", 506, b"page:1"),  # a 500-byte value
            line(1_003_000, 1, "get", 6, b"page:1"),  # another database: another key, never written
            line(1_004_000, 0, "get", 6, b"\xff\x01"),
        ]) + "\n"
    )  # fmt: skip
    assert load_trace(path).format == FORMAT_TRACE
    assert accesses(path, default_size=64) == [
        (1000, 0, b"page:1", 500),
        (1002, 0, b"page:1", 500),
        (1003, 1, b"page:1", 64),
        (1004, 0, b"\xff\x01", 64),
    ]


def test_a_monitor_capture(tmp_path: Path) -> None:
    path = tmp_path / "capture.txt"
    path.write_bytes(
        b"OK\n"
        b'1700000000.000100 [0 127.0.0.1:5000] "SET" "k:\\xff" "abcdefghij" "EX" "60"\n'
        b'1700000000.002000 [0 127.0.0.1:5000] "PING"\n'
        b'1700000000.003000 [2 127.0.0.1:5000] "MGET" "a" "b"\n'
        b'1700000000.004000 [0 lua] "GET" "k:\\xff"\n'
    )
    assert load_trace(path).format == FORMAT_MONITOR
    assert accesses(path, default_size=9) == [
        (1_700_000_000_000, 0, b"k:\xff", 10),
        (1_700_000_000_003, 2, b"a", 9),
        (1_700_000_000_003, 2, b"b", 9),
        (1_700_000_000_004, 0, b"k:\xff", 10),
    ]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"1 a 10\n2 b x\n", "line 2: size x is not a whole number"),
        (b"1 a 10\nb 10\n", "line 2: every line needs a time, or none does"),
        (b"5 a 10\n4 b 10\n", "line 2: time 4 is before the line above's"),
        (b"a 1 2 3\n", "line 1: expected `[ts_ms] key size [ttl=MS]`, not 4 fields"),
        (b"1 a 10 ttl=x\n", "line 1: ttl x is not a whole number"),
        (b"a -3\n", "line 1: size -3 is not a whole number"),
        (b'{"format": "rediscipline-trace", "version": 1}\n{"us": 1, "db": 0}\n', "line 2: not an access"),
        (b'{"format": "rediscipline-trace", "version": 9}\n', "line 1: not a rediscipline-trace file of version 1"),
        (b'{"format": "rediscipline-trace", "version": 1}\nnot json\n', "line 2: not JSON"),
        (b'OK\n1700000000.000100 [0 127.0.0.1:5000] "GET" "a\n', "line 2: not a MONITOR line"),
    ],
)
def test_a_malformed_line_is_an_error_naming_it(tmp_path: Path, content: bytes, error: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(SourceError) as raised:
        load_trace(path)
    assert str(raised.value).startswith(f"{path}: {error}"), str(raised.value)


def test_a_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"^cannot read the trace .*: no such file or directory$"):
        load_trace(tmp_path / "missing.txt")
