"""Addresses that are not a lone master: a Sentinel is refused with the masters it monitors, a replica out of
sync is refused unless --allow-stale (then marked), one node of a cluster says how many masters it has."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.conftest import ScanResult, one_error_line, run_scan
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, free_port, start_server
from tests.support.topologies import slot_owner_key, start_cluster, start_sentinel


def _refused(result: ScanResult) -> str:
    assert result.returncode == 2, result.describe()
    assert result.stdout == b""
    return one_error_line(result.stderr)


# ---- Sentinel -----------------------------------------------------------------------------------------------------


def test_sentinel_port_names_the_masters_it_monitors(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as master:
        closed = [free_port() for _ in range(6)]
        monitored = [("orders", "127.0.0.1", master.port)] + [
            (f"m{i}", "127.0.0.1", port) for i, port in enumerate(closed)
        ]
        sentinel = start_sentinel(monitored)
        try:
            line = _refused(run_scan(sentinel.url, cwd=tmp_path, timeout=60))
        finally:
            sentinel.stop()
    assert line.startswith(
        f"rediscipline: error: redis://127.0.0.1:{sentinel.port} is a Redis Sentinel, which holds no keys"
    )
    # seven masters: five named, the rest counted
    assert line.count(" at redis://127.0.0.1:") == 5, line
    assert line.rstrip().endswith("and 2 more: scan a master (or one of its replicas) instead"), line
    assert "refused SCAN" not in line


def test_sentinel_with_one_master(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as master:
        sentinel = start_sentinel([("orders", "127.0.0.1", master.port)])
        try:
            line = _refused(run_scan(sentinel.url, "--format", "text", cwd=tmp_path, timeout=60))
        finally:
            sentinel.stop()
    assert f"it monitors orders at redis://127.0.0.1:{master.port}: scan a master" in line


# ---- replicas -------------------------------------------------------------------------------------------------------


def test_replica_of_an_unreachable_master_is_refused_then_marked(tmp_path: Path) -> None:
    """Never synced: it holds no keys, and a report of it would look like a clean, empty instance."""
    require_kind("redis70")
    master_port = free_port()
    with start_server("redis70", ["--replicaof", "127.0.0.1", str(master_port)]) as replica:
        line = _refused(run_scan(replica.url, cwd=tmp_path, timeout=60))
        assert f"is a replica of 127.0.0.1:{master_port} that is not in sync (master_link_status:down)" in line
        assert "--allow-stale" in line
        forced = run_scan(replica.url, "--allow-stale", cwd=tmp_path, timeout=60)
    assert forced.returncode in (0, 1), forced.describe()
    server = forced.report["server"]
    assert server["role"] == "slave"
    assert server["partial"] == ["replica-not-in-sync"]
    assert any("not in sync" in note and "--allow-stale" in note for note in forced.report["notes"])


def test_replica_whose_master_went_away_keeps_stale_keys(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as master, start_server("redis70") as replica:
        with master.client() as client:
            client.mset({b"order:%d" % i: b"x" for i in range(300)})
        with replica.client() as client:
            client.execute_command("REPLICAOF", "127.0.0.1", master.port)
            deadline = time.monotonic() + 30
            while client.info("replication").get("master_link_status") != "up" or client.dbsize() < 300:
                assert time.monotonic() < deadline, "the replica never synced"
                time.sleep(0.05)
        master.stop()
        line = _refused(run_scan(replica.url, "--format", "text", cwd=tmp_path, timeout=60))
        assert "master_link_status:down" in line
        forced = run_scan(replica.url, "--allow-stale", "--format", "text", cwd=tmp_path, timeout=60)
    text = forced.stdout.decode()
    assert "300 keys in" in text
    assert "PARTIAL: replica-not-in-sync" in text
    assert "its keys may be missing or old (scanned with --allow-stale)" in text


def test_allow_stale_is_for_live_servers_only(tmp_path: Path) -> None:
    dump = tmp_path / "dump.rdb"
    dump.write_bytes(b"")
    result = run_scan(str(dump), "--allow-stale", cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert "--allow-stale only apply to a live server" in result.stderr.decode()


# ---- one node of a cluster ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[list[ServerProcess]]:
    require_kind("redis70")
    nodes = start_cluster(3)
    try:
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def test_a_cluster_node_scanned_alone_says_the_other_shards_were_not_scanned(
    cluster: list[ServerProcess], tmp_path: Path
) -> None:
    node = cluster[1]
    names = slot_owner_key(cluster, node, b"order:")
    with node.client() as client:
        for name in names:
            client.set(name, b"1")
    result = run_scan(node.url, "--no-cluster", cwd=tmp_path, timeout=120)
    assert result.returncode in (0, 1), result.describe()
    report = result.report
    assert report["summary"]["keys"] == len(names) > 0
    assert report["server"]["cluster"] == {"masters": 3}
    assert report["server"]["partial"] == ["other-shards"]
    assert any(
        note.startswith(
            "this server is one node of a cluster of 3 masters: only its own keys were scanned, the other 2"
        )
        for note in report["notes"]
    ), report["notes"]
    text = run_scan(node.url, "--no-cluster", "--format", "text", cwd=tmp_path, timeout=120).stdout.decode()
    assert "one node of a cluster of 3 masters: the other shards were not scanned" in text
    zh = run_scan(node.url, "--no-cluster", "--format", "text", "--lang", "zh", cwd=tmp_path, timeout=120)
    zh = zh.stdout.decode()
    assert "集群（3 个主节点）中的一个节点" in zh


def test_cluster_node_refuses_other_databases(cluster: list[ServerProcess], tmp_path: Path) -> None:
    line = _refused(run_scan(cluster[0].url, "--db", "3", "--no-cluster", cwd=tmp_path, timeout=60))
    assert "--db 3" in line and "SELECT" in line
    line = _refused(run_scan(cluster[0].url, "--db", "3", cwd=tmp_path, timeout=60))
    assert (
        line
        == "rediscipline: error: a cluster has only database 0: leave out --db (or scan one node with --no-cluster)"
    )
