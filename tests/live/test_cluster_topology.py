"""Reading a cluster's topology from each of its nodes, on real 3-master, 3-replica clusters of every kind that
runs one: the exact shards from every node, the fallbacks an ACL user meets, slot statistics, and what a
migration, a failover and a dead replica look like. One cluster per kind serves the module; every change goes
through the fixture, which keeps the truth the readings are compared with (tests/support/cluster_truth.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from rediscipline.model.cluster import ROLE_MASTER, ROLE_REPLICA, Topology
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_topology import (
    NODES,
    SHARDS,
    SLOTS,
    is_cluster,
    read_slot_stats,
    read_topology,
)
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.server import parse_info
from rediscipline.sources.live.topology import hello_info
from rediscipline.sources.live.url import parse_address
from rediscipline.sources.live.wire import Wire
from tests.support.cluster_truth import cluster_truth, expected_migrating, expected_shards
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess
from tests.support.topologies import Cluster, ClusterShard, hashtag_for, start_cluster

CLUSTER_KINDS = ("redis70", "valkey91", "redis82")
PASSWORD = "topology-test-password"
NOTICE_DEADLINE = 60.0


@pytest.fixture(scope="module", params=CLUSTER_KINDS)
def cluster(request: pytest.FixtureRequest) -> Iterator[Cluster]:
    require_kind(request.param)
    with start_cluster(3, 1, request.param) as started:
        yield started


@contextmanager
def wire_to(node: ServerProcess, user: str | None = None) -> Iterator[Wire]:
    password = PASSWORD if user is not None else None
    wire = Wire(open_connection(parse_address(node.url_for(user, password)), timeout=10))
    try:
        yield wire
    finally:
        wire.close()


def read(node: ServerProcess, user: str | None = None) -> Topology:
    with wire_to(node, user) as wire:
        return read_topology(wire, node.url)


def add_user(cluster: Cluster, name: str, *rules: str) -> str:
    """An ACL user on every live node: everything allowed but `rules` (`-cluster|shards`, ...)."""
    for node in cluster.live:
        with node.client() as client:
            client.execute_command("ACL", "SETUSER", name, "reset", "on", f">{PASSWORD}", "~*", "&*", "+@all", *rules)
    return name


def noperm(cluster: Cluster, user: str, command: str) -> str:
    """The server's words refusing `command` to `user` (Redis 7.0 does not name the user)."""
    who = "this user" if cluster.kind == "redis70" else f"User {user}"
    return f"NOPERM {who} has no permissions to run the '{command.lower().replace(' ', '|')}' command"


def healthy_shard(cluster: Cluster) -> ClusterShard:
    """A shard whose master and replica are both alive."""
    return next(
        shard
        for shard in cluster.shards
        if shard.master not in cluster.killed and any(node not in cluster.killed for node in shard.replicas)
    )


# ---- reading ------------------------------------------------------------------------------------------------------


def test_every_node_reads_the_same_shards(cluster: Cluster) -> None:
    shard_ids = set()
    for node in cluster.live:
        topology = read(node)
        truth = cluster_truth(cluster, node)
        assert topology == Topology(expected_shards(truth, SHARDS), SHARDS), node.port
        shard_ids.add(tuple(shard.shard_id for shard in topology.shards))
        assert len(topology.shards) == 3 and topology.uncovered == 0
        for shard, made in zip(topology.shards, cluster.shards, strict=True):
            assert shard.master is not None and shard.master.port == made.master.port
            assert shard.master.role == ROLE_MASTER and shard.master.health == "online"
            assert [(n.port, n.role) for n in shard.replicas] == [(n.port, ROLE_REPLICA) for n in made.replicas]
    assert len(shard_ids) == 1, shard_ids


def test_shards_refused_falls_back_to_slots_and_nodes(cluster: Cluster) -> None:
    user = add_user(cluster, "no-shards", "-cluster|shards")
    for node in cluster.live:
        topology = read(node, user)
        truth = cluster_truth(cluster, node)
        assert topology == Topology(
            expected_shards(truth, SLOTS, nodes_read=True), SLOTS, ((SHARDS, noperm(cluster, user, SHARDS)),)
        )


def test_slots_alone(cluster: Cluster) -> None:
    user = add_user(cluster, "slots-only", "-cluster|shards", "-cluster|nodes")
    node = cluster.live[0]
    refused = ((SHARDS, noperm(cluster, user, SHARDS)), (NODES, noperm(cluster, user, NODES)))
    assert read(node, user) == Topology(
        expected_shards(cluster_truth(cluster, node), SLOTS, nodes_read=False), SLOTS, refused
    )


def test_nodes_alone(cluster: Cluster) -> None:
    user = add_user(cluster, "nodes-only", "-cluster|shards", "-cluster|slots")
    node = cluster.live[-1]
    refused = ((SHARDS, noperm(cluster, user, SHARDS)), (SLOTS, noperm(cluster, user, SLOTS)))
    assert read(node, user) == Topology(expected_shards(cluster_truth(cluster, node), NODES), NODES, refused)


def test_every_command_refused_is_one_line(cluster: Cluster) -> None:
    user = add_user(cluster, "no-cluster", "-cluster")
    node = cluster.live[0]
    with pytest.raises(SourceError) as caught:
        read(node, user)
    assert str(caught.value) == (
        f"{node.url} refused every command that describes its cluster: "
        f"CLUSTER SHARDS ({noperm(cluster, user, SHARDS)}); "
        f"CLUSTER SLOTS ({noperm(cluster, user, SLOTS)}); "
        f"CLUSTER NODES ({noperm(cluster, user, NODES)})"
    )


def test_cluster_mode_is_recognised(cluster: Cluster, redis70: ServerProcess) -> None:
    with wire_to(cluster.live[0]) as wire:
        assert is_cluster(parse_info(wire.call(b"INFO", b"cluster")))
        assert is_cluster(hello_info(wire))  # redis_mode:cluster, for a user refused INFO
    with wire_to(redis70) as wire:
        assert not is_cluster(parse_info(wire.call(b"INFO", b"cluster")))
        assert not is_cluster(hello_info(wire))


# ---- CLUSTER SLOT-STATS -------------------------------------------------------------------------------------------


def test_slot_stats(cluster: Cluster) -> None:
    shard = healthy_shard(cluster)
    first = shard.slots[0][0]
    counts = {first: 3, first + 1500: 2}  # the second chunk of SLOT_STATS_CHUNK slots, too
    names = [hashtag_for(slot) + b":key:%d" % index for slot, count in counts.items() for index in range(count)]
    with shard.master.client() as client:
        for name in names:
            client.set(name, b"v")
    try:
        with wire_to(shard.master) as wire:
            stats = read_slot_stats(wire, shard.slots)
        if cluster.kind == "redis70":  # no CLUSTER SLOT-STATS before Redis 8
            assert stats is None
            return
        assert stats is not None
        assert sorted(stats) == [slot for low, high in shard.slots for slot in range(low, high + 1)]
        assert {slot: keys for slot, (keys, _cpu, _net) in stats.items() if keys} == counts
        assert stats[first][1:] == (None, None)  # cpu and network are collected only when enabled
        with shard.master.client() as client:
            client.config_set("cluster-slot-stats-enabled", "yes")
            client.get(names[0])
        with wire_to(shard.master) as wire:
            enabled = read_slot_stats(wire, [(first, first)])
        assert enabled is not None and set(enabled) == {first}
        keys, cpu, network = enabled[first]
        assert keys == 3 and cpu is not None and network is not None and network > 0
        user = add_user(cluster, "no-slot-stats", "-cluster|slot-stats")
        with wire_to(shard.master, user) as wire:
            assert read_slot_stats(wire, shard.slots) is None
    finally:
        with shard.master.client() as client:
            for name in names:
                client.delete(name)
            if cluster.kind != "redis70":
                client.config_set("cluster-slot-stats-enabled", "no")


# ---- changes: a migration, a failover, a dead replica (in this order: the cluster is shared) ----------------------


def test_migration_in_progress_and_done(cluster: Cluster) -> None:
    source = healthy_shard(cluster)
    target = next(shard for shard in cluster.shards if shard is not source and shard.master not in cluster.killed)
    slot = source.slots[0][0] + 7
    with source.master.client() as client:
        client.set(hashtag_for(slot) + b":moving", b"v")
    move = [[slot, cluster.node_id(source.master), cluster.node_id(target.master)]]
    cluster.begin_migration(slot, target)
    try:
        for node in (source.master, target.master):
            truth = cluster_truth(cluster, node, migrating=move)
            topology = read(node)
            assert topology.migrating == expected_migrating(truth) == ((slot, *move[0][1:]),)
            assert topology.shards == expected_shards(truth, SHARDS)  # the slot is the source's until SETSLOT NODE
        # Valkey replicates CLUSTER SETSLOT to the replicas; Redis tells the two masters alone
        replica_knows = cluster.flavor == "valkey"
        assert read(source.replicas[0]).migrating == (expected_migrating(truth) if replica_knows else ())
        bystander = next(shard.master for shard in cluster.shards if shard not in (source, target))
        assert read(bystander).migrating == ()
    finally:
        cluster.finish_migration(slot, target)
    for node in cluster.live:
        topology = read(node)
        assert topology.migrating == ()
        assert topology.shards == expected_shards(cluster_truth(cluster, node), SHARDS)
        moved = next(shard for shard in topology.shards if shard.master and shard.master.port == target.master.port)
        assert (slot, slot) in moved.slots


def test_a_slot_moves_with_its_keys(cluster: Cluster) -> None:
    """The fixture's whole migration (`redis-cli --cluster reshard` for one slot): keys follow the slot."""
    source = healthy_shard(cluster)
    target = next(shard for shard in cluster.shards if shard is not source and shard.master not in cluster.killed)
    slot = source.slots[-1][1]
    names = [hashtag_for(slot) + b":%d" % index for index in range(150)]  # MIGRATE moves 100 at a time
    for name in names:
        with cluster.master_for(name).client() as client:
            client.set(name, name)
    cluster.migrate_slot(slot, target)
    assert all(cluster.master_for(name) is target.master for name in names)
    with target.master.client() as client:
        assert [client.get(name) for name in names] == names
    with source.master.client() as client:
        assert client.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0
    for node in cluster.live:
        assert read(node).shards == expected_shards(cluster_truth(cluster, node), SHARDS)


def test_roles_swap_after_a_failover(cluster: Cluster) -> None:
    shard = healthy_shard(cluster)
    old_master, replica = shard.master, shard.replicas[0]
    cluster.failover(replica)
    for node in cluster.live:
        topology = read(node)
        assert topology.shards == expected_shards(cluster_truth(cluster, node), SHARDS)
        read_shard = next(s for s in topology.shards if s.slots == tuple(shard.slots))
        assert read_shard.master is not None and read_shard.master.port == replica.port
        assert [(n.port, n.role) for n in read_shard.replicas] == [(old_master.port, ROLE_REPLICA)]


def test_a_killed_replica_reads_as_failed(cluster: Cluster) -> None:
    shard = healthy_shard(cluster)
    victim = next(node for node in shard.replicas if node not in cluster.killed)
    victim_id = cluster.node_id(victim)
    cluster.kill(victim, timeout=NOTICE_DEADLINE)  # returns once every live node flags it `fail`
    node = shard.master
    deadline = time.monotonic() + NOTICE_DEADLINE
    while True:
        topology = read(node)
        health = {n.node_id: n.health for s in topology.shards for n in s.replicas}
        if health.get(victim_id) == "failed" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert health[victim_id] == "failed"
    read_shard = next(s for s in topology.shards if s.slots == tuple(shard.slots))
    assert victim_id not in {n.node_id for n in read_shard.healthy_replicas}
    truth = cluster_truth(cluster, node)
    assert topology.shards == expected_shards(truth, SHARDS)
    # CLUSTER SLOTS leaves a failed replica out; NODES, read with it, puts it back as failed
    user = add_user(cluster, "no-shards-after-kill", "-cluster|shards")
    assert read(node, user).shards == expected_shards(truth, SLOTS, nodes_read=True)
    user = add_user(cluster, "slots-only-after-kill", "-cluster|shards", "-cluster|nodes")
    slots_only = read(node, user).shards
    assert slots_only == expected_shards(truth, SLOTS, nodes_read=False)
    assert victim_id not in {n.node_id for s in slots_only for n in s.replicas}
