"""`rediscipline traffic` against real servers: what the window reports is what other clients sent in it.

Each test drives a workload of its own on a server of its own (started with `slowlog-log-slower-than 0`,
so every call is a slow-log entry, and a small pub/sub output limit where a test needs one), observes it
through the API or the CLI, and compares the view with what the workload did.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from rediscipline.api.defaults import settings_for
from rediscipline.api.driver import run
from rediscipline.api.traffic import TrafficOptions, observe_traffic
from rediscipline.settings.loader import Overrides
from rediscipline.sources.traffic.source import TrafficSource
from tests.support.kinds import running
from tests.support.servers import KINDS, ServerProcess
from tests.traffic.workload import Workload, calls_of, observe, view_of


@pytest.fixture(params=KINDS)
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    with running(request.param, ["--slowlog-log-slower-than", "0", "--slowlog-max-len", "1024"]) as started:
        yield started


def test_an_idle_server_shows_no_command_of_ours(server: ServerProcess) -> None:
    """INFO, TIME, SLOWLOG GET and CLIENT LIST sent by the observation itself are taken out of the window, and
    out of its slow calls (every call is slow on this server)."""
    report = observe(server)
    view = view_of(report)
    assert (view.commands, view.errors, report.findings, view.slow_calls) == ((), {}, (), ())
    assert view.stats.get("total_commands_processed", 0) <= 4  # the server counts ours there; nothing else ran
    assert 0.9 <= view.seconds <= 2.0


def test_keys_and_hgetall_called_in_the_window_are_reported(server: ServerProcess) -> None:
    redis.Redis(port=server.port).hset("order:1:items", mapping={"a": "1", "b": "2"})

    def step(client: redis.Redis) -> None:
        client.keys("order:*")
        client.hgetall("order:1:items")
        client.get("order:1:total")

    with Workload(server, step) as load:
        report = observe(server)
        loops = load.loops
    view = view_of(report)
    calls = calls_of(view)
    assert set(calls) == {"keys", "hgetall", "get"}
    assert max(calls.values()) - min(calls.values()) <= 1  # a window cuts the loop of three anywhere
    assert 0 < calls["keys"] <= loops + 1
    assert {(f.rule_id, f.code) for f in report.findings} == {("CMD001", "keys"), ("CMD005", "hgetall")}
    [counted] = [f for f in report.findings if f.rule_id == "CMD001" and "during the observed window" in f.message.en]
    assert counted.worst == calls["keys"]
    slow = [call for call in view.slow_calls if call.command == "hgetall"]
    assert slow and all(call.args == (b"order:1:items",) for call in slow)
    assert all(call.client_name == "worker" for call in slow)


def test_a_clean_workload_gives_no_finding(server: ServerProcess) -> None:
    def step(client: redis.Redis) -> None:
        client.set("session:1", "x", ex=60)
        client.get("session:1")

    with Workload(server, step):
        report = observe(server)
    assert report.findings == ()
    assert set(calls_of(view_of(report))) == {"set", "get"}


def test_the_observation_sends_a_bounded_number_of_commands(server: ServerProcess) -> None:
    """About a dozen commands in all, whatever the window: counted by the server itself."""
    probe = redis.Redis(port=server.port)
    before = int(probe.info("stats")["total_commands_processed"])
    observe(server, 0.5)
    after = int(probe.info("stats")["total_commands_processed"])
    assert after - before - 1 <= 20  # minus the INFO just above; the handshake of our connection included


def test_slow_log_entries_before_the_window_are_history(server: ServerProcess) -> None:
    client = redis.Redis(port=server.port)
    for _ in range(5):
        client.lrange("before:window", 0, -1)
    view = view_of(observe(server, 0.5))
    assert not [call for call in view.slow_calls if call.command == "lrange"]
    assert view.slowlog_history >= 5
    assert view.slowlog_threshold_us == 0


def test_a_subscriber_is_listed_with_its_channels(server: ServerProcess) -> None:
    subscriber = redis.Redis(port=server.port, client_name="fanout").pubsub()
    subscriber.subscribe(*[f"room:{n}" for n in range(60)])
    subscriber.psubscribe("alerts:*")
    subscriber.get_message(timeout=1.0)
    try:
        view = view_of(observe(server, 0.5))
    finally:
        subscriber.close()
    [client] = [client for client in view.clients if client.name == "fanout"]
    assert (client.sub, client.psub, client.channels, client.output_class) == (60, 1, 61, "pubsub")
    assert view.clients_total == len(view.clients)
    assert not [client for client in view.clients if client.cmd in ("client|list", "client")]  # ours is left out


def test_a_stats_reset_inside_the_window_is_said_not_shown_negative(server: ServerProcess) -> None:
    client = redis.Redis(port=server.port)
    for _ in range(50):
        client.get("x")
    source = TrafficSource(
        TrafficOptions(url=server.url, duration=1.0),
        sleep=lambda _seconds: client.config_resetstat(),
        clock=iter([0.0, 0.0, 5.0, 5.0, 5.0]).__next__,
    )
    report = run([source], settings_for(Overrides(isolated=True)), command="traffic")
    view = view_of(report)
    assert view.reset and (view.commands, view.errors, view.stats) == ((), {}, {})
    assert [n.code for n in report.notes if n.code.startswith("traffic")] == ["traffic-reset", "traffic-no-hot-keys"]


def test_ctrl_c_ends_the_window_early_with_a_note(server: ServerProcess) -> None:
    def interrupt(_seconds: float) -> None:
        raise KeyboardInterrupt

    source = TrafficSource(TrafficOptions(url=server.url, duration=30.0), sleep=interrupt)
    report = run([source], settings_for(Overrides(isolated=True)), command="traffic")
    assert view_of(report).seconds < 5
    [cut] = [n for n in report.notes if n.code == "traffic-cut"]
    assert cut.params["asked"] == 30.0


def test_a_user_without_client_list_slowlog_and_config_gets_the_rest(server: ServerProcess) -> None:
    admin = redis.Redis(port=server.port)
    admin.execute_command("ACL", "SETUSER", "watcher", "on", ">pw", "+@all", "-client", "-slowlog", "-config", "~*")
    settings = settings_for(Overrides(isolated=True))
    url = server.url_for("watcher", "pw")
    with Workload(server, lambda c: c.keys("x*")):
        report = observe_traffic(TrafficOptions(url=url, duration=0.5), settings)
    view = view_of(report)
    refused = {source.name for source in view.sources if source.error is not None}
    # OBJECT FREQ: no LFU policy; LATENCY LATEST: its threshold cannot be read
    assert refused == {"SLOWLOG GET", "CLIENT LIST", "CONFIG GET", "LATENCY LATEST", "OBJECT FREQ"}
    assert (view.clients, view.slow_calls) == ((), ())
    assert "keys" in calls_of(view) and "noperm" not in {e.lower() for e in view.errors}
    [note] = [n for n in report.notes if n.code == "traffic-refused"]
    assert len(note.params["parts"]) == 4  # type: ignore[arg-type]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rediscipline", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("duration", ["0", "61", "-1", "nan"])
def test_a_window_out_of_range_is_one_line_and_exit_2(duration: str) -> None:
    done = cli("traffic", "redis://127.0.0.1:1", "--duration", duration)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--duration must be more than 0 and at most 60 seconds" in done.stderr


def test_the_cli_writes_the_window_as_json(server: ServerProcess, tmp_path: Path) -> None:
    out = tmp_path / "traffic.json"
    with Workload(server, lambda c: c.keys("x*")):
        done = cli("traffic", server.url, "--duration", "0.5", "--format", "json", "--output", str(out), "--isolated")
    assert done.returncode == 1, done.stderr  # CMD001 is an error
    report = json.loads(out.read_text())
    assert report["run"]["command"] == "traffic"
    assert {(f["rule"], f["code"]) for f in report["findings"]} == {("CMD001", "keys")}  # counted, and slow calls


def test_the_readme_acl_is_enough_for_every_part(server: ServerProcess) -> None:
    """The minimal ACL the README gives for `traffic` reads every part, with no refusal."""
    line = next(
        text for text in Path(__file__).resolve().parents[2].joinpath("README.md").read_text().splitlines()
        if text.startswith("ACL SETUSER watcher")
    )  # fmt: skip
    admin = redis.Redis(port=server.port)
    admin.execute_command(*line.split())
    admin.config_set("maxmemory-policy", "allkeys-lfu")  # every part, hot keys included
    admin.config_set("latency-monitor-threshold", 1)  # and latency events
    admin.set("x:1", "v")
    admin.rpush("jobs:q", b"a")
    admin.xadd("events:s", {"n": "1"})
    admin.xgroup_create("events:s", "g", id="0")
    queues = ((b"jobs:q", "--queue"), (b"events:s", "--queue"))
    url, settings = server.url_for("watcher", "pw"), settings_for(Overrides(isolated=True))
    with Workload(server, lambda c: (c.keys("x*"), c.get("x:1"))):
        report = observe_traffic(TrafficOptions(url=url, duration=0.5, queues=queues), settings)
        monitored = observe_traffic(TrafficOptions(url=url, duration=0.5, monitor=True), settings)
    sample = view_of(monitored).monitor
    assert sample is not None and sample.stopped == "duration" and sample.lines > 0
    assert not [n for n in monitored.notes if n.code == "traffic-refused"]
    view = view_of(report)
    assert [(hot.key, hot.type, hot.length) for hot in view.hot_keys if hot.key == b"x:1"] == [(b"x:1", "string", 1)]
    assert all(hot.memory is not None for hot in view.hot_keys[:10])
    assert [(q.key, q.length_start, q.length_end, len(q.groups)) for q in view.queues] == [
        (b"jobs:q", 1, 1, 0),
        (b"events:s", 1, 1, 1),
    ]
    assert [source.error for source in view.sources] == [None] * 6
    assert "keys" in calls_of(view) and view.hot_keys_sampled == 3
    assert not [n for n in report.notes if n.code.startswith("traffic")]


def zipf_keys(count: int, seed: int) -> Callable[[int], list[bytes]]:
    """Draws of `n` keys `hot:{rank}` with Zipf(1.0) weights over `count` keys."""
    import random

    names = [b"hot:%d" % rank for rank in range(1, count + 1)]
    weights = [1.0 / rank for rank in range(1, count + 1)]
    chooser = random.Random(seed)
    return lambda n: chooser.choices(names, weights, k=n)


def test_hot_keys_from_lfu_counters_find_the_most_accessed_keys() -> None:
    """Under allkeys-lfu, the keys whose access counters grew most over the window are the workload's top keys:
    recall of its true top 10 at least 0.8, and the hottest key's rate within a factor of 2."""
    with running("redis70", ["--maxmemory-policy", "allkeys-lfu", "--lfu-log-factor", "1"]) as started:
        loader = redis.Redis(port=started.port)
        loader.mset({b"hot:%d" % rank: b"v" for rank in range(1, 2001)})
        draw = zipf_keys(2000, seed=7)
        counts: dict[bytes, int] = {}
        sent: list[int] = [0]

        def step(client: redis.Redis) -> None:
            keys = draw(200)
            pipe = client.pipeline(transaction=False)
            for key in keys:
                pipe.get(key)
                counts[key] = counts.get(key, 0) + 1
            pipe.execute()
            sent[0] += len(keys)

        with Workload(started, step):
            while sent[0] < 20_000:  # warm: the hot keys' counters are the highest before the window opens
                threading.Event().wait(0.05)
            report = observe(started, 1.5)
        view = view_of(report)
    top = {key for key, _n in sorted(counts.items(), key=lambda item: -item[1])[:10]}
    found = [hot.key for hot in view.hot_keys[:10]]
    assert len(top & set(found)) >= 8, (found, sorted(top))
    assert view.hot_keys_sampled == 2000 and view.hot_keys_population == 2000
    assert all(hot.source == "OBJECT FREQ" and hot.db == 0 for hot in view.hot_keys)
    hottest = view.hot_keys[0]
    share = counts[b"hot:1"] / sum(counts.values())
    total = view.stats["total_commands_processed"] / view.seconds  # the workload's GETs are nearly all of it
    assert hottest.key == b"hot:1" and hottest.ops_per_second is not None
    assert share * total / 2 <= hottest.ops_per_second <= share * total * 2


def test_a_queue_growing_without_consumers_is_measured_at_both_ends(server: ServerProcess) -> None:
    def produce(client: redis.Redis) -> None:
        client.rpush("jobs:mail", b"job")

    settings = settings_for(Overrides(isolated=True))
    with Workload(server, produce) as load:
        while load.loops < 10:
            threading.Event().wait(0.01)
        report = observe_traffic(
            TrafficOptions(url=server.url, duration=1.0, queues=((b"jobs:mail", "--queue"),)), settings
        )
    [queue] = view_of(report).queues
    assert (queue.key, queue.type, queue.reason, queue.db) == (b"jobs:mail", "list", "--queue", 0)
    assert queue.length_start is not None and queue.length_end is not None
    assert queue.length_end > queue.length_start >= 10
    growth = queue.growth_per_second(view_of(report).seconds)
    assert growth is not None and growth > 0
    [finding] = [f for f in report.findings if f.rule_id == "PUB005"]
    assert (finding.subject, finding.worst) == ("queue db0 jobs:mail", round(growth, 1))


def test_a_stream_group_s_lag_and_pending_are_read_and_an_unknown_lag_stays_unknown(
    server: ServerProcess,
) -> None:
    client = redis.Redis(port=server.port)
    for n in range(31):
        client.xadd("events:orders", {"n": str(n)})
    client.xgroup_create("events:orders", "billing", id="0")  # from the start: the server knows what was read
    client.xgroup_create("events:orders", "audit", id="$")  # from the end: once the stream grows, its lag is
    client.xadd("events:orders", {"n": "31"})  # nil (unknown) to the server
    client.xreadgroup("billing", "worker-1", {"events:orders": ">"}, count=5)  # 5 pending, 27 unread
    settings = settings_for(Overrides(isolated=True))
    report = observe_traffic(
        TrafficOptions(url=server.url, duration=0.3, queues=((b"events:orders", "--queue"),)), settings
    )
    [queue] = view_of(report).queues
    billing, audit = sorted(queue.groups, key=lambda group: group.name != "billing")
    assert (queue.type, queue.length_start, queue.length_end) == ("stream", 32, 32)
    assert (billing.name, billing.consumers, billing.pending, audit.name, audit.pending) == (
        "billing",
        1,
        5,
        "audit",
        0,
    )
    version = tuple(int(part) for part in server.version.split(".")[:2])
    assert billing.lag == (27 if version >= (7, 0) else None)  # before 7.0 the server does not tell
    assert audit.lag is None  # unknown to the server: unknown here, never 0


def test_keys_of_blocking_reads_in_the_slow_log_and_declared_namespaces_are_queues(
    server: ServerProcess, tmp_path: Path
) -> None:
    client = redis.Redis(port=server.port)
    client.rpush("jobs:push", b"a", b"b")
    client.blpop(["jobs:push"], timeout=1)  # logged: every call is slow on this server
    client.xadd("jobs:stream", {"n": "1"})
    config = tmp_path / "rediscipline.toml"
    config.write_text('[namespaces."jobs:stream"]\ntype = "stream"\n[namespaces."jobs:*"]\ntype = "list"\n')
    report = observe_traffic(TrafficOptions(url=server.url, duration=0.3), settings_for(Overrides(config=config)))
    found = {(queue.key, queue.reason, queue.length_start, queue.length_end) for queue in view_of(report).queues}
    assert found == {
        (b"jobs:stream", "namespace jobs:stream", 1, 1),  # a pattern with a glob is no single queue
        (b"jobs:push", "blocking reads in the slow log", 1, 1),
    }


def test_a_scan_with_traffic_reports_the_keyspace_and_the_window(server: ServerProcess) -> None:
    """`scan --traffic`: the scan, then a window, in one report; the KEYS calls counted since the server started
    and those of the window are two findings, never one sum."""
    from rediscipline.api.live import LiveScanOptions, scan_live

    redis.Redis(port=server.port).set("order:1:total", "9")
    with Workload(server, lambda c: c.keys("order:*")):
        report = scan_live(LiveScanOptions(url=server.url), settings_for(Overrides(isolated=True)), traffic=0.5)
    assert report.stats.keys == 1 and len(report.stats.traffic) == 1
    keys = [f for f in report.findings if f.rule_id == "CMD001" and f.code == "keys" and f.worst]
    windows = [f for f in keys if "during the observed window" in f.message.en]
    assert len(windows) == 1 and len(keys) - len(windows) >= 1
    assert windows[0].worst == calls_of(view_of(report))["keys"]


@pytest.mark.parametrize(
    ("target", "value", "said"),
    [
        ("redis://127.0.0.1:1", "0", "--traffic"),
        ("redis://127.0.0.1:1", "61", "--traffic"),
        ("dump.rdb", "5", "--traffic only apply to a live server"),
    ],
)
def test_scan_traffic_out_of_range_or_on_dumps_is_one_line_and_exit_2(target: str, value: str, said: str) -> None:
    done = cli("scan", target, "--traffic", value)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


def test_latency_events_of_the_window_are_read_when_the_monitor_is_on() -> None:
    """With latency-monitor-threshold 5, a DEBUG SLEEP of 20 ms inside the window is a `command` event of at least
    20 ms; with the threshold at 0 (the default) nothing is read and nothing is refused."""
    with running("redis70", ["--latency-monitor-threshold", "5", "--enable-debug-command", "yes"]) as started:
        admin = redis.Redis(port=started.port)
        with Workload(started, lambda c: (c.execute_command("DEBUG", "SLEEP", "0.02"), threading.Event().wait(0.1))):
            report = observe(started, 1.0)
        view = view_of(report)
        assert view.latency_threshold_ms == 5
        [command] = [event for event in view.latency_events if event.event == "command"]
        assert 20 <= command.latest_ms <= command.max_ms and command.time >= int(view.started)
        admin.config_set("latency-monitor-threshold", 0)
        quiet = observe(started, 0.5)
    assert view_of(quiet).latency_events == () and view_of(quiet).latency_threshold_ms == 0
    assert not [n for n in quiet.notes if n.code == "traffic-refused"]
