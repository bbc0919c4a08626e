"""The ProbePlan decides every command a scan sends: the census of commands per rule selection.

A Redis 7.0 holds one key of each type (a string above the head size, a hash with a big value, a key with a
TTL); each selection is scanned while MONITOR records the per-key commands and an INFO commandstats diff
counts every call by name, administrative ones included (MONITOR does not show CONFIG, ACL or SLOWLOG). The
set of commands the scan sent must be exactly what the enabled rules (and `--summary`) ask for.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.conftest import run_scan
from tests.support.kinds import require_kind
from tests.support.monitor import MonitorRecorder, calls_between, commandstats
from tests.support.servers import ServerProcess, start_server

#: Commands of the connection handshake (HELLO) and of every scan: INFO at the start (databases, version, role)
#: and at the end (did the keyspace change), and SCAN. Redis 7.0 refuses CLIENT NO-TOUCH (7.2+) before running
#: it, so neither MONITOR nor commandstats counts it.
ALWAYS = {"hello", "info", "scan"}
LENGTHS = {"strlen", "hlen", "llen", "scard", "zcard", "xlen"}

CENSUS = {
    # name rules only; KEY016 compares a type level with the key's real type
    ("--select", "KEY"): ALWAYS | {"type"},
    ("--select", "KEY", "--ignore", "KEY016"): ALWAYS,
    # TTLs (PTTL, and TIME to turn them into expiry times), idle times (TTL004), TTL005's type, length and
    # memory, and its CONFIG GET (lazyfree-lazy-expire)
    ("--select", "TTL"): ALWAYS | {"time", "pttl", "type", "memory|usage", "object|idletime", "config|get"} | LENGTHS,
    # a string's size: its type and length
    ("--select", "VAL001"): ALWAYS | {"type"} | LENGTHS,
    # the full keyspace summary on top of name rules
    ("--select", "KEY", "--summary"): ALWAYS | {"type", "time", "pttl", "memory|usage"} | LENGTHS,
}
#: Every rule: the server's configuration, users and the scanning user's access, the slow log, and every
#: per-key probe (heads of strings, a look inside the hash whose value is big and inside the set, which 7.0
#: keeps as a hash table).
EVERYTHING = ALWAYS | LENGTHS | {
    "acl|whoami", "acl|list", "acl|dryrun", "config|get", "slowlog|get", "time", "type", "pttl", "memory|usage",
    "object|encoding", "object|idletime", "getrange", "hrandfield", "hstrlen", "srandmember",
}  # fmt: skip


@pytest.fixture(scope="module")
def small() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            client.set(b"user:profile:id:1", b"hello")
            client.set(b"cache:page:html:1", b"x" * 2000)
            client.set(b"session:token:uid:1", b"t", ex=3600)
            client.hset(b"cart:items:uid:1", mapping={b"sku1": b"1", b"note": b"n" * 2000})
            client.rpush(b"chat:messages:room_id:1", b"a", b"b")
            client.sadd(b"chat:members:room_id:1", b"a", b"b")
            client.zadd(b"score:game:game_id:1", {b"a": 1, b"b": 2})
            client.xadd(b"events:stream:shard:1", {b"k": b"v"})
        yield server


def _census(server: ServerProcess, args: tuple[str, ...], cwd: Path) -> set[str]:
    """The commands (`name` or `name|subcommand`) one scan sent, from MONITOR and the commandstats diff."""
    with server.client() as client:
        before = commandstats(client)
        with MonitorRecorder(server) as recorder:
            result = run_scan(server.url, *args, cwd=cwd, timeout=120)
            calls = calls_between(before, commandstats(client))
        assert result.returncode in (0, 1), result.describe()
    seen = {name for name, count in calls.items() if count > 0} - {"monitor"}  # the recorder's own
    for record in recorder.records:
        if record.name in ("client", "config", "acl", "object", "memory", "slowlog"):
            seen.add(f"{record.name}|{record.args[1].decode().lower()}" if len(record.args) > 1 else record.name)
        elif record.name != "echo":  # the recorder's stop marker
            seen.add(record.name)
    return seen


@pytest.mark.parametrize("args", sorted(CENSUS), ids=" ".join)
def test_a_selection_sends_only_what_its_rules_need(
    small: ServerProcess, tmp_path: Path, args: tuple[str, ...]
) -> None:
    assert _census(small, args, tmp_path) == CENSUS[args]


def test_every_rule_sends_every_probe(small: ServerProcess, tmp_path: Path) -> None:
    assert _census(small, (), tmp_path) == EVERYTHING


def test_a_key_selection_sends_no_value_probe(small: ServerProcess, tmp_path: Path) -> None:
    """`scan --select KEY` sends no MEMORY USAGE, PTTL, TIME, length command, CONFIG, ACL or SLOWLOG read."""
    sent = _census(small, ("--select", "KEY"), tmp_path)
    assert not sent & ({"memory|usage", "pttl", "time", "config|get", "acl|list", "slowlog|get"} | LENGTHS)
