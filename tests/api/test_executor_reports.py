"""The same report wherever the work runs: in this process one part after another, in a local process pool,
or on a real Dask cluster (a `distributed.LocalCluster` of two worker processes). Only partial results and
reports travel back, so the report must not depend on where the parts were read or in which order they came.

Checked for a fleet of live servers (one of them down), a cluster scanned from one address, and a directory
of dumps (each dump read and judged as a job).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rediscipline.api import RdbScanOptions, scan_rdb, settings_for
from rediscipline.api.executors import executor_for
from rediscipline.api.fleet import FleetTarget, scan_fleet
from rediscipline.api.live import ClusterOptions, LiveScanOptions, scan_live
from rediscipline.model.report import Report
from rediscipline.render.fleet import fleet_to_dict
from rediscipline.render.json_output import report_to_dict
from tests.support.dask_cluster import local_scheduler
from tests.support.dataset import populate
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, refused_port, start_server
from tests.support.topologies import Cluster, start_cluster

WHERE = ("inline", "local", "dask")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with local_scheduler() as address:
        yield address


def _spec(where: str, scheduler: str) -> str:
    return scheduler if where == "dask" else where


#: What a document says about time: the run's wall time, the TTLs left of its top keys when they were read,
#: the minutes, hours and busiest seconds of the expiry timeline they fell in (its `keys` and `later` stay), and
#: when the scan started.
_CLOCKED = ("elapsed_seconds", "ttl_ms", "per_minute", "per_hour", "peak_second", "started_ms")


def _timeless(data: Any) -> Any:
    """A report document without what depends on when it ran."""
    if isinstance(data, dict):
        return {k: None if k in _CLOCKED else _timeless(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_timeless(v) for v in data]
    return data


def _document(report: Report) -> Any:
    return _steady(json.loads(json.dumps(report_to_dict(report))))


def _steady(report: dict[str, Any]) -> dict[str, Any]:
    """A report document without what changes between two scans of one server: wall times, and the memory
    the server itself uses and its clients (connections come and go)."""
    data: dict[str, Any] = _timeless(report)
    if data["server"] is not None:
        data["server"]["used_memory"] = None
        data["server"]["connected_clients"] = None
    for shard in data["shards"] or ():
        shard["used_memory"] = None
    return data


def _fill(server: ServerProcess, seed: int) -> None:
    """A keyspace in database 0 only (a scan that SELECTs another database leaves that in INFO commandstats,
    which the next scan reads) with findings of several families: names, sizes, TTLs."""
    pipe = server.client().pipeline(transaction=False)
    for index in range(1_000 * seed):
        pipe.set(b"order:%d:status" % index, b"paid", ex=18_000 + index % 1_800)  # 5-5.5 h: one TTL bucket
    for index in range(50 * seed):
        pipe.hset(b"userProfile:%d" % index, mapping={b"name": b"x" * 20})  # camelCase, no TTL
    pipe.set(b"report:export:%d" % seed, b"z" * 20_000 * seed)  # a big string without TTL
    pipe.execute()


@pytest.fixture(scope="module")
def servers() -> Iterator[list[ServerProcess]]:
    # Valkey has CLIENT NO-TOUCH: a scan leaves idle times as they were, and the next scan reads the same ones
    require_kind("valkey91")
    started = [start_server("valkey91") for _ in range(3)]
    try:
        for index, server in enumerate(started):
            _fill(server, index + 1)
        yield started
    finally:
        for server in started:
            server.stop()


def _stable(fleet: dict[str, Any]) -> dict[str, Any]:
    """A fleet document with each target's report `_steady`."""
    data: dict[str, Any] = _timeless(fleet)
    for target in data["targets"]:
        if target["report"] is not None:
            target["report"] = _steady(target["report"])
    return data


@pytest.mark.parametrize("where", WHERE[1:])
def test_a_fleet_reports_the_same_wherever_it_runs(servers: list[ServerProcess], scheduler: str, where: str) -> None:
    settings = settings_for()
    down = f"redis://127.0.0.1:{refused_port()}"
    targets = [
        FleetTarget(f"cache-{i}", (("team", "t"),), live=LiveScanOptions(url=s.url)) for i, s in enumerate(servers)
    ]
    targets.append(FleetTarget("gone", live=LiveScanOptions(url=down, timeout=1)))

    def fleet(spec: str) -> dict[str, Any]:
        with executor_for(spec, concurrency=2) as executor:
            report = scan_fleet(targets, settings, executor=executor)
        return _stable(json.loads(json.dumps(fleet_to_dict(report))))

    inline = fleet("inline")
    assert inline["targets"][0]["name"] == "gone"  # a target that could not be read comes first
    assert inline["targets"][0]["error"] == f"cannot connect to {down}: connection refused"
    keys = {t["name"]: t["keys"] for t in inline["targets"]}
    assert keys == {"gone": None, "cache-0": 1_051, "cache-1": 2_101, "cache-2": 3_151}
    assert fleet(_spec(where, scheduler)) == inline


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    require_kind("redis70")
    with start_cluster(3, 0, "redis70") as started:
        from redis.crc import key_slot

        clients = {shard.master.port: shard.master.client() for shard in started.shards}
        pipes = {port: client.pipeline(transaction=False) for port, client in clients.items()}
        for index in range(4_000):
            key = b"order:%d:{c%d}:items" % (index, index % 40)
            pipes[started.shard_serving(key_slot(key)).master.port].set(key, b"x" * (index % 300), ex=18_000 + index)
        for pipe in pipes.values():
            pipe.execute()
        yield started


@pytest.mark.parametrize("where", WHERE[1:])
def test_a_cluster_reports_the_same_wherever_its_shards_are_read(cluster: Cluster, scheduler: str, where: str) -> None:
    def scan(spec: str) -> Any:
        with executor_for(spec, concurrency=3) as executor:
            report = scan_live(LiveScanOptions(url=cluster.masters[0].url), cluster=ClusterOptions(), executor=executor)
        return _document(report)

    inline = scan("inline")
    assert [row["keys"] for row in inline["shards"]] == [s.master.client().dbsize() for s in cluster.shards]
    assert scan(_spec(where, scheduler)) == inline


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of three dumps written by a real Redis 7.0, each from its own seeded keyspace."""
    require_kind("redis70")
    folder = tmp_path_factory.mktemp("dumps")
    for index in range(3):
        with start_server("redis70") as server:
            client = server.client()
            populate(client, 500 * (index + 1), seed=index + 7)
            client.save()
            (folder / f"node-{index}.rdb").write_bytes(
                (Path(client.config_get("dir")["dir"]) / "dump.rdb").read_bytes()
            )
    return folder


@pytest.mark.parametrize("where", WHERE)
def test_a_folder_of_dumps_reports_the_same_wherever_its_dumps_are_read(
    dumps: Path, scheduler: str, where: str
) -> None:
    settings = settings_for()
    here = _document(scan_rdb(RdbScanOptions((str(dumps),), jobs=1), settings))
    with executor_for(_spec(where, scheduler), concurrency=2) as executor:
        jobs = _document(scan_rdb(RdbScanOptions((str(dumps),)), settings, executor=executor))
    assert jobs == here
