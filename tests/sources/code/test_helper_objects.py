"""Objects a client hands out that are not pipelines: BITFIELD builders, locks, scripts, module namespaces.

A command method called on a command's result shows a pipeline (`pipe.hset(k, m).expire(k, ttl)`), but some
client methods return helpers whose methods are named like commands: `bitfield(key)` returns a builder whose
`set("u8", 0, 1)` is a sub-operation, and `json()`, `ts()`, `bf()`... return the namespaces of module commands,
whose keys are their key parameters only (never a JSON path or a TimeSeries filter).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

from rediscipline.redis_meta.module_table_generated import MODULE_COMMANDS
from rediscipline.sources.code.extract import Facts, ModuleExtractor

ROOT = Path(__file__).resolve().parents[3]


def extract(source: str) -> Facts:
    text = textwrap.dedent(source)
    return ModuleExtractor(ast.parse(text), "app.py", text.splitlines()).run()


def calls(source: str) -> list[tuple[int, str, str, tuple[bytes, ...]]]:
    """(line, method, command, key patterns) of every call read as a command."""
    return [(c.origin.line or 0, c.method, c.command, tuple(k.pattern for k in c.keys)) for c in extract(source).calls]


def key_patterns(source: str) -> list[tuple[int, bytes]]:
    return [(k.origin.line or 0, k.name.pattern) for k in extract(source).keys]  # type: ignore[union-attr]


def test_a_bitfield_builder_chain_is_one_bitfield_not_a_pipeline() -> None:
    source = """
        import redis
        r = redis.Redis()
        def f(uid):
            r.bitfield(f"flags:{uid}").set("u8", 0, 255).incrby("u8", 8, 1).execute()
            ops = r.bitfield(f"flags:{uid}")
            ops.incrby("i4", 0, 1)
            ops.get("u8", 0).execute()
            pipe = r.pipeline()
            pipe.bitfield("flags:1").set("u8", 0, 1).execute()
            pipe.execute()
        """
    assert calls(source) == [
        (5, "bitfield", "bitfield", (b"flags:*",)),
        (6, "bitfield", "bitfield", (b"flags:*",)),
        (10, "bitfield", "bitfield", (b"flags:*",)),
        (11, "execute", "", ()),
    ]


def test_locks_and_scripts_are_not_clients() -> None:
    assert calls(
        """
        import redis
        r = redis.Redis()
        def f():
            lock = r.lock("lock:report", timeout=5)
            lock.acquire()
            lock.extend(10)
            script = r.register_script("return 1")
            script(keys=["a"], args=[1])
            r.lock("lock:x").locked()
        """
    ) == [(8, "register_script", "registerscript", ())]  # a method of the command table; its Script is no client


def test_module_commands_name_only_their_keys() -> None:
    source = """
        import redis
        r = redis.Redis()
        def f(doc_id, sensor):
            r.json().set(f"doc:{doc_id}", "$.a.b", {"x": 1})
            r.json().mget(["doc:1", "doc:2"], "$..price")
            series = r.ts()
            series.add(f"temp:{sensor}", "*", 21.5)
            series.mrange("-", "+", filters=["room=kitchen"])
            r.bf().add("seen:urls", "http://x")
            r.json().set("doc:1")
        """
    assert calls(source) == [
        (5, "json().set", "json.set", (b"doc:*",)),
        (6, "json().mget", "json.mget", (b"doc:*", b"doc:*")),
        (8, "ts().add", "ts.add", (b"temp:*",)),
        (9, "ts().mrange", "ts.mrange", ()),
        (10, "bf().add", "bf.add", (b"seen:urls",)),
    ]  # the last call does not fit JSON.SET's signature: it is not read
    assert [pattern for _line, pattern in key_patterns(source)] == [
        b"doc:*",
        b"doc:*",
        b"temp:*",
        b"seen:urls",
    ]


def test_module_commands_on_a_pipeline_are_queued_on_it() -> None:
    facts = extract(
        """
        import redis
        r = redis.Redis()
        def f():
            pipe = r.pipeline(transaction=False)
            pipe.json().set("doc:1", "$", {})
            pipe.ts().add("temp:1", "*", 1)
            pipe.execute()
        """
    )
    assert [(c.method, c.pipelined) for c in facts.calls] == [
        ("json().set", True),
        ("ts().add", True),
        ("execute", True),
    ]
    assert facts.calls[-1].queued == 2


def test_helpers_of_a_guessed_client_are_not_read() -> None:
    """`resp.json()` on an object only named like a client (a `requests` response called `r`) is not
    JSON.GET's namespace: its `get(...)` must not become a key."""
    assert (
        calls(
            """
        def f(r):
            data = r.json()
            data.get("name")
            r.json().mget(["a"], "$")
        """
        )
        == []
    )


def test_the_module_table_matches_the_installed_redis_py() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_module_table.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert MODULE_COMMANDS["json"]["set"].keys == ("name",)
    assert MODULE_COMMANDS["json"]["mget"].key_lists == ("keys",)
    assert MODULE_COMMANDS["ts"]["add"].command == "TS.ADD"
    assert MODULE_COMMANDS["ts"]["mget"].keys == MODULE_COMMANDS["ts"]["mget"].key_lists == ()
    assert MODULE_COMMANDS["ts"]["createrule"].keys == ("source_key", "dest_key")
    assert MODULE_COMMANDS["cms"]["merge"].key_lists == ("srcKeys",)
    assert MODULE_COMMANDS["ft"]["search"].keys == ()
