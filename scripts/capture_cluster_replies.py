"""Capture what real cluster nodes answer to CLUSTER SHARDS, SLOTS, NODES and SLOT-STATS, byte for byte, into
tests/data/cluster/, for the parser tests of rediscipline.sources.live.cluster_topology.

For each installed kind that runs a cluster (redis70, valkey91, redis82) it starts a 3-master, 3-replica
cluster (tests/support/topologies.py) and walks it through the states a scan meets, saving in
`<kind>/<state>/` the raw RESP reply of each command (`shards.resp`, `slots.resp`, `nodes.resp`, ...) and
`truth.json`: what the fixture made (each shard's slots, master and replicas with ids and ports, the nodes
killed, the slot being migrated, the announced hostnames), which the tests compare the parsed replies with.
Ports and ids change at every capture; the tests read them from `truth.json`.

    python scripts/capture_cluster_replies.py [--kind redis70 ...] [--out tests/data/cluster]

States: `steady` (asked a master), `replica` (asked a replica), `refused` (an ACL user refused every CLUSTER
command), `migrating-source` / `migrating-target` / `migrating-replica` (CLUSTER SETSLOT MIGRATING / IMPORTING set,
keys not moved; asked the source, the target, the source's replica),
`migrated`, `failover` (after CLUSTER FAILOVER), `hostnames` (`cluster-preferred-endpoint-type hostname`),
`unknown-endpoint`, `killed-replica`, `takeover` (a master killed, its replica promoted with CLUSTER FAILOVER
TAKEOVER), and `tls` for Redis 7.0 (a cluster announcing TLS ports). Every server is stopped by its PID.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import hiredis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support lives in the repository, not in the installed package

from tests.support.cluster_truth import cluster_truth  # noqa: E402
from tests.support.servers import HOST, ServerProcess, available_kinds  # noqa: E402
from tests.support.topologies import Cluster, hashtag_for, start_cluster  # noqa: E402

CLUSTER_KINDS = ("redis70", "valkey91", "redis82")
DEFAULT_OUT = ROOT / "tests" / "data" / "cluster"
TOPOLOGY_COMMANDS = {"shards": ("CLUSTER", "SHARDS"), "slots": ("CLUSTER", "SLOTS"), "nodes": ("CLUSTER", "NODES")}
REFUSED_USER = ("capture-refused", "capture-password")
MIGRATED_SLOT = 100  # served by shard 0, moved to shard 1


def raw_reply(node: ServerProcess, *command: str | int, user: tuple[str, str] | None = None) -> bytes:
    """The exact bytes of the reply to one command (after AUTH as `user`), read until hiredis has one reply."""
    with socket.create_connection((HOST, node.port), timeout=10) as sock:
        if user is not None:
            _exchange(sock, ("AUTH", *user))
        return _exchange(sock, command)


def _exchange(sock: socket.socket, command: Sequence[str | int]) -> bytes:
    sock.sendall(hiredis.pack_command(tuple(command)))  # type: ignore[arg-type]
    reader = hiredis.Reader()
    received = bytearray()
    while True:
        chunk = sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        received += chunk
        reader.feed(chunk)
        if reader.gets() is not False:
            return bytes(received)


def save(folder: Path, cluster: Cluster, asked: ServerProcess, **extra: Any) -> None:
    """The three topology replies of `asked` and the fixture's truth."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, command in TOPOLOGY_COMMANDS.items():
        (folder / f"{name}.resp").write_bytes(raw_reply(asked, *command))
    write_truth(folder, cluster_truth(cluster, asked, **extra))


def write_truth(folder: Path, truth: dict[str, Any]) -> None:
    (folder / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")


def capture(kind: str, out: Path) -> None:
    base = out / kind
    shutil.rmtree(base, ignore_errors=True)
    stats = ["--cluster-slot-stats-enabled", "yes"] if kind != "redis70" else []
    with start_cluster(3, 1, kind, extra_args=stats) as cluster:
        _keys(cluster)
        save(base / "steady", cluster, cluster.shards[0].master)
        save(base / "replica", cluster, cluster.shards[0].replicas[0])
        _refused(cluster, base / "refused")
        source, target = cluster.shards[0], cluster.shards[1]
        cluster.begin_migration(MIGRATED_SLOT, target)
        move = [[MIGRATED_SLOT, cluster.node_id(source.master), cluster.node_id(target.master)]]
        save(base / "migrating-source", cluster, source.master, migrating=move)
        save(base / "migrating-target", cluster, target.master, migrating=move)
        # Valkey replicates CLUSTER SETSLOT to the replicas, which then announce their master's migration
        replica_knows = cluster.flavor == "valkey"
        save(base / "migrating-replica", cluster, source.replicas[0], migrating=move if replica_knows else [])
        cluster.finish_migration(MIGRATED_SLOT, target)
        save(base / "migrated", cluster, cluster.shards[2].master)
        cluster.failover(cluster.shards[1].replicas[0])
        save(base / "failover", cluster, cluster.shards[0].master)
        hostnames = _announce_hostnames(cluster, "hostname")
        save(base / "hostnames", cluster, cluster.shards[0].master, hostnames=hostnames, endpoint="hostname")
        _announce_hostnames(cluster, "unknown-endpoint")
        save(base / "unknown-endpoint", cluster, cluster.shards[0].master, hostnames=hostnames, endpoint="?")
        _announce_hostnames(cluster, "ip")
        cluster.kill(cluster.shards[2].replicas[0])
        save(base / "killed-replica", cluster, cluster.shards[0].master, hostnames=hostnames)
        cluster.kill(cluster.shards[0].master)
        cluster.failover(cluster.shards[0].replicas[0], "TAKEOVER")
        save(base / "takeover", cluster, cluster.shards[1].master, hostnames=hostnames)
    if kind == "redis70":
        with start_cluster(3, 1, kind, tls=True) as cluster:
            save(base / "tls", cluster, cluster.shards[0].master)


def _keys(cluster: Cluster) -> None:
    """Keys in the slot that will be migrated and in two of its neighbours, so SLOT-STATS counts something and
    MIGRATE moves keys."""
    for slot, count in ((MIGRATED_SLOT, 5), (MIGRATED_SLOT - 1, 2), (MIGRATED_SLOT + 3, 1)):
        tag = hashtag_for(slot)
        with cluster.shard_serving(slot).master.client() as client:
            for index in range(count):
                client.set(tag + b"capture:%d" % index, b"v" * index)


def _refused(cluster: Cluster, folder: Path) -> None:
    """An ACL user refused every CLUSTER subcommand: the error replies, and SLOT-STATS' own replies."""
    for server in cluster.live:
        with server.client() as client:
            client.execute_command("ACL", "SETUSER", REFUSED_USER[0], "on", f">{REFUSED_USER[1]}", "+@all", "-cluster")
    asked = cluster.shards[0].master
    folder.mkdir(parents=True, exist_ok=True)
    for name, command in TOPOLOGY_COMMANDS.items():
        (folder / f"{name}.resp").write_bytes(raw_reply(asked, *command, user=REFUSED_USER))
    slot_stats = ("CLUSTER", "SLOT-STATS", "SLOTSRANGE", MIGRATED_SLOT - 5, MIGRATED_SLOT + 5)
    (folder / "slot-stats-refused.resp").write_bytes(raw_reply(asked, *slot_stats, user=REFUSED_USER))
    (folder / "slot-stats.resp").write_bytes(raw_reply(asked, *slot_stats))
    counts = {}
    with asked.client() as client:
        for slot in range(MIGRATED_SLOT - 5, MIGRATED_SLOT + 6):
            counts[slot] = int(client.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot))
    write_truth(folder, cluster_truth(cluster, asked, keys_in_slot=counts))


def _announce_hostnames(cluster: Cluster, endpoint_type: str) -> dict[str, str]:
    """Every node announces `node-<index>.example` and prefers `endpoint_type`; returns id -> hostname."""
    hostnames = {cluster.node_id(server): f"node-{index}.example" for index, server in enumerate(cluster.nodes)}
    for server in cluster.live:
        with server.client() as client:
            client.config_set("cluster-announce-hostname", hostnames[cluster.node_id(server)])
            client.config_set("cluster-preferred-endpoint-type", endpoint_type)
    cluster.wait_hostnames(hostnames)
    return hostnames


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", action="append", choices=CLUSTER_KINDS, help="kinds to capture (default: all)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    kinds = args.kind or [kind for kind in CLUSTER_KINDS if kind in available_kinds()]
    for kind in kinds:
        capture(kind, args.out)
        print(f"{kind}: {args.out / kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
