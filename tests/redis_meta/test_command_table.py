"""The generated command table: up to date with its inputs, true to the servers, and what is derived from it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scripts.gen_command_table import INPUTS, SERVER_KINDS, read_server

from rediscipline.redis_meta.command_table_generated import COMMANDS, SERVERS
from rediscipline.redis_meta.commands import (
    CONTAINERS,
    DANGEROUS_COMMANDS,
    command_info,
    key_positions,
    key_type_of,
    with_subcommand,
)
from rediscipline.redis_meta.method_table_generated import REDIS_PY_VERSION
from rediscipline.redis_meta.records import READS_INDEX_RANGE, READS_LEX_RANGE, READS_SCORE_RANGE, READS_WHOLE
from tests.support.servers import binary_path

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_is_what_its_inputs_give() -> None:
    """The checked-in modules equal what the generator writes from the saved server replies and the installed
    redis-py (no server is started)."""
    import redis

    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_command_table.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, f"redis-py {redis.__version__} vs table {REDIS_PY_VERSION}: {done.stderr}"


@pytest.mark.parametrize("kind", SERVER_KINDS)
def test_the_saved_inputs_are_what_the_servers_say(kind: str) -> None:
    """Each saved reply equals what the installed server answers now (run --refresh after an upgrade)."""
    if binary_path(kind) is None:
        pytest.skip(f"{kind} is not installed here")
    found = read_server(kind)
    saved = INPUTS / f"{found['flavor']}-{found['version']}.json"
    assert saved.exists(), (
        f"no saved reply for {found['flavor']} {found['version']}: run gen_command_table.py --refresh"
    )
    assert json.loads(saved.read_text(encoding="utf-8")) == found
    assert (found["flavor"], found["version"]) in SERVERS


def test_what_the_servers_publish_is_kept() -> None:
    hgetall = COMMANDS["hgetall"]
    assert (hgetall.arity, hgetall.is_readonly, hgetall.is_write) == (2, True, False)
    assert set(hgetall.categories) == {"read", "hash", "slow"}
    assert (hgetall.redis_since, hgetall.valkey_since, hgetall.group) == ("2.0.0", "2.0.0", "hash")
    assert COMMANDS["config|set"].is_admin and COMMANDS["config|set"].is_dangerous
    assert not COMMANDS["config|help"].is_dangerous
    assert COMMANDS["blpop"].is_blocking and not COMMANDS["lpop"].is_blocking
    assert COMMANDS["client|no-touch"].redis_since == "7.2.0"
    assert (COMMANDS["hgetex"].redis_since, COMMANDS["hgetex"].valkey_since) == ("8.0.0", "9.0.0")
    assert COMMANDS["commandlog|get"].redis_since is None  # Valkey's own
    assert COMMANDS["slaveof"].deprecated_since == "5.0.0"
    assert "config|set" in COMMANDS["config"].subcommands
    assert COMMANDS["vadd"].flags == ("write", "denyoom", "module")  # Redis 8's vector sets, named in lowercase


def test_key_types_come_from_the_data_type_categories() -> None:
    assert [key_type_of(name) for name in ("hset", "zadd", "lpush", "sadd", "set", "xadd")] == [
        "hash",
        "zset",
        "list",
        "set",
        "string",
        "stream",
    ]
    assert [key_type_of(name) for name in ("pfadd", "setbit", "bitop", "geoadd", "bzpopmin")] == [
        "string",
        "string",
        "string",
        "zset",
        "zset",
    ]
    assert [key_type_of(name) for name in ("del", "expire", "sort", "ping", "config|set", "nosuch")] == [None] * 6
    assert key_type_of("HSET") == "hash"
    assert key_type_of("XINFO STREAM") == key_type_of("xinfo|stream") == "stream"


def test_collection_reads_are_declared_and_checked() -> None:
    whole = {name for name, info in COMMANDS.items() if info.reads == READS_WHOLE}
    assert {"hgetall", "hkeys", "hvals", "smembers", "sinter", "sunionstore", "sort", "sort_ro", "zunion"} <= whole
    assert not whole & {"hget", "hscan", "lrange", "sscan", "smismember"}
    ranges = {name: info.reads for name, info in COMMANDS.items() if info.reads not in (None, READS_WHOLE)}
    assert ranges == {
        "lrange": READS_INDEX_RANGE,
        "zrange": READS_INDEX_RANGE,
        "zrevrange": READS_INDEX_RANGE,
        "zrangebyscore": READS_SCORE_RANGE,
        "zrevrangebyscore": READS_SCORE_RANGE,
        "zrangebylex": READS_LEX_RANGE,
        "zrevrangebylex": READS_LEX_RANGE,
    }


def test_containers_are_the_commands_with_subcommands() -> None:
    assert {"config", "client", "acl", "object", "memory", "xinfo", "xgroup", "script", "function"} <= CONTAINERS
    assert not CONTAINERS & {"debug", "get", "keys"}


def test_subcommands_fold_into_the_commandstats_name() -> None:
    assert with_subcommand("CONFIG", (b"SET", b"maxmemory", b"0")) == ("config|set", (b"maxmemory", b"0"))
    assert with_subcommand("config|set", (b"SET", b"maxmemory")) == ("config|set", (b"maxmemory",))
    assert with_subcommand("config|set", None) == ("config|set", None)
    assert with_subcommand("config", None) == ("config", None)
    assert with_subcommand("KEYS", (b"*",)) == ("keys", (b"*",))


@pytest.mark.parametrize(
    ("argv", "positions"),
    [
        ("GET k", (1,)),
        ("MSET a 1 b 2", (1, 3)),
        ("DEL a b c", (1, 2, 3)),
        ("EVAL script 2 k1 k2 arg", (3, 4)),
        ("XREAD COUNT 2 STREAMS s1 s2 0 0", (4, 5)),
        ("XINFO STREAM s", (2,)),
        ("ZUNIONSTORE dst 2 a b WEIGHTS 1 2", (1, 3, 4)),
        ("LMPOP 2 a b LEFT", (2, 3)),
        ("GEORADIUS g 1 2 3 m STORE dst", (1, 7)),
        ("MIGRATE host 6379 '' 0 5 KEYS a b", (3, 7, 8)),
        ("SORT list STORE dst", (1,)),  # BY, GET and STORE: only SORT itself knows
        ("CONFIG SET maxmemory 0", ()),
        ("EVAL script 5 k1", (3,)),  # fewer keys than announced: those present
        ("NOSUCH k", ()),
        ("", ()),
    ],
)
def test_key_positions_follow_the_key_specifications(argv: str, positions: tuple[int, ...]) -> None:
    assert key_positions([word.encode() for word in argv.split()]) == positions


def test_the_dangerous_commands_are_dangerous_to_the_server() -> None:
    for name in DANGEROUS_COMMANDS:
        info = command_info(name)
        assert info is not None, name
        if info.subcommands:
            dangerous = [sub for sub in info.subcommands if COMMANDS[sub].is_dangerous]
            assert len(dangerous) == len(info.subcommands) - 1, name  # all but HELP
        else:
            assert info.is_dangerous, name
