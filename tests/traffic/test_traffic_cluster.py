"""`rediscipline traffic` given a node of a Redis Cluster: every master is observed over the same window, each
with a traffic section of its own, and what each master was sent is reported at that master."""

from __future__ import annotations

import _thread
import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from rediscipline.api.defaults import settings_for
from rediscipline.api.traffic import TrafficOptions, observe_traffic
from rediscipline.model.note import Note
from rediscipline.model.report import Report
from rediscipline.render.json_output import render_json
from rediscipline.settings.loader import Overrides
from rediscipline.sources.traffic.slots import METRICS_OFF, SOURCE_SLOT_STATS, UNREADABLE
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess
from tests.support.topologies import Cluster, start_cluster
from tests.traffic.monitor_support import wait_for_monitor


@pytest.fixture(scope="module", params=["redis70", "valkey91"])
def cluster(request: pytest.FixtureRequest) -> Iterator[Cluster]:
    require_kind(request.param)
    with start_cluster(3, 1, request.param) as started:
        yield started


def test_every_master_is_observed_over_the_same_window(cluster: Cluster) -> None:
    """A hot key on one shard and KEYS on another, observed from a replica's address with --monitor: three
    windows, one per master, each naming its master; the hot key is in its master's window only; KEYS is
    CMD001."""
    hot_key = b"page:{h}:home"
    hot_master = cluster.master_for(hot_key)
    keys_master = next(master for master in cluster.masters if master is not hot_master)
    stop = threading.Event()

    def hot() -> None:
        client = redis.Redis(port=hot_master.port)
        while not stop.is_set():
            pipe = client.pipeline(transaction=False)
            for _ in range(50):
                pipe.get(hot_key)
            pipe.execute()

    def scanner() -> None:
        client = redis.Redis(port=keys_master.port)
        while not stop.is_set():
            client.keys("nothing:*")

    threads = [threading.Thread(target=hot), threading.Thread(target=scanner)]
    for thread in threads:
        thread.start()
    try:
        options = TrafficOptions(url=cluster.replicas[0].url, duration=1.5, monitor=True)
        report = observe_traffic(options, settings_for(Overrides(isolated=True)))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    views = report.stats.traffic
    assert sorted(view.origin.path or "" for view in views) == sorted(master.url for master in cluster.masters)
    by_master = {view.origin.path: view for view in views}
    assert all(view.monitor is not None and view.monitor.stopped == "duration" for view in views)
    hot_view = by_master[hot_master.url]
    assert hot_view.hot_keys and hot_view.hot_keys[0].key == hot_key
    assert all(hot_key not in {hot.key for hot in view.hot_keys} for view in views if view is not hot_view)
    assert "keys" in {command.name for command in by_master[keys_master.url].commands}
    assert "keys" not in {command.name for command in hot_view.commands}
    assert ("CMD001", "keys") in {(f.rule_id, f.code) for f in report.findings}
    [said] = [n for n in report.notes if n.code == "traffic-cluster"]
    assert len(said.params["masters"]) == 3  # type: ignore[arg-type]
    costs = [n for n in report.notes if n.code == "traffic-monitor-cost"]
    assert len(costs) == 3 and all("shard" in n.params for n in costs)
    starts = [view.started for view in views]
    assert max(starts) - min(starts) < 1.0  # the windows overlap: observed at once, not one after another


def test_slot_heat_needs_the_servers_slot_statistics(cluster: Cluster) -> None:
    """Without `cluster-slot-stats-enabled` (Valkey 9.1: the default is no) or without the command (Redis 7.0)
    there is no slot heat: Valkey gets one note for the whole cluster, Redis 7.0 none, and each master's
    sources line says why; nothing about it is counted as refused."""
    options = TrafficOptions(url=cluster.masters[0].url, duration=0.5, hot_keys_scan=0)
    report = observe_traffic(options, settings_for(Overrides(isolated=True)))
    views = report.stats.traffic
    assert len(views) == 3 and all(view.slot_heat is None for view in views)
    errors = {source.error for view in views for source in view.sources if source.name == SOURCE_SLOT_STATS}
    off = [n for n in report.notes if n.code == "traffic-slot-stats-off"]
    if cluster.flavor == "valkey":
        assert errors == {METRICS_OFF}
        assert off == [Note("traffic-slot-stats-off", {})]
    else:
        assert errors == {UNREADABLE}
        assert off == []
    assert not [n for n in report.notes if n.code == "traffic-refused"]


@pytest.fixture(scope="module")
def stats_cluster() -> Iterator[Cluster]:
    """Valkey 9.1, three masters collecting per-slot CPU time and bytes."""
    require_kind("valkey91")
    with start_cluster(3, 0, "valkey91", extra_args=("--cluster-slot-stats-enabled", "yes")) as started:
        yield started


def test_hot_slot_is_found_at_its_master(stats_cluster: Cluster) -> None:
    """A workload on the keys of one hashtag, light traffic on a few other slots: the hashtag's slot is its
    master's hottest, with most of its CPU time; every hot slot is listed at the master serving it, and the
    report shows the table."""
    hot_key = b"cart:{u42}:items"
    hot_master = stats_cluster.master_for(hot_key)
    hot_slot = stats_cluster.slot_of(hot_key)
    cool = [f"page:{index}".encode() for index in range(30)]
    stop = threading.Event()

    def hot() -> None:
        client = redis.Redis(port=hot_master.port)
        client.delete(hot_key)
        client.rpush(hot_key, *[b"x" * 50] * 200)
        while not stop.is_set():
            pipe = client.pipeline(transaction=False)
            for _ in range(20):
                pipe.lrange(hot_key, 0, -1)
            pipe.execute()

    def light() -> None:
        clients = {master.port: redis.Redis(port=master.port) for master in stats_cluster.masters}
        while not stop.wait(0.05):
            for key in cool:
                clients[stats_cluster.master_for(key).port].get(key)

    threads = [threading.Thread(target=hot), threading.Thread(target=light)]
    for thread in threads:
        thread.start()
    try:
        options = TrafficOptions(url=stats_cluster.masters[0].url, duration=1.5, hot_keys_scan=0)
        report = observe_traffic(options, settings_for(Overrides(isolated=True)))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    by_master = {view.origin.path: view for view in report.stats.traffic}
    heat = by_master[hot_master.url].slot_heat
    assert heat is not None and heat.slots == len(_served(stats_cluster, hot_master))
    top = heat.hot[0]
    assert top.slot == hot_slot and top.keys == 1
    assert (heat.cpu_share(top) or 0) > 0.5 and top.network_bytes > 0
    for master in stats_cluster.masters:
        view = by_master[master.url]
        assert view.slot_heat is not None
        assert {slot.slot for slot in view.slot_heat.hot} <= _served(stats_cluster, master)
    assert not [n for n in report.notes if n.code == "traffic-slot-stats-off"]
    [window] = [w for w in _json(report)["traffic"] if w["address"] == hot_master.url]
    assert window["slot_heat"]["hot"][0]["slot"] == hot_slot


def _served(cluster: Cluster, master: ServerProcess) -> set[int]:
    return {slot for first, last in cluster.shard_of(master).slots for slot in range(first, last + 1)}


def _json(report: Report) -> dict[str, Any]:
    stream = io.StringIO()
    render_json(report, stream)
    return json.loads(stream.getvalue())  # type: ignore[no-any-return]


def test_the_readme_acl_is_enough_on_a_cluster(stats_cluster: Cluster) -> None:
    """The README's minimal ACL for `traffic`, with its cluster line, given on every node: every master is
    observed, slot heat included, with no refusal (the other tests on this cluster do not depend on its
    eviction policy or latency threshold)."""
    lines = [
        text for text in Path(__file__).resolve().parents[2].joinpath("README.md").read_text().splitlines()
        if text.startswith("ACL SETUSER watcher")
    ]  # fmt: skip
    assert len(lines) == 2
    for node in stats_cluster.live:
        admin = redis.Redis(port=node.port)
        for line in lines:
            admin.execute_command(*line.split())
        admin.config_set("maxmemory-policy", "allkeys-lfu")  # every part, hot keys included
        admin.config_set("latency-monitor-threshold", 1)  # and latency events
    url = stats_cluster.masters[1].url_for("watcher", "pw")
    report = observe_traffic(TrafficOptions(url=url, duration=0.5), settings_for(Overrides(isolated=True)))
    assert len(report.stats.traffic) == 3
    assert all(view.slot_heat is not None for view in report.stats.traffic)
    assert all(source.error is None for view in report.stats.traffic for source in view.sources)
    assert not [n for n in report.notes if n.code in ("traffic-refused", "traffic-node-failed")]


def test_a_ctrl_c_ends_every_masters_monitor_sample(cluster: Cluster) -> None:
    """A Ctrl-C while every master's MONITOR sample runs (in worker threads, which get no KeyboardInterrupt)
    ends the samples there, not at the end of the 30 s window: each master's window is cut and its sample
    stopped as interrupted."""

    def interrupt_once_monitored() -> None:
        for master in cluster.masters:
            wait_for_monitor(redis.Redis(port=master.port))
        _thread.interrupt_main()

    trigger = threading.Thread(target=interrupt_once_monitored, daemon=True)
    trigger.start()
    options = TrafficOptions(url=cluster.masters[0].url, duration=30.0, monitor=True, hot_keys_scan=0)
    report = observe_traffic(options, settings_for(Overrides(isolated=True)))
    trigger.join(10)
    views = report.stats.traffic
    assert len(views) == 3
    assert all(view.monitor is not None and view.monitor.stopped == "interrupted" for view in views)
    assert len([n for n in report.notes if n.code == "traffic-cut"]) == 3
