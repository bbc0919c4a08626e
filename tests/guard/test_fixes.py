"""The guard's opt-in fixes against real servers: what a fixed command leaves on the server and returns is
exactly what the unfixed command gives, run unguarded on a second server; what reaches the server is the
fixed form (chunks of at most the chunk size, UNLINK for DEL, TTLs with jitter, a pipeline in parts); the
report counts every fix; and `raise` mode does not refuse a command a fix repairs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio as aredis

from rediscipline.guard import ConventionViolation, Fixes, guard, guard_report, new_collector
from rediscipline.model.report import Report
from tests.guard.conftest import calls
from tests.live.conftest import serve
from tests.support.monitor import MonitorRecorder, Recorded
from tests.support.servers import ServerProcess

#: Key names that are not UTF-8, among plain ones: the chunks must carry them byte for byte.
ODD_KEYS = [b"user:profile:\xff\xfe", b"user:profile:\x80", b"user:profile:\x00\x01"]


@pytest.fixture(scope="module")
def reference_server() -> Iterator[ServerProcess]:
    """A second Redis 7.0, where the same operations run unguarded."""
    yield from serve("redis70")


@pytest.fixture
def reference(reference_server: ServerProcess) -> Iterator[redis.Redis]:
    client = redis.Redis(host=reference_server.host, port=reference_server.port)
    client.flushall()
    try:
        yield client
    finally:
        client.close()


def fixing(client: Any, fix: Any, mode: str = "record", fail_on: str | None = None) -> Any:
    """`client` guarded with the built-in settings and these fixes."""
    return guard(client, collector=new_collector(mode, isolated=True, fix=fix, fail_on=fail_on))


def both(plain: redis.Redis, reference: redis.Redis, work: Callable[[redis.Redis], object]) -> None:
    """The same preparation on the guarded client's server and on the reference server."""
    work(plain)
    work(reference)


def keyspace(client: redis.Redis) -> dict[bytes, tuple[bytes | None, bool]]:
    """Every key with its serialized value (DUMP: type, encoding and contents) and whether it has a TTL."""
    return {key: (client.dump(key), client.pttl(key) > 0) for key in client.scan_iter(count=1000)}  # type: ignore[misc]


def fixed_counts(report: Report) -> dict[str, int]:
    """How many times each fix was applied, from the report's `guard-fixed` notes."""
    return {n.params["fix"]: n.params["times"] for n in report.notes if n.code == "guard-fixed"}


def fixed_sites(report: Report) -> dict[str, tuple[str, int]]:
    """Where each fix was first applied (file name, line), from the report's `guard-fixed` notes."""
    sites: dict[str, tuple[str, int]] = {}
    for note in report.notes:
        if note.code == "guard-fixed":
            path, _, line = str(note.params["site"]).rpartition(":")
            sites[note.params["fix"]] = (Path(path).name, int(line))
    return sites


def recorded(server: ServerProcess, work: Callable[[], object]) -> list[Recorded]:
    """Every command the server ran while `work` ran (MONITOR)."""
    with MonitorRecorder(server) as monitor:
        work()
        return monitor.stop()


def sent(records: Sequence[Recorded], name: str) -> list[tuple[bytes, ...]]:
    """The operands of every `name` command recorded."""
    return [record.args[1:] for record in records if record.name == name]


def this_line(text: str) -> int:
    """The line of this file holding `text` (a call site the report names)."""
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line and "this_line" not in line)


def profile_keys(count: int) -> list[bytes]:
    return [f"user:profile:{i}".encode() for i in range(count - len(ODD_KEYS))] + ODD_KEYS


def store_every_other(keys: Sequence[bytes]) -> Callable[[redis.Redis], object]:
    """Half the keys exist (with values that are not UTF-8 either), the other half are missing."""
    return lambda r: r.mset({key: b"\x80value:" + key for key in keys[::2]})


# -- chunk -----------------------------------------------------------------------------------------------------


def test_chunked_mget_returns_the_reply_of_one_mget(
    server: ServerProcess, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    keys = profile_keys(350)
    both(plain, reference, store_every_other(keys))
    fixing(client, {"chunk": 100})
    replies: list[Any] = []
    records = recorded(server, lambda: replies.append(client.mget(keys)))
    expected = reference.mget(keys)
    assert replies == [expected]
    assert expected.count(None) == 175 and expected[-2] == b"\x80value:" + ODD_KEYS[1]
    chunks = sent(records, "mget")
    assert [len(chunk) for chunk in chunks] == [100, 100, 100, 50]
    assert [key for chunk in chunks for key in chunk] == keys
    report = guard_report(client)
    assert fixed_counts(report) == {"chunk": 1}
    assert fixed_sites(report) == {"chunk": ("test_fixes.py", this_line("replies.append(client.mget(keys))"))}


def test_chunked_mset_writes_what_one_mset_writes(
    server: ServerProcess, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    mapping = {key: b"\xfe\x00" + key for key in profile_keys(350)}
    fixing(client, {"chunk": 100})
    replies: list[Any] = []
    records = recorded(server, lambda: replies.append(client.mset(mapping)))
    assert replies == [reference.mset(mapping)] == [True]
    assert keyspace(plain) == keyspace(reference)
    assert len(keyspace(plain)) == 350
    assert [len(chunk) for chunk in sent(records, "mset")] == [200, 200, 200, 100]  # 100 keys and their values
    assert fixed_counts(guard_report(client)) == {"chunk": 1}


@pytest.mark.parametrize("name", ["delete", "unlink", "exists", "touch"])
def test_chunked_counts_are_the_count_of_one_command(
    name: str, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    keys = profile_keys(300)
    asked = [*keys, *keys[:30], *keys[-20:], keys[5], keys[5]]  # repeats: EXISTS and TOUCH count each
    both(plain, reference, store_every_other(keys))
    fixing(client, {"chunk": 100})
    reply = getattr(client, name)(*asked)
    assert reply == getattr(reference, name)(*asked)
    assert reply > 0
    assert keyspace(plain) == keyspace(reference)
    command = "del" if name == "delete" else name
    assert calls(plain)[command] == 4  # 352 keys in chunks of 100
    assert fixed_counts(guard_report(client)) == {"chunk": 1}


def test_chunked_hmget_and_hdel(
    server: ServerProcess, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    fields = [f"field:{i}".encode() for i in range(300)] + [b"\xff\xfe", b"\x80"]
    both(plain, reference, lambda r: r.hset(b"cart:items:\xff", mapping={f: b"v" + f for f in fields[::3]}))
    fixing(client, {"chunk": 100})
    asked = [*fields, b"missing", fields[0]]
    dropped = [*fields[:250], fields[3], b"missing"]
    replies: list[Any] = []

    def work() -> None:
        replies.append(client.hmget(b"cart:items:\xff", asked))
        replies.append(client.hdel(b"cart:items:\xff", *dropped))

    records = recorded(server, work)
    assert replies == [reference.hmget(b"cart:items:\xff", asked), reference.hdel(b"cart:items:\xff", *dropped)]
    assert replies[1] == 84
    assert keyspace(plain) == keyspace(reference)
    for name, total in (("hmget", len(asked)), ("hdel", len(dropped))):
        chunks = sent(records, name)
        assert all(chunk[0] == b"cart:items:\xff" and len(chunk) <= 101 for chunk in chunks)
        assert sum(len(chunk) - 1 for chunk in chunks) == total
    assert fixed_counts(guard_report(client)) == {"chunk": 2}


def test_what_fits_is_sent_whole_and_msetnx_is_never_split(
    server: ServerProcess, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    keys = profile_keys(100)
    fixing(client, {"chunk": 100})
    pairs = {f"user:setting:{i}": i for i in range(150)}
    replies: list[Any] = []

    def work() -> None:
        replies.append(client.mget(keys))
        replies.append(client.msetnx(pairs))

    records = recorded(server, work)
    assert replies == [reference.mget(keys), reference.msetnx(pairs)]
    assert [len(chunk) for chunk in sent(records, "mget")] == [100]
    assert [len(chunk) for chunk in sent(records, "msetnx")] == [300]
    assert keyspace(plain) == keyspace(reference)
    assert fixed_counts(guard_report(client)) == {}


# -- unlink ----------------------------------------------------------------------------------------------------


def fill_collections(r: redis.Redis) -> None:
    r.hset("cart:items:1", mapping={f"f{i}": i for i in range(500)})
    r.zadd("rank:daily:1", {f"m{i}": i for i in range(500)})
    r.set(b"blob:raw:\xff", b"\x00" * 100)


def test_unlink_sends_del_as_unlink(client: redis.Redis, plain: redis.Redis, reference: redis.Redis) -> None:
    both(plain, reference, fill_collections)
    fixing(client, "unlink")
    keys = ["cart:items:1", "rank:daily:1", b"blob:raw:\xff", "missing:key:1", "cart:items:1"]
    assert client.delete(*keys) == reference.delete(*keys) == 3
    assert client.delete("missing:key:2") == reference.delete("missing:key:2") == 0
    assert keyspace(plain) == keyspace(reference) == {}
    stats = calls(plain)
    assert stats["unlink"] == 2 and "del" not in stats
    assert fixed_counts(guard_report(client)) == {"unlink": 2}


def test_unlink_and_chunk_together_send_unlink_in_chunks(
    server: ServerProcess, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    keys = profile_keys(250)
    both(plain, reference, store_every_other(keys))
    fixing(client, ["unlink", "chunk"])
    replies: list[Any] = []
    records = recorded(server, lambda: replies.append(client.delete(*keys)))
    assert replies == [reference.delete(*keys)] == [125]
    assert keyspace(plain) == keyspace(reference) == {}
    assert sent(records, "del") == []
    assert [len(chunk) for chunk in sent(records, "unlink")] == [100, 100, 50]
    assert fixed_counts(guard_report(client))["chunk"] == 1


def test_a_chunked_del_sent_as_unlink_counts_both_fixes(client: redis.Redis) -> None:
    fixing(client, ["unlink", "chunk"])
    assert client.delete(*profile_keys(250)) == 0
    assert fixed_counts(guard_report(client)) == {"chunk": 1, "unlink": 1}


# -- ttl-jitter ------------------------------------------------------------------------------------------------

#: Each command that gives a TTL: how to call it for one key (with the base TTL), the base in the unit it is
#: sent in, and whether the key must exist first.
JITTERED: dict[str, tuple[Callable[[Any, bytes], object], int, bool]] = {
    "set": (lambda r, key: r.set(key, b"\x80v", ex=1000), 1000, False),
    "set-px": (lambda r, key: r.set(key, b"v", px=900_000), 900_000, False),
    "setex": (lambda r, key: r.execute_command("SETEX", key, 1000, b"\xffv"), 1000, False),
    "psetex": (lambda r, key: r.execute_command("PSETEX", key, 900_000, b"v"), 900_000, False),
    "expire": (lambda r, key: r.expire(key, 1000), 1000, True),
    "pexpire": (lambda r, key: r.pexpire(key, 900_000), 900_000, True),
    "getex": (lambda r, key: r.getex(key, ex=1000), 1000, True),
    "set-value-ex": (lambda r, key: r.set(key, "EX", ex=1000), 1000, False),
}


def sent_ttl(record: Recorded) -> tuple[bytes, int, int]:
    """(key, TTL as sent, its unit in ms) of a recorded command that gives a TTL."""
    args = [arg.upper() for arg in record.args]
    if record.name in ("setex", "psetex", "expire", "pexpire"):
        unit = 1 if record.name.startswith("p") else 1000
        return record.args[1], int(record.args[2]), unit
    start = 3 if record.name == "set" else 2  # SET key value [EX n] / GETEX key [EX n]
    for at in range(start, len(args) - 1):
        if args[at] in (b"EX", b"PX"):
            return record.args[1], int(record.args[at + 1]), 1000 if args[at] == b"EX" else 1
    raise AssertionError(f"no TTL in {record.show()}")


def ttl_records(records: Sequence[Recorded]) -> list[Recorded]:
    return [record for record in records if record.name in ("set", "setex", "psetex", "expire", "pexpire", "getex")]


def server_ms(r: redis.Redis) -> int:
    seconds, micros = r.time()
    return int(seconds) * 1000 + int(micros) // 1000


@pytest.mark.parametrize("case", sorted(JITTERED))
def test_ttl_jitter_spreads_every_ttl_above_its_base(
    case: str, server: ServerProcess, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    write, base, exists = JITTERED[case]
    keys = [f"user:session:{i}".encode() for i in range(199)] + [b"user:session:\xff"]
    if exists:
        both(plain, reference, lambda r: r.mset({key: b"\x00" + key for key in keys}))
    fixing(client, {"ttl-jitter": 0.2})
    replies: list[object] = []
    began = server_ms(plain)
    records = recorded(server, lambda: replies.extend(write(client, key) for key in keys))
    ended = server_ms(plain)
    assert replies == [write(reference, key) for key in keys]
    assert {key: dump for key, (dump, _ttl) in keyspace(plain).items()} == {
        key: dump for key, (dump, _ttl) in keyspace(reference).items()
    }
    ttls = {key: (ttl, unit) for key, ttl, unit in map(sent_ttl, ttl_records(records))}
    assert sorted(ttls) == sorted(keys)
    given = [ttl for ttl, _unit in ttls.values()]
    assert all(base <= ttl <= base * 1.2 for ttl in given)
    assert len(set(given)) > 1
    for key, (ttl, unit) in ttls.items():  # the server holds the TTL sent: set between `began` and `ended`
        assert began <= plain.pexpiretime(key) - ttl * unit <= ended
    assert fixed_counts(guard_report(client)) == {"ttl-jitter": 200}


def test_ttl_jitter_leaves_absolute_and_zero_ttls_alone(
    server: ServerProcess, client: redis.Redis, plain: redis.Redis
) -> None:
    fixing(client, "ttl-jitter")
    at = server_ms(plain) // 1000 + 5000
    records = recorded(
        server,
        lambda: (
            client.set("user:session:a", 1, exat=at),
            client.set("user:session:b", 1, ex=1000),
            client.expireat("user:session:b", at),
            client.set("user:session:c", 1),
            client.expire("user:session:c", 0),
        ),
    )
    assert [record.args[1:] for record in records if record.name in ("expireat", "expire")] == [
        (b"user:session:b", str(at).encode()),
        (b"user:session:c", b"0"),
    ]
    assert plain.expiretime("user:session:a") == plain.expiretime("user:session:b") == at
    assert plain.exists("user:session:c") == 0
    assert fixed_counts(guard_report(client)) == {"ttl-jitter": 1}  # the SET with ex=1000


# -- flush -----------------------------------------------------------------------------------------------------


def fill_pipeline(pipe: Any, count: int, observe: Callable[[int], None] | None = None) -> None:
    """`count` commands of several kinds (their replies: True, integers, bytes, lists, None)."""
    for i in range(count):
        kind = i % 5
        if kind == 0:
            pipe.set(f"user:item:{i}", b"\xff" + str(i).encode(), ex=600)
        elif kind == 1:
            pipe.incrby("user:counter:1", i)
        elif kind == 2:
            pipe.get(f"user:item:{i - 2}")
        elif kind == 3:
            pipe.rpush("queue:jobs:1", i)
        else:
            pipe.lrange("queue:jobs:1", 0, 2)
        if observe is not None:
            observe(i + 1)


def test_flush_sends_a_pipeline_in_parts_with_the_replies_of_one(
    client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    fixing(client, {"flush": 200})
    seen: dict[int, int] = {}

    def observe(queued: int) -> None:
        if queued in (199, 200, 399, 400, 450):
            seen[queued] = calls(plain).get("rpush", 0)  # what the server ran so far

    pipe = client.pipeline(transaction=False)
    fill_pipeline(pipe, 450, observe)
    replies = pipe.execute()
    unfixed = reference.pipeline(transaction=False)
    fill_pipeline(unfixed, 450)
    assert replies == unfixed.execute()
    assert len(replies) == 450
    assert seen == {199: 0, 200: 40, 399: 40, 400: 80, 450: 80}  # three parts: 200, 200, then 50 at execute()
    assert calls(plain)["rpush"] == 90
    assert {key: dump for key, (dump, _ttl) in keyspace(plain).items()} == {
        key: dump for key, (dump, _ttl) in keyspace(reference).items()
    }
    report = guard_report(client)
    assert fixed_counts(report) == {"flush": 2}
    assert fixed_sites(report) == {"flush": ("test_fixes.py", this_line('pipe.lrange("queue:jobs:1", 0, 2)'))}
    assert pipe.execute() == []  # the pipeline starts empty again
    again = client.pipeline(transaction=False)
    fill_pipeline(again, 10)
    assert len(again.execute()) == 10


def test_flush_keeps_the_errors_where_one_pipeline_has_them(
    client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    def prepare(r: redis.Redis) -> None:
        r.set("user:text:1", "not a number")

    def fill(pipe: Any) -> None:
        for i in range(260):
            if i in (10, 230):
                pipe.incr("user:text:1")  # fails: not an integer
            else:
                pipe.set(f"user:item:{i}", i)

    both(plain, reference, prepare)
    fixing(client, {"flush": 200})
    shown = [_shown(reply) for reply in _filled(client, fill).execute(raise_on_error=False)]
    assert shown == [_shown(reply) for reply in _filled(reference, fill).execute(raise_on_error=False)]
    assert shown[10] == shown[230] == ("ResponseError", "value is not an integer or out of range")
    plain.flushall()
    reference.flushall()
    both(plain, reference, prepare)
    fixed = _filled(client, fill)
    with pytest.raises(redis.ResponseError) as raised:
        fixed.execute()
    with pytest.raises(redis.ResponseError) as unfixed:
        _filled(reference, fill).execute()
    assert "not an integer" in str(raised.value) and "not an integer" in str(unfixed.value)
    assert keyspace(plain) == keyspace(reference)
    assert plain.dbsize() == 259  # every command was sent, as the unfixed pipeline sends every command


def _filled(r: redis.Redis, fill: Callable[[Any], None]) -> Any:
    pipe = r.pipeline(transaction=False)
    fill(pipe)
    return pipe


def _shown(reply: object) -> object:
    return (type(reply).__name__, str(reply)) if isinstance(reply, Exception) else reply


@pytest.mark.parametrize("how", ["transaction", "multi"])
def test_a_transaction_is_never_flushed_early(
    how: str, client: redis.Redis, plain: redis.Redis, reference: redis.Redis
) -> None:
    fixing(client, {"flush": 200})
    pipe = client.pipeline(transaction=how == "transaction")
    if how == "multi":
        pipe.multi()
    fill_pipeline(pipe, 450)
    assert plain.dbsize() == 0  # nothing sent before execute()
    unfixed = reference.pipeline()
    fill_pipeline(unfixed, 450)
    assert pipe.execute() == unfixed.execute()
    stats = calls(plain)
    assert (stats["multi"], stats["exec"], stats["rpush"]) == (1, 1, 90)
    assert fixed_counts(guard_report(client)) == {}


# -- raise mode with fixes -------------------------------------------------------------------------------------


def test_raise_mode_sends_what_a_fix_repairs(client: redis.Redis, plain: redis.Redis, reference: redis.Redis) -> None:
    keys = [f"user:profile:{i}".encode() for i in range(150)]
    both(plain, reference, store_every_other(keys))
    fixing(client, {"chunk": 100, "flush": 200}, mode="raise", fail_on="warning")
    assert client.mget(keys) == reference.mget(keys)
    pipe = client.pipeline(transaction=False)
    for i in range(450):
        pipe.set(f"user:item:{i}", i, ex=600 + i)
    assert pipe.execute() == [True] * 450
    assert plain.dbsize() == 75 + 450
    assert fixed_counts(guard_report(client)) == {"chunk": 1, "flush": 2}


@pytest.mark.parametrize("mode", ["record", "raise"])
def test_a_flushed_pipeline_is_judged_as_the_one_pipeline_written(
    mode: str, client: redis.Redis, plain: redis.Redis
) -> None:
    fixing(client, {"flush": 200}, mode=mode, fail_on="warning")
    pipe = client.pipeline(transaction=False)
    for i in range(450):
        pipe.rpush("queue:jobs:1", i)
    pipe.expire("queue:jobs:1", 600)
    assert pipe.execute() == [*range(1, 451), True]
    assert plain.llen("queue:jobs:1") == 450
    assert guard_report(client).findings == ()


def test_raise_mode_refuses_the_same_commands_without_the_fixes(server: ServerProcess, plain: redis.Redis) -> None:
    unfixed = fixing(redis.Redis(host=server.host, port=server.port), None, mode="raise", fail_on="warning")
    with pytest.raises(ConventionViolation, match="BAT001"):
        unfixed.mget([f"user:profile:{i}" for i in range(150)])
    assert "mget" not in calls(plain)
    unfixed.close()


def test_raise_mode_sends_a_del_unlink_repairs(server: ServerProcess, plain: redis.Redis, tmp_path: Path) -> None:
    config = tmp_path / "rediscipline.toml"
    config.write_text('preset = "default"\n[namespaces."cart:items:*"]\ntype = "hash"\n', encoding="utf-8")
    plain.hset("cart:items:1", "book", 1)
    refusing = guard(redis.Redis(host=server.host, port=server.port), mode="raise", fail_on="warning", config=config)
    with pytest.raises(ConventionViolation, match="CMD008"):
        refusing.delete("cart:items:1")
    assert plain.exists("cart:items:1") == 1
    fixed = guard(
        redis.Redis(host=server.host, port=server.port), mode="raise", fail_on="warning", config=config, fix="unlink"
    )
    assert fixed.delete("cart:items:1") == 1
    assert plain.exists("cart:items:1") == 0
    assert "del" not in calls(plain)
    refusing.close()
    fixed.close()


def test_fixes_are_parsed_with_the_conventions_defaults() -> None:
    assert Fixes.parse(["chunk", "flush", "ttl-jitter", "unlink"]) == Fixes(
        ttl_jitter=0.1, chunk=100, flush=200, unlink=True
    )
    assert Fixes.parse({"chunk": 50, "unlink": False}) == Fixes(chunk=50)


# -- asyncio ---------------------------------------------------------------------------------------------------


def run_async(server: ServerProcess, fix: Any, work: Callable[[aredis.Redis], Any]) -> tuple[Any, Report]:
    """`work` on a guarded asyncio client; its result and the client's report."""

    async def main() -> tuple[Any, Report]:
        client = fixing(aredis.Redis(host=server.host, port=server.port), fix)
        try:
            return await work(client), guard_report(client)
        finally:
            await client.aclose()

    return asyncio.run(main())


def test_async_chunk(server: ServerProcess, plain: redis.Redis, reference: redis.Redis) -> None:
    keys = profile_keys(350)
    both(plain, reference, store_every_other(keys))
    plain.config_resetstat()

    async def work(client: aredis.Redis) -> list[Any]:
        return [
            await client.mget(keys),
            await client.exists(*keys, *keys[:20]),
            await client.delete(*keys[:250]),
            await client.mset(dict.fromkeys(keys[200:], b"\x01")),
        ]

    replies, report = run_async(server, {"chunk": 100}, work)
    assert replies == [
        reference.mget(keys),
        reference.exists(*keys, *keys[:20]),
        reference.delete(*keys[:250]),
        reference.mset(dict.fromkeys(keys[200:], b"\x01")),
    ]
    assert keyspace(plain) == keyspace(reference)
    stats = calls(plain)
    assert (stats["mget"], stats["exists"], stats["del"], stats["mset"]) == (4, 4, 3, 2)
    assert fixed_counts(report) == {"chunk": 4}


def test_async_unlink(server: ServerProcess, plain: redis.Redis, reference: redis.Redis) -> None:
    both(plain, reference, fill_collections)

    async def work(client: aredis.Redis) -> object:
        return await client.delete("cart:items:1", "rank:daily:1", "missing:key:1")

    reply, report = run_async(server, "unlink", work)
    assert reply == reference.delete("cart:items:1", "rank:daily:1", "missing:key:1") == 2
    assert keyspace(plain) == keyspace(reference)
    stats = calls(plain)
    assert stats["unlink"] == 1 and "del" not in stats
    assert fixed_counts(report) == {"unlink": 1}


def test_async_ttl_jitter(server: ServerProcess, plain: redis.Redis, reference: redis.Redis) -> None:
    keys = [f"user:session:{i}".encode() for i in range(200)]

    async def work(client: aredis.Redis) -> list[object]:
        replies = [await client.set(key, b"\xff", ex=1000) for key in keys[:100]]
        replies += [await client.execute_command("SETEX", key, 1000, b"\xff") for key in keys[100:]]
        pipe = client.pipeline(transaction=False)
        for key in keys:
            pipe.expire(key, 2000)
        replies += await pipe.execute()
        return replies

    replies: list[Any] = []
    began = server_ms(plain)
    records = recorded(server, lambda: replies.append(run_async(server, {"ttl-jitter": 0.1}, work)))
    ended = server_ms(plain)
    (result, report) = replies[0]
    assert result == [True] * 400
    expected = [reference.set(key, b"\xff", ex=1000) for key in keys[:100]]
    expected += [reference.execute_command("SETEX", key, 1000, b"\xff") for key in keys[100:]]
    assert result[:200] == expected
    given = [sent_ttl(record) for record in records if record.name == "expire"]
    assert sorted(key for key, _ttl, _unit in given) == sorted(keys)
    assert all(2000 <= ttl <= 2200 for _key, ttl, _unit in given)
    assert len({ttl for _key, ttl, _unit in given}) > 1
    for key, ttl, unit in given:
        assert began <= plain.pexpiretime(key) - ttl * unit <= ended
    first = [sent_ttl(record)[1] for record in records if record.name in ("set", "setex")]
    assert len(first) == 200 and all(1000 <= ttl <= 1100 for ttl in first) and len(set(first)) > 1
    assert {key: dump for key, (dump, _ttl) in keyspace(plain).items()} == {
        key: dump for key, (dump, _ttl) in keyspace(reference).items()
    }
    assert fixed_counts(report) == {"ttl-jitter": 400}


def test_async_fixes_on_a_watching_pipeline(server: ServerProcess, plain: redis.Redis, reference: redis.Redis) -> None:
    keys = profile_keys(150)
    both(plain, reference, store_every_other(keys))
    plain.config_resetstat()

    async def work(client: aredis.Redis) -> list[Any]:
        async with client.pipeline() as pipe:
            await pipe.watch(keys[0])  # from here until multi(), commands are sent at once
            got = [await pipe.mget(keys), await pipe.delete(*keys[100:])]
            pipe.multi()
            pipe.set(keys[0], b"\x00", ex=1000)
            got.append(await pipe.execute())
            return got

    began = server_ms(plain)
    replies, report = run_async(server, {"chunk": 100, "unlink": True, "ttl-jitter": 0.1}, work)
    ended = server_ms(plain)
    assert replies == [reference.mget(keys), reference.delete(*keys[100:]), [True]]
    stats = calls(plain)
    assert (stats["mget"], stats["unlink"], stats["exec"], "del" in stats) == (2, 1, 1, False)
    expires = plain.pexpiretime(keys[0])  # set between `began` and `ended`, with a TTL of 1000 to 1100 s
    assert expires - began >= 1_000_000 and expires - ended <= 1_100_000
    assert plain.get(keys[0]) == b"\x00"
    assert fixed_counts(report) == {"chunk": 1, "unlink": 1, "ttl-jitter": 1}


def test_a_write_no_part_of_a_flushed_pipeline_expires_is_reported(client: redis.Redis) -> None:
    fixing(client, {"flush": 100})
    pipe = client.pipeline(transaction=False)
    for i in range(150):
        pipe.set(f"user:item:{i}", i, ex=600 + i)
    pipe.hset("cart:items:9", "book", 1)  # sent in the second part, no EXPIRE anywhere
    for i in range(150, 260):
        pipe.set(f"user:item:{i}", i, ex=600 + i)
    pipe.execute()
    (finding,) = guard_report(client).findings
    line = next(n for n, text in enumerate(Path(__file__).read_text().splitlines(), 1) if "no EXPIRE anywhere" in text)
    assert (finding.rule_id, finding.code, finding.location.line, finding.count) == ("TTL006", "hset", line, 1)
