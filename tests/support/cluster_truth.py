"""What a cluster node must be read as: the shards a `Cluster` fixture made, written down (`cluster_truth`, a
JSON-able dict saved beside the captured replies in tests/data/cluster/) and turned into the exact `Shard`s
each command's reply holds (`expected_shards`).

The expectation follows what each command documents, never the parser under test: SHARDS names every node
with its health (a failed master replaced by its replica stays in its shard since Redis 7.2 and Valkey, which
have shard ids; Redis 7.0 lists it as a shard of its own without slots); SLOTS lists the masters serving
slots and the replicas not failed, without health; NODES lists every node with its ip (never a hostname)
and flags; SLOTS read together with NODES gets health, failed replicas and slot-less masters from NODES.
"""

from __future__ import annotations

from typing import Any

from rediscipline.model.cluster import ROLE_MASTER, ROLE_REPLICA, ClusterNode, Shard
from rediscipline.sources.live.cluster_topology import NODES, SHARDS, SLOTS
from tests.support.servers import HOST, ServerProcess
from tests.support.topologies import Cluster


def cluster_truth(cluster: Cluster, asked: ServerProcess, **extra: Any) -> dict[str, Any]:
    """The fixture's shards, the node asked and the nodes killed, as JSON-able data.

    `extra`: `migrating` ([slot, from id, to id] the asked node announces), `hostnames` (id -> announced
    hostname) and `endpoint` (`ip`, `hostname` or `?`: cluster-preferred-endpoint-type).
    """

    def node(server: ServerProcess) -> dict[str, Any]:
        return {"id": cluster.node_id(server), "port": server.port, "tls_port": server.tls_port}

    return {
        "kind": cluster.kind,
        "flavor": cluster.flavor,
        "version": asked.version,
        "asked": node(asked),
        "killed": {cluster.node_id(server): cluster.killed_as[server.port] for server in cluster.killed},
        "shards": [
            {
                "slots": [list(pair) for pair in shard.slots],
                "master": node(shard.master),
                "replicas": [node(replica) for replica in shard.replicas],
                "shard_id": cluster.my_shard_id(shard.master) if cluster.flavor == "valkey" else None,
            }
            for shard in cluster.shards
        ],
        "migrating": [],
        "hostnames": {},
        "endpoint": "ip",
        **extra,
    }


def expected_shards(truth: dict[str, Any], read_with: str, nodes_read: bool = True) -> tuple[Shard, ...]:
    """The shards a reply of `read_with` (with CLUSTER NODES also read, when `nodes_read`) describes."""
    killed: dict[str, str] = truth["killed"]
    with_health = read_with != SLOTS or nodes_read
    shards: list[Shard] = []
    for entry in truth["shards"]:
        master_id = entry["master"]["id"]
        shard_id = entry["shard_id"] if read_with == SHARDS and entry["shard_id"] else master_id
        replicas = []
        for replica in entry["replicas"]:
            node_id = replica["id"]
            if killed.get(node_id) == ROLE_MASTER:  # a failed master its replica replaced
                failed = _node(truth, replica, read_with, ROLE_MASTER, with_health)
                if read_with == SHARDS and _has_shard_ids(truth):
                    replicas.append(failed)
                elif read_with != SLOTS or nodes_read:
                    from_nodes = _node(truth, replica, NODES, ROLE_MASTER, True) if read_with != SHARDS else failed
                    shards.append(Shard(node_id, (), from_nodes))
                continue
            if node_id in killed and read_with == SLOTS:  # SLOTS leaves failed replicas out; NODES has them
                if nodes_read:
                    replicas.append(_node(truth, replica, NODES, ROLE_REPLICA, True))
                continue
            replicas.append(_node(truth, replica, read_with, ROLE_REPLICA, with_health))
        master = _node(truth, entry["master"], read_with, ROLE_MASTER, with_health)
        slots = tuple((first, last) for first, last in entry["slots"])
        shards.append(Shard(shard_id, slots, master, _by_address(replicas)))
    return tuple(sorted(shards, key=_order))


def expected_migrating(truth: dict[str, Any], nodes_read: bool = True) -> tuple[tuple[int, str, str], ...]:
    return tuple(sorted(tuple(entry) for entry in truth["migrating"])) if nodes_read else ()


def _node(truth: dict[str, Any], node: dict[str, Any], read_with: str, role: str, with_health: bool) -> ClusterNode:
    node_id = node["id"]
    host = HOST
    if read_with != NODES and truth["endpoint"] == "hostname":
        host = truth["hostnames"][node_id]
    health = "failed" if with_health and node_id in truth["killed"] else "online"
    tls_port = node["tls_port"] if read_with == SHARDS else None
    return ClusterNode(node_id, host, node["port"], role, health, tls_port)


def _has_shard_ids(truth: dict[str, Any]) -> bool:
    """Redis 7.2+ and Valkey keep a node's shard id; Redis 7.0 groups CLUSTER SHARDS by master."""
    major, minor = (int(part) for part in truth["version"].split(".")[:2])
    return truth["flavor"] == "valkey" or (major, minor) >= (7, 2)


def _by_address(nodes: list[ClusterNode]) -> tuple[ClusterNode, ...]:
    return tuple(sorted(nodes, key=lambda node: (node.host, node.port, node.node_id)))


def _order(shard: Shard) -> tuple[bool, int, str, int]:
    node = shard.master
    return (
        not shard.slots,
        shard.slots[0][0] if shard.slots else 0,
        node.host if node else "",
        node.port if node else 0,
    )
