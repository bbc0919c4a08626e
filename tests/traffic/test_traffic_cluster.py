"""`rediscipline traffic` given a node of a Redis Cluster: every master is observed over the same window, each
with a traffic section of its own, and what each master was sent is reported at that master."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis

from rediscipline.api.defaults import settings_for
from rediscipline.api.traffic import TrafficOptions, observe_traffic
from rediscipline.settings.loader import Overrides
from tests.support.kinds import require_kind
from tests.support.topologies import Cluster, start_cluster


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
