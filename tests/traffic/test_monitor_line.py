"""MONITOR lines parsed back into the commands the clients sent, byte for byte.

The live tests send commands with hostile arguments (every byte value, quotes, backslashes, line breaks,
non-UTF-8, text that looks like an escape or like the client part, a 2 MB binary value) to real servers of
every kind while a raw MONITOR connection reads, and compare the parsed arguments with what was sent.
"""

from __future__ import annotations

import random

import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st

from rediscipline.sources.traffic.monitor_line import MonitorLine, parse_line
from tests.support.kinds import running
from tests.traffic.monitor_support import ALL_KINDS, RawMonitor, sdscatrepr

HOSTILE: list[tuple[bytes, ...]] = [
    (b"SET", b"k\x01", b"v"),
    (b"SET", bytes(range(256)), bytes(range(255, -1, -1))),
    (b"SET", b'quote"in"key', b"back\\slash\\"),
    (b"SET", b"nl\nlf\r\ncr\r tab\t bell\a bs\b esc\x1b del\x7f", b"\x00"),
    (b"SET", b"\xff\xfe not utf-8 \xc3\x28", "键名:用户".encode()),
    (b"SET", b"", b""),
    (b"SET", b"\\x41 \\n looks escaped \\", b'] "fake client" [0 lua] "'),
    (b"SET", b"12345", b"-0"),
    (b"SET", b"007", b"9223372036854775807"),
    (b"MSET", b"a b", b" ", b'" "', b'"', b"\\", b'\\"'),
    (b"RPUSH", b"big", random.Random(3).randbytes(2_000_000)),
    (b"ECHO", b'\\\\"\\'),
    (b"HSET", b"h\r\n", b"f\t", b"\x80\x81"),
]


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_hostile_arguments_come_back_exactly(kind: str) -> None:
    with running(kind) as server, server.client() as client:
        address = client.client_info()["addr"]  # connected before MONITOR starts: no handshake among the lines
        monitor = RawMonitor(server)
        for args in HOSTILE:
            client.execute_command(*args)
        client.execute_command("SELECT", 5)
        client.execute_command("GET", b"in db 5")
        lines = [parse_line(line) for line in monitor.lines(client)]
    assert [line.args if line is not None else None for line in lines] == [
        *HOSTILE,
        (b"SELECT", b"5"),
        (b"GET", b"in db 5"),
    ]
    assert [(line.db, line.client) for line in lines if line is not None] == [(0, address)] * len(HOSTILE) + [
        (5, address),  # the line is made once the command ran: SELECT's own line is in the new database
        (5, address),
    ]


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_script_unix_socket_and_ipv6_clients(kind: str) -> None:
    with (
        running(kind, ["--bind", "127.0.0.1", "::1"], unixsocket=True) as server,
        server.client() as client,
        redis.Redis(unix_socket_path=str(server.unixsocket)) as local,
        redis.Redis(host="::1", port=server.port) as six,
    ):
        client.ping()
        local.ping()
        six_address = six.client_info()["addr"]
        monitor = RawMonitor(server)
        client.eval("redis.call('set', KEYS[1], ARGV[1]); return 1", 1, b'lua "key"\n', b"\xffv")
        local.execute_command("GET", b"via unix")
        six.execute_command("GET", b"via ipv6")
        lines = [parse_line(line) for line in monitor.lines(client)]
    by_args = {line.args: line for line in lines if line is not None}
    assert len(by_args) == len(lines) == 4
    assert (by_args[(b"set", b'lua "key"\n', b"\xffv")].db, by_args[(b"set", b'lua "key"\n', b"\xffv")].client) == (
        0,
        "lua",
    )
    assert by_args[(b"GET", b"via unix")].client == f"unix:{server.unixsocket}"
    assert six_address.startswith("[::1]:") and by_args[(b"GET", b"via ipv6")].client == six_address


def test_lines_of_each_client_form_are_parsed() -> None:
    assert parse_line(b'+1700000000.123456 [0 127.0.0.1:51234] "SET" "k\\x01" "v"') == MonitorLine(
        1700000000.123456, 0, "127.0.0.1:51234", (b"SET", b"k\x01", b"v")
    )
    assert parse_line(b'1700000000.000001 [15 lua] "get" "k"') == MonitorLine(
        1700000000.000001, 15, "lua", (b"get", b"k")
    )
    assert parse_line(b'1.5 [0 unix:/tmp/r.sock] "PING"') == MonitorLine(1.5, 0, "unix:/tmp/r.sock", (b"PING",))
    assert parse_line(b'1.5 [2 [::1]:5000] "GET" "a] \\"b"') == MonitorLine(1.5, 2, "[::1]:5000", (b"GET", b'a] "b'))
    assert parse_line(b'1.5 [0 unix:/tmp/a] "b.sock] "PING"') == MonitorLine(
        1.5, 0, 'unix:/tmp/a] "b.sock', (b"PING",)
    )  # a socket path holding `] "`: the client ends where the rest parses as arguments
    assert parse_line(b'1.5 [0 lua] "SET" "\\\\" "\\"" "" "\\x00\\xFF\\t\\a\\b\\r\\n"') == MonitorLine(
        1.5, 0, "lua", (b"SET", b"\\", b'"', b"", b"\x00\xff\t\a\b\r\n")
    )


MALFORMED = [
    b"",
    b"+",
    b"+OK",
    b"-ERR unknown command",
    b'1700000000 [0 lua] "GET"',  # no microseconds
    b'17x.5 [0 lua] "GET"',
    b'1.5 [x lua] "GET"',
    b'1.5 [-1 lua] "GET"',
    b'1.5 [0 lua] GET "k"',  # an unquoted argument
    b"1.5 [0 lua] ",  # no argument
    b"1.5 [0 lua]",
    b'1.5 [0 ] "GET"',  # no client
    b'1.5 [0 lua] "GET" "k',  # cut short
    b'1.5 [0 lua] "GET" "k\\"',  # the last quote escaped: cut short
    b'1.5 [0 lua] "GET"  "k"',  # two spaces
    b'1.5 [0 lua] "GET" "k" ',  # a trailing space
    b'1.5 [0 lua] "GET""k"',
    b'1.5 [0 lua] "GET" "a"b"',
    b'1.5 [0 lua] "GET" "\\q"',  # an escape the server never writes
    b'1.5 [0 lua] "GET" "\\x4"',
    b'1.5 [0 lua] "GET" "\\xzz"',
    b'1.5 [0 lua] "GET" "\\"',
    b'1.5 [\xd9\xa1 lua] "GET"',  # a non-ASCII digit
    b'\xff\xfe [0 lua] "GET"',
]


@pytest.mark.parametrize("line", MALFORMED)
def test_a_malformed_line_is_none(line: bytes) -> None:
    assert parse_line(line) is None


CLIENTS = st.sampled_from(["127.0.0.1:6379", "[::1]:5000", "[fe80::1%eth0]:1", "lua", "unix:/tmp/redis.sock"])


@given(
    st.floats(min_value=0, max_value=4e9, allow_nan=False),
    st.integers(min_value=0, max_value=10_000),
    CLIENTS,
    st.lists(st.binary(max_size=40), min_size=1, max_size=6),
)
def test_quoting_then_parsing_gives_the_arguments_back(moment: float, db: int, client: str, args: list[bytes]) -> None:
    seconds, micros = int(moment), int(moment % 1 * 1_000_000)
    line = b"+%d.%06d [%d %s] " % (seconds, micros, db, client.encode()) + b" ".join(map(sdscatrepr, args))
    assert parse_line(line) == MonitorLine(float(f"{seconds}.{micros:06d}"), db, client, tuple(args))


@given(st.binary(max_size=60))
def test_any_bytes_give_a_line_or_none(data: bytes) -> None:
    """Whatever follows a line's head, the parser returns (no exception), and what it returns is stable: the
    arguments quoted again parse to the same line."""
    parsed = parse_line(b'1.5 [0 lua] "' + data)
    if parsed is not None:
        assert parse_line(b"1.5 [0 lua] " + b" ".join(map(sdscatrepr, parsed.args))) == parsed


def test_a_long_escaped_argument_is_parsed_in_linear_time() -> None:
    """Four megabytes of escapes (a quote search from each backslash would be quadratic: hours)."""
    value = b"\x00\\" * 1_000_000
    line = b'1.5 [0 lua] "SET" "k" "' + b"\\x00\\\\" * 1_000_000 + b'"'
    parsed = parse_line(line)
    assert parsed is not None and parsed.args == (b"SET", b"k", value)
