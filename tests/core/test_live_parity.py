"""The live scan on the compiled core (`sources.live._pipeline`, with the kernel) and on the pure-Python one gives
byte-identical JSON reports of the same live keyspace.

The keyspace holds every type in each of its encodings, collections whose elements are big enough to be looked
into (stages 3 and 4), strings longer and shorter than the head, TTLs, non-UTF-8 and binary names in two
databases, and is scanned by two users: one that may not read some keys (every probe of them answers NOPERM),
one refused OBJECT ENCODING and STRLEN. On Redis 7.0 keys are also deleted or given another type while the scan
runs: between SCAN and their first probe, and between their first and second probes (an error reply,
WRONGTYPE, in the middle of a round trip); see CHANGES for why not on Valkey.

Both scans must see the same server, reply for reply. The keyspace is written once, on a server that does not
rehash in the background (`activerehashing no`), and scanned once by each user before the test; before each
scan the victims are deleted and written again in the same order (so they sit where they sat before), enough
lookups finish any rehashing they started, and the statistics, slow log and ACL log are reset. SCAN then lists
the same names in the same batches (`--batch` at its minimum, which the scanner never moves), and the changes,
made from the progress callback after the first round trip, meet the same probes. Keys with a TTL expire at
fixed instants in the middle of their minute, and are too small to be among the top keys whose TTL the report
prints, so the seconds between the two scans change nothing in it. The run time and the server's
`used_memory` are zeroed (see USED_MEMORY); `test_the_same_core_gives_the_same_report_twice` holds the
premise. Idle times, which move with the clock, are compared by the live suite, which runs on both cores.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from rediscipline import compiled
from rediscipline.api import LiveScanOptions, scan_live, settings_for
from rediscipline.engine.runner import KERNEL
from rediscipline.model.report import Report
from rediscipline.render.json_output import render_json
from rediscipline.settings.loader import Overrides
from rediscipline.sources.live.defaults import MIN_BATCH
from rediscipline.sources.live.pipeline import TWIN
from tests.support.cores import require_compiled
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

ELAPSED = re.compile(rb'"elapsed_seconds": [0-9.e-]+')
#: The allocator's total of the server (INFO used_memory): Valkey's keyspace table keeps a few bytes more or
#: fewer after keys are deleted and written again, whatever reads it; not something the scan computes.
USED_MEMORY = re.compile(rb'"used_memory": [0-9]+')
#: When the scan started (the server's clock) and how many clients the server had then: two scans differ.
STARTED = re.compile(rb'"started_ms": [0-9]+')
CLIENTS = re.compile(rb'"connected_clients": [0-9]+')
#: The most keys due in one second of each minute: keys due at one instant but read a few milliseconds apart
#: fall in two seconds (the dumps of tests/core/test_parity.py compare this table across cores exactly).
PEAK_SECOND = re.compile(rb'"peak_second": \[[0-9, ]*\]')
PASSWORD = "pw"
#: The scanning users: `reader` may run every command on every key but those whose name starts with `s` (every
#: probe of those answers NOPERM); `narrow` may read every key but not run OBJECT ENCODING nor STRLEN (refused
#: probes, recorded once, on every key).
USERS = {"reader": ("+@all", "~[^s]*"), "narrow": ("+@all", "-object|encoding", "-strlen", "~*")}
#: Names of the keys deleted (`doomed`) and given another type (`morph`) mid-scan.
VICTIMS = 240
MINUTE_MS = 60_000


def _report(server: ServerProcess, user: str, *, pure: bool) -> bytes:
    """The JSON report of a scan of the keyspace (its victims restored and changed mid-scan where the server
    allows it, see CHANGES), on one core, with what depends on when it ran zeroed (its run time and start, the
    server's used memory and clients, the busiest seconds)."""
    if not pure:
        require_compiled(TWIN)
        require_compiled(KERNEL)
    changes = CHANGES[server.kind]
    _prepare(server, restore=changes)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(compiled.PURE_VARIABLE, "1" if pure else "0")
        progress = _after_first_round(lambda: _change_victims(server)) if changes else _quiet
        report = _scan(server, user, progress)
    out = io.StringIO()
    render_json(report, out)
    document = out.getvalue().encode()
    for pattern in (ELAPSED, USED_MEMORY, STARTED, CLIENTS, PEAK_SECOND):
        document = pattern.sub(lambda match: match[0].split(b":")[0] + b": 0", document)
    return document


def _scan(server: ServerProcess, user: str, progress: Callable[[int, int], None]) -> Report:
    settings = settings_for(Overrides(isolated=True, select=("ALL",)))
    options = LiveScanOptions(url=server.url_for(user, PASSWORD), batch=MIN_BATCH)
    return scan_live(options, settings, progress=progress)


def _after_first_round(action: Callable[[], None]) -> Callable[[int, int], None]:
    done = False

    def progress(listed: int, _total: int) -> None:
        nonlocal done
        if not done and listed:
            done = True
            action()

    return progress


def _quiet(_listed: int, _total: int) -> None:
    return None


#: The server kinds compared, and whether keys change under the scan there. On Valkey 9 the MEMORY USAGE of a
#: small key written again differs by 16 bytes from one write to the next (whatever reads it), so its keyspace
#: stays still: the keys deleted or retyped mid-scan are compared on Redis 7.0.
CHANGES = {"redis70": True, "valkey91": False}


@pytest.fixture(scope="module", params=sorted(CHANGES))
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    require_kind(request.param)
    with start_server(request.param, ["--activerehashing", "no"]) as started:
        with started.client() as client:
            for user, rules in USERS.items():
                client.execute_command("ACL", "SETUSER", user, "reset", "on", f">{PASSWORD}", "&*", *rules)
            _run(client, {0: list(_db0()), 2: list(_db2())})
        for user in USERS:  # what the first scans allocate, later ones reuse
            _prepare(started, restore=CHANGES[started.kind])
            _scan(started, user, _quiet)
        yield started


#: Expiry instants, fixed once per test run: each in the middle of a minute, hours ahead.
EXPIRE_BASE_MS = (int(time.time() * 1000) // MINUTE_MS + 3 * 60) * MINUTE_MS + MINUTE_MS // 2
#: Lookups of a missing key after writing: each moves a rehashing table one step on, these finish it.
SETTLE = 4_000


def _run(client: redis.Redis, commands: dict[int, list[tuple[Any, ...]]]) -> None:
    """Run the commands of each database in order, then finish any rehashing they started."""
    pipe = client.pipeline(transaction=False)
    for db, listed in commands.items():
        pipe.execute_command("SELECT", db)
        for command in listed:
            pipe.execute_command(*command)
        for _ in range(SETTLE):
            pipe.execute_command("EXISTS", b"app:missing")
    pipe.execute()


def _prepare(server: ServerProcess, *, restore: bool) -> None:
    """Before a scan: the victims as they were (`restore`), the statistics and the server's logs emptied."""
    with server.client() as client:
        if restore:
            _run(client, {0: [(b"DEL", *_victim_names()), *_victims()]})
        client.execute_command("CONFIG", "RESETSTAT")
        client.execute_command("SLOWLOG", "RESET")
        client.execute_command("ACL", "LOG", "RESET")


def _db0() -> Iterator[tuple[Any, ...]]:
    blob = bytes(range(256)) * 40
    # strings: an int, embstr, raw, longer than the head (1024 bytes), JSON, a serialized head, an empty one
    yield b"SET", b"app:counter:1", b"12345"
    yield b"SET", b"app:flag:1", b"on"
    yield b"SET", b"app:raw:1", b"r" * 300
    yield b"SET", b"app:page:1", blob[:5000]
    yield b"SET", b"app:json:1", b'{"user": 1, "name": "x"}'
    yield b"SET", b"app:pickle:1", b"\x80\x04\x95" + b"p" * 40
    yield b"SET", b"app:empty:1", b""
    # collections in their compact and their big encodings, and with elements big enough to be looked into
    yield b"RPUSH", b"app:list:small", b"a", b"b", b"c"
    yield (b"RPUSH", b"app:list:long", *[b"item-%d" % i for i in range(600)])
    yield b"RPUSH", b"app:list:fat", blob[:3000], blob[:2000], blob[:4000]
    yield b"HSET", b"app:hash:small", b"f1", b"v1", b"f2", b"v2"
    yield (b"HSET", b"app:hash:wide", *[x for i in range(300) for x in (b"field-%d" % i, b"v%d" % i)])
    yield b"HSET", b"app:hash:fat", b"a", blob[:3000], b"b", blob[:1500], b"\xffc", b"x"
    yield b"SADD", b"app:set:ints", 1, 2, 3, 42
    yield b"SADD", b"app:set:words", b"alpha", b"beta"
    yield (b"SADD", b"app:set:wide", *[b"member-%d" % i for i in range(400)])
    yield b"SADD", b"app:set:fat", blob[:2500], blob[1:2600]
    yield b"ZADD", b"app:zset:small", 1, b"one", 2, b"two"
    yield (b"ZADD", b"app:zset:wide", *[x for i in range(300) for x in (i, b"m-%d" % i)])
    yield b"ZADD", b"app:zset:fat", 1, blob[:2000], 2, blob[2:3100]
    # MEMORY USAGE counts both tables of a collection's dict while it rehashes: finish that
    for _ in range(SETTLE // 4):
        yield b"HEXISTS", b"app:hash:wide", b"-"
        yield b"SISMEMBER", b"app:set:wide", b"-"
        yield b"ZSCORE", b"app:zset:wide", b"-"
    yield b"XADD", b"app:stream:1", b"1-1", b"k", b"v"
    yield b"XADD", b"app:stream:1", b"1-2", b"k", b"w"
    # the top keys by memory and by length: persistent, so no TTL is printed
    for index in range(25):
        yield (b"RPUSH", b"app:top:%d" % index, *[b"t" * 80] * (700 + index))
    # small keys with a TTL, expiring at fixed instants (a few sharing one)
    for index in range(60):
        name = b"app:ttl:%d" % index
        yield b"SET", name, b"v%d" % index
        yield b"PEXPIREAT", name, EXPIRE_BASE_MS + (index % 7) * MINUTE_MS
    yield b"HSET", b"app:ttlhash:1", b"f", b"v"
    yield b"PEXPIREAT", b"app:ttlhash:1", EXPIRE_BASE_MS + 90 * MINUTE_MS
    # non-UTF-8 and binary names
    yield b"SET", b"\xff\xfe:bin:1", b"x"
    yield b"SET", b"app:nul\x00name:1", b"y"
    yield b"SET", b"app:crlf\r\nname:1", b"z"
    yield b"HSET", b"caf\xc3\xa9:\xe9t\xe9:1", b"f", b"v"
    # keys the scanning user may not read
    for index in range(12):
        yield b"SET", b"secret:token:%d" % index, b"s"
    yield from _victims()


def _victim_names() -> list[bytes]:
    return [b"app:victim:%d" % index for index in range(VICTIMS)]


def _victims() -> Iterator[tuple[Any, ...]]:
    """The keys changed mid-scan, as they are before it: strings, hashes, lists and sets in turn."""
    for index, name in enumerate(_victim_names()):
        kind = index % 4
        if kind == 0:
            yield b"SET", name, b"v" * (index % 50)
        elif kind == 1:
            yield b"HSET", name, b"f", b"v", b"g", b"w"
        elif kind == 2:
            yield b"RPUSH", name, b"a", b"b"
        else:
            yield b"SADD", name, b"x", b"y", b"z"


def _db2() -> Iterator[tuple[Any, ...]]:
    yield b"SET", b"\x00\x01\x02", b"binary name"
    yield b"SET", b"\xc3\x28:bad:utf8", b"x"
    yield b"RPUSH", b"jobs:queue:1", b"j1", b"j2"
    yield b"PEXPIREAT", b"jobs:queue:1", EXPIRE_BASE_MS + 20 * MINUTE_MS


def _change_victims(server: ServerProcess) -> None:
    """Delete a third of the victims and give another third another type (strings become hashes, the rest
    strings). A key is deleted before it is written again: Valkey's MEMORY USAGE of a value written over another
    one in place depends on what the allocator did before."""
    with server.client() as client:
        pipe = client.pipeline(transaction=False)
        for index, name in enumerate(_victim_names()):
            if index % 3 != 2:
                pipe.delete(name)
            if index % 3 == 1:
                if index % 4 == 0:
                    pipe.hset(name, b"now", b"a hash")
                else:
                    pipe.set(name, b"now a string")
        pipe.execute()


@pytest.mark.parametrize("user", sorted(USERS))
def test_both_cores_give_byte_identical_reports_of_a_live_keyspace(server: ServerProcess, user: str) -> None:
    compiled_report = _report(server, user, pure=False)
    pure_report = _report(server, user, pure=True)
    assert compiled_report == pure_report
    # the keyspace did exercise what it is made for
    if CHANGES[server.kind]:
        assert re.search(rb'"skipped": [1-9]', pure_report), "no key vanished or changed type during the scan"
    if user == "reader":
        assert b'"unreadable"' in pure_report and b"secret:token:*" in pure_report
    else:
        assert b'"OBJECT": "NOPERM' in pure_report and b'"length commands": "NOPERM' in pure_report


def test_the_same_core_gives_the_same_report_twice(server: ServerProcess) -> None:
    """The premise of the comparison above: a scan of this keyspace is reproducible."""
    assert _report(server, "reader", pure=True) == _report(server, "reader", pure=True)
