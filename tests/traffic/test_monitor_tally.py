"""What a MONITOR sample's lines add up to (`MonitorTally`), on lines written here, and the trace file format.

The lines are those a server writes (tests/traffic/test_monitor_line.py checks the parser on real servers);
here the question is only what the tally makes of a known sequence of commands.
"""

from __future__ import annotations

import io

import pytest

from rediscipline.model.monitor import (
    STOP_DURATION,
    ArityShape,
    ClientCount,
    KeyCount,
    MonitorSample,
    PatternCount,
    TransactionShape,
    TtlShape,
)
from rediscipline.sources.traffic import monitor_tally
from rediscipline.sources.traffic.monitor_line import MonitorLine
from rediscipline.sources.traffic.monitor_tally import MonitorTally
from rediscipline.sources.traffic.trace import Access, TraceWriter, read_trace

A, B = "10.0.0.1:5000", "10.0.0.2:6000"


def feed(tally: MonitorTally, client: str, *args: bytes, db: int = 0, moment: float = 100.0) -> None:
    tally.feed(MonitorLine(moment, db, client, args))


def result(tally: MonitorTally) -> MonitorSample:
    return tally.sample(STOP_DURATION, error=None, bytes_read=0, max_bytes=1, seconds=1.0, shown=100)


def test_multi_key_commands_and_transactions_have_their_shapes() -> None:
    tally = MonitorTally()
    feed(tally, A, b"MGET", *(b"k%d" % n for n in range(5)))
    feed(tally, B, b"mget", b"x")
    feed(tally, A, b"DEL", b"a", b"b", b"c")
    feed(tally, A, b"MULTI")
    feed(tally, B, b"GET", b"x")  # another client's command between MULTI and the block: not part of it
    feed(tally, A, b"SET", b"t", b"1")
    feed(tally, A, b"INCR", b"t")
    feed(tally, A, b"EXEC")
    feed(tally, A, b"MULTI")
    feed(tally, A, b"DISCARD")
    feed(tally, B, b"MULTI")
    feed(tally, B, b"EXEC")
    feed(tally, B, b"MULTI")  # still open when the sample ends: not counted
    feed(tally, B, b"GET", b"y")
    sample = result(tally)
    assert sample.arity == (
        ArityShape("mget", 2, 5, {1: 1, 8: 1}, A, b"k0"),
        ArityShape("del", 1, 3, {4: 1}, A, b"a"),
    )
    assert sample.transactions == (TransactionShape(A, 1, 2, 2), TransactionShape(B, 1, 0, 0))
    assert sample.transactions_untracked == 0
    assert dict(sample.commands) == {"multi": 4, "get": 2, "exec": 2, "mget": 2, "del": 1, "discard": 1, "incr": 1,
                                     "set": 1}  # fmt: skip
    assert sample.clients == (ClientCount(A, 8, 0), ClientCount(B, 6, 0))


def test_writes_without_an_expiry_and_repeated_expiries_per_pattern() -> None:
    tally = MonitorTally()
    feed(tally, A, b"SET", b"user:1:name", b"v")
    feed(tally, A, b"set", b"user:2:name", b"v", b"nx", b"get")
    feed(tally, A, b"SET", b"user:3:name", b"v", b"EX", b"60")
    feed(tally, A, b"SET", b"user:4:name", b"v", b"KEEPTTL")
    feed(tally, A, b"SET", b"user:5:name", b"EX")  # a value that looks like an option is still the value
    feed(tally, A, b"SETNX", b"lock:1", b"x")
    feed(tally, A, b"MSET", b"cfg:1", b"a", b"cfg:2", b"b")
    feed(tally, A, b"EXPIRE", b"sess:1", b"300")
    feed(tally, A, b"EXPIRE", b"sess:2", b"300", b"NX")
    feed(tally, A, b"PEXPIRE", b"sess:3", b"300000")
    feed(tally, A, b"SETEX", b"sess:4", b"60", b"v")
    feed(tally, A, b"GETEX", b"sess:5", b"PX", b"300000")
    feed(tally, A, b"GETEX", b"sess:6", b"PERSIST")
    feed(tally, A, b"EXPIRE", b"sess:7", b"soon")  # refused by the server: not an expiry
    feed(tally, A, b"EXPIREAT", b"cliff:1", b"1700000000")
    feed(tally, A, b"PEXPIREAT", b"cliff:2", b"1700000000000")
    feed(tally, A, b"SET", b"cliff:3", b"v", b"PXAT", b"1700000000000")
    sample = result(tally)
    assert sample.writes_without_ttl == (
        PatternCount(b"user:*:name", 3, 0, b"user:1:name", "set"),
        PatternCount(b"cfg:*", 2, 0, b"cfg:1", "mset"),
        PatternCount(b"lock:*", 1, 0, b"lock:1", "setnx"),
    )
    assert sample.ttls == (
        # written at one moment by one client: sess:1–3 are a burst of one TTL (sess:4's 60 s ends it), and the
        # three cliff keys one of one absolute time
        TtlShape(b"sess:*", 5, 0, 300_000, False, 4, 0, b"sess:1", 3, 300_000, False, "pexpire"),
        TtlShape(b"cliff:*", 3, 0, 1_700_000_000_000, True, 3, 0, b"cliff:1", 3, 1_700_000_000_000, True, "set"),
        TtlShape(b"user:*:name", 1, 0, 60_000, False, 1, 0, b"user:3:name"),
    )


def test_keys_are_counted_by_accesses_and_by_argument_bytes_split_over_them() -> None:
    tally = MonitorTally()
    feed(tally, A, b"MSET", b"a", b"1", b"bb", b"22")  # 6 bytes of arguments over two keys
    feed(tally, A, b"GET", b"a")
    feed(tally, A, b"SET", b"\x00\xff", b"x" * 100, db=3)
    feed(tally, A, b"PING")
    feed(tally, A, b"EVAL", b"return redis.call('get', KEYS[1])", b"1", b"a")  # declared key: not an access
    feed(tally, "lua", b"get", b"a")  # the script's own call is
    feed(tally, A, b"OBJECT", b"FREQ", b"bb")  # the subcommand is an argument: 6 bytes
    sample = result(tally)
    assert sample.hot_by_ops == (
        KeyCount(0, b"a", 3, 0),
        KeyCount(0, b"bb", 2, 0),
        KeyCount(3, b"\x00\xff", 1, 0),
    )
    assert sample.hot_by_bytes == (
        KeyCount(3, b"\x00\xff", 102, 0),
        KeyCount(0, b"bb", 9, 0),
        KeyCount(0, b"a", 5, 0),
    )
    assert (sample.key_ops, sample.key_bytes, sample.ops_floor, sample.hot_by_ops_exact) == (6, 116, 0, True)
    assert sample.commands["object|freq"] == 1 and sample.commands["eval"] == 1
    assert ClientCount("lua", 1, 0) in sample.clients
    assert (sample.lines, sample.first_time, sample.last_time, sample.span) == (7, 100.0, 100.0, 0.0)


def test_the_tables_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(monitor_tally, "COMMANDS_KEPT", 2)
    monkeypatch.setattr(monitor_tally, "CLIENTS_KEPT", 1)
    monkeypatch.setattr(monitor_tally, "PATTERNS_KEPT", 1)
    tally = MonitorTally(capacity=2)
    for command in (b"GET", b"TTL", b"TYPE", b"TYPE"):
        feed(tally, A, command, b"k")
    for client in (A, B):
        feed(tally, client, b"MULTI")
        feed(tally, client, b"EXEC")
    for key in (b"x:1", b"x:2", b"y:1", b"x:3"):  # y evicts x, x evicts y: x comes back with y's count as error
        feed(tally, A, b"EXPIRE", key, b"10")
    sample = result(tally)
    assert (dict(sample.commands), sample.other_commands) == ({"get": 1, "ttl": 1}, 10)
    assert (sample.transactions, sample.transactions_untracked) == ((TransactionShape(A, 1, 0, 0),), 1)
    assert sample.clients == (ClientCount(A, 12, 8),)  # B took A's counter at 6, A took it back at 8
    # x's count is y's 3 plus 1, error 3; its values were counted again from there: one 10 s, plus the 3
    # writes it may have missed
    assert sample.ttls == (TtlShape(b"x:*", 4, 3, 10_000, False, 4, 3, b"x:3", 3, 10_000, False, "expire"),)
    assert (sample.ttls[0].writes_error, sample.ttls[0].repeats_error) == (3, 3)
    assert len(sample.hot_by_ops) == len(sample.hot_by_bytes) == 2
    # accesses: k 4, x:3 4 (y:1's 3 plus 1); bytes (5 per EXPIRE, 1 per k): x:2 10 and x:3 14 (after k's 4
    # went to y:1, and y:1's 9 to x:3)
    assert (sample.ops_floor, sample.bytes_floor) == (4, 10)


def test_accesses_go_to_the_trace_in_the_documented_format() -> None:
    stream = io.StringIO()
    tally = MonitorTally(trace=TraceWriter(stream))
    feed(tally, A, b"MSET", b"\x00\n\xff", b"abc", b"k\xe9", b"d", moment=1700000000.000001, db=2)
    feed(tally, A, b"PING")
    feed(tally, A, b"OBJECT", b"FREQ", b"k", moment=1700000000.5)
    lines = stream.getvalue().splitlines()
    assert lines == [
        '{"format": "rediscipline-trace", "version": 1}',
        '{"us":1700000000000001,"db":2,"cmd":"mset","size":4,"key":"AAr/"}',
        '{"us":1700000000000001,"db":2,"cmd":"mset","size":4,"key":"a+k="}',
        '{"us":1700000000500000,"db":0,"cmd":"object|freq","size":5,"key":"aw=="}',
    ]
    assert list(read_trace(lines)) == [
        Access(1700000000000001, 2, "mset", 4, b"\x00\n\xff"),
        Access(1700000000000001, 2, "mset", 4, b"k\xe9"),
        Access(1700000000500000, 0, "object|freq", 5, b"k"),
    ]
    with pytest.raises(ValueError, match="not a rediscipline-trace file of version 1"):
        list(read_trace(['{"format": "rediscipline-trace", "version": 2}']))
    with pytest.raises(ValueError, match="not a rediscipline-trace"):
        list(read_trace([]))
