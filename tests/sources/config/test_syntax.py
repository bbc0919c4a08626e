"""The lexical rules of redis.conf, checked against what Redis 7.0 itself accepts (sds.c, util.c, config.c)."""

from __future__ import annotations

import pytest

from rediscipline.sources.config.server_settings import SettingProblem, accumulate, normalise
from rediscipline.sources.config.syntax import SyntaxProblem, directive_lines, memory_bytes, split_args, strict_int


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"maxmemory   2gb", [b"maxmemory", b"2gb"]),
        (b"\tport\t6379", [b"port", b"6379"]),
        (b'notify-keyspace-events ""', [b"notify-keyspace-events", b""]),
        (b'requirepass "s3cr\\x65t"', [b"requirepass", b"s3cret"]),
        (b'x "a\\nb\\tc\\\\d\\"e"', [b"x", b'a\nb\tc\\d"e']),
        (b'x "\\x4"', [b"x", b"x4"]),  # not two hex digits: `\x` is a plain escaped `x`
        (b'x "\\xff\\x00"', [b"x", b"\xff\x00"]),
        (b"x 'it\\'s' 'a\\nb'", [b"x", b"it's", b"a\\nb"]),  # single quotes escape only the quote
        (b'pre"fix" z', [b"prefix", b"z"]),  # a quote may open inside an argument
        (b"a\vb c", [b"a\vb", b"c"]),  # \v ends no unquoted argument
        (b"maxmemory 2gb # two gigs", [b"maxmemory", b"2gb", b"#", b"two", b"gigs"]),
        (b"\xe7\x94\xa8\xff x", [b"\xe7\x94\xa8\xff", b"x"]),
    ],
)
def test_split_args_like_sdssplitargs(line: bytes, expected: list[bytes]) -> None:
    assert split_args(line) == expected


@pytest.mark.parametrize("line", [b'x "open', b"x 'open", b'x "a"b', b"x 'a'b", b'x "a\\"'])
def test_unbalanced_quotes_are_refused(line: bytes) -> None:
    assert split_args(line) is None


def test_directive_lines_skip_comments_and_blanks_and_trim() -> None:
    data = b"# comment\n\n   \t\r\n  port 6379  \r\n  # indented comment\nhz 10\x00 ignored\nlast"
    assert list(directive_lines(data)) == [(4, [b"port", b"6379"]), (6, [b"hz", b"10"]), (7, [b"last"])]


def test_directive_lines_in_acl_mode_keep_hash_lines() -> None:
    assert list(directive_lines(b"# note\nuser a on", comments=False)) == [
        (1, [b"#", b"note"]),
        (2, [b"user", b"a", b"on"]),
    ]


def test_directive_lines_report_the_line_of_unbalanced_quotes() -> None:
    with pytest.raises(SyntaxProblem) as raised:
        list(directive_lines(b'port 1\n\nrequirepass "abc\n'))
    assert raised.value.line == 3


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (b"0", 0),
        (b"100", 100),
        (b"1k", 1000),
        (b"1kb", 1024),
        (b"1K", 1000),
        (b"1KB", 1024),
        (b"5m", 5_000_000),
        (b"5mb", 5 * 1024**2),
        (b"2g", 2_000_000_000),
        (b"2gb", 2 * 1024**3),
        (b"2Gb", 2 * 1024**3),
        (b"7b", 7),
        (b"", 0),
        (b"gb", 0),
        (b"99999999999999999999", 2**64 - 1),
    ],
)
def test_memory_values_like_memtoull(value: bytes, expected: int) -> None:
    assert memory_bytes(value) == expected


@pytest.mark.parametrize("value", [b"1.5gb", b"-1", b"+1", b" 1", b"1kib", b"1t", b"0x10", b"1 gb"])
def test_memory_values_the_server_refuses(value: bytes) -> None:
    assert memory_bytes(value) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [(b"10", 10), (b"-3", -3), (b"0", 0), (b"010", None), (b"-0", None), (b"+1", None), (b" 1", None), (b"", None)],
)
def test_strict_int_like_string2ll(value: bytes, expected: int | None) -> None:
    assert strict_int(value) == expected


@pytest.mark.parametrize(
    ("name", "args", "shown"),
    [
        ("maxmemory", [b"2gb"], "2147483648"),
        ("maxmemory-policy", [b"ALLKEYS-LRU"], "allkeys-lru"),
        ("lazyfree-lazy-eviction", [b"YES"], "yes"),
        ("hz", [b"0"], "1"),
        ("hz", [b"1000"], "500"),
        ("hz", [b"42"], "42"),
        ("enable-debug-command", [b"Local"], "local"),
        ("requirepass", [b"secret"], "(redacted)"),
        ("requirepass", [b""], ""),
        ("bind", [b"127.0.0.1", b"-::1"], "127.0.0.1 -::1"),
        ("unknown-directive", [b"\xff"], "\udcff"),
    ],
)
def test_normalise_as_config_get_shows(name: str, args: list[bytes], shown: str) -> None:
    assert normalise(name, args) == shown


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("maxmemory", [b"2gib"], "argument must be a memory value (bytes, or a number with k, kb, m, mb, g or gb)"),
        ("maxmemory", [b"2gb", b"#"], "maxmemory takes exactly one argument, got 2"),
        ("dynamic-hz", [b"true"], "argument must be 'yes' or 'no'"),
        ("hz", [b"-1"], "argument must be between 0 and 2147483647 inclusive"),
        ("hz", [b"ten"], "argument couldn't be parsed into an integer"),
        ("maxmemory-policy", [b"lru"], "argument must be one of: volatile-lru, volatile-lfu, volatile-random, "
         "volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction"),
    ],
)  # fmt: skip
def test_values_the_server_refuses(name: str, args: list[bytes], message: str) -> None:
    with pytest.raises(SettingProblem) as raised:
        normalise(name, args)
    assert str(raised.value) == message


def test_save_lines_add_up_and_an_empty_one_clears() -> None:
    first = accumulate("save", None, [b"3600", b"1"])
    assert first == "3600 1"
    assert accumulate("save", first, [b"300", b"100"]) == "3600 1 300 100"
    assert accumulate("save", first, [b""]) == ""
    with pytest.raises(SettingProblem):
        accumulate("save", None, [b"3600"])


def test_output_buffer_limits_replace_their_class_only() -> None:
    value = accumulate("client-output-buffer-limit", None, [b"replica", b"512mb", b"128MB", b"30"])
    assert value == "normal 0 0 0 slave 536870912 134217728 30 pubsub 33554432 8388608 60"
    value = accumulate("client-output-buffer-limit", value, [b"pubsub", b"1kb", b"0", b"0"])
    assert value == "normal 0 0 0 slave 536870912 134217728 30 pubsub 1024 0 0"
    with pytest.raises(SettingProblem):
        accumulate("client-output-buffer-limit", None, [b"master", b"0", b"0", b"0"])
