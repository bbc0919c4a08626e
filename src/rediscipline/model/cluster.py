"""A Redis Cluster as a scan sees it: its shards (slot ranges, master, replicas) as the cluster announces
them, and what was found on each shard and in each slot, for the cluster rules (CLU) and the report.

`Topology` is what a node answered about its cluster (`CLUSTER SHARDS`, else `CLUSTER SLOTS` and `CLUSTER
NODES`); `ClusterView` is what the whole run found, one `ShardStat` per shard, built at the end of a run from
the merged results of every shard's scan.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.location import Location

#: Hash slots of every Redis Cluster.
CLUSTER_SLOTS = 16384

ROLE_MASTER = "master"
ROLE_REPLICA = "replica"

#: How the scan of one shard ended: every key read; stopped part way (a node died, a failover); never read.
SHARD_COMPLETE = "complete"
SHARD_PARTIAL = "partial"
SHARD_FAILED = "failed"

#: Where the per-slot key counts come from: the keys the scan read, or the server's own CLUSTER SLOT-STATS.
SLOTS_FROM_SCAN = "scan"
SLOTS_FROM_SERVER = "CLUSTER SLOT-STATS"

SlotRange = tuple[int, int]  # first and last slot, inclusive

#: Slots (and hashtags) a view keeps by each of its figures: keys, memory, CPU time, network bytes.
SLOTS_KEPT = 20


@dataclass(frozen=True, slots=True)
class ClusterNode:
    """One node as the cluster announces it. `host` is the announced endpoint (an IP or a hostname) as given,
    before any `--map`; `health` is `online`, `loading` or `failed` (CLUSTER SHARDS' words; NODES' `fail`
    and `pfail` flags read as `failed`)."""

    node_id: str
    host: str
    port: int
    role: str
    health: str = "online"
    tls_port: int | None = None

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


@dataclass(frozen=True, slots=True)
class Shard:
    """A master and its replicas, with the slots the master serves (sorted inclusive ranges).

    `shard_id` is the cluster's shard id (7.2+ `CLUSTER SHARDS`), else the master's node id.
    """

    shard_id: str
    slots: tuple[SlotRange, ...]
    master: ClusterNode | None
    replicas: tuple[ClusterNode, ...] = ()

    @property
    def slot_count(self) -> int:
        return sum(last - first + 1 for first, last in self.slots)

    @property
    def healthy_replicas(self) -> tuple[ClusterNode, ...]:
        return tuple(node for node in self.replicas if node.health == "online")


@dataclass(frozen=True, slots=True)
class Topology:
    """A cluster's shards as one node described them (shards serving slots first, by their first slot).

    `read_with` names the command that answered; `refused` the commands refused before it, with the server's
    words (made inert and bounded), and `CLUSTER NODES` when it was refused after SHARDS or SLOTS answered
    (migrations are then unknown); `migrating` the slots a node announced as migrating or importing, as
    (slot, from node id, to node id), from its CLUSTER NODES.
    """

    shards: tuple[Shard, ...]
    read_with: str
    refused: tuple[tuple[str, str], ...] = ()
    migrating: tuple[tuple[int, str, str], ...] = ()

    @property
    def uncovered(self) -> int:
        """Slots no master serves (the cluster is down for their keys)."""
        return CLUSTER_SLOTS - sum(shard.slot_count for shard in self.shards if shard.master is not None)


@dataclass(frozen=True, slots=True)
class ShardStat:
    """What the run found on one shard.

    * `address`: the node that was scanned (after `--map`), `scanned_role` whether it was the master or a
      replica; `replicas`: the shard's replicas that are online;
    * `keys` and `memory`: the keys the scan read and their memory (None when memory was not measured);
      `server_keys` and `used_memory`: what the node's INFO said (None when refused);
    * `config`: the settings the cluster rules compare between shards, as (name, value), when CONFIG GET
      was read;
    * `status`: `complete`, `partial` or `failed`, with `missed` saying what could not be read and why;
    * `cpu_usec` and `network_bytes`: CLUSTER SLOT-STATS' figures summed over the shard's slots (Redis 8+,
      with `cluster-slot-stats-enabled`), None when the server did not give them for every slot.
    """

    shard_id: str
    address: str
    scanned_role: str
    slots: tuple[SlotRange, ...]
    replicas: int
    keys: int = 0
    memory: int | None = None
    server_keys: int | None = None
    used_memory: int | None = None
    maxmemory: int | None = None
    config: tuple[tuple[str, str], ...] = ()
    status: str = SHARD_COMPLETE
    missed: str | None = None
    cpu_usec: int | None = None
    network_bytes: int | None = None

    @property
    def slot_count(self) -> int:
        return sum(last - first + 1 for first, last in self.slots)


@dataclass(frozen=True, slots=True)
class SlotStat:
    """One hash slot: the keys in it and their memory, and the shard (index in `ClusterView.shards`) serving it.

    `cpu_usec` and `network_bytes` are CLUSTER SLOT-STATS' figures when the server gave them (Redis 8+).
    """

    slot: int
    shard: int | None
    keys: int
    memory: int | None = None
    cpu_usec: int | None = None
    network_bytes: int | None = None


@dataclass(frozen=True, slots=True)
class HashtagStat:
    """The keys sharing one hashtag (so one slot), their memory and the shard serving that slot."""

    tag: bytes
    slot: int
    shard: int | None
    keys: int
    memory: int | None = None


@dataclass(frozen=True, slots=True)
class ClusterView:
    """The whole cluster as the run found it, for the CLU rules and the report's shards table.

    `slots` holds the busiest slots (by keys and by memory, bounded) and `hashtags` the biggest hashtags;
    `slots_from` says whether slot key counts come from the scan or from the server. `sample_rate` is set
    when the keys were a random sample (counts are then of the sample). `origin` is where the cluster's
    findings are (the address the scan was given).
    """

    shards: tuple[ShardStat, ...]
    slots: tuple[SlotStat, ...] = ()
    hashtags: tuple[HashtagStat, ...] = ()
    slots_from: str = SLOTS_FROM_SCAN
    sample_rate: float | None = None
    uncovered_slots: int = 0
    origin: Location | None = None

    def shard_serving(self, slot: int) -> ShardStat | None:
        """The shard that served `slot` during the scan, if any did."""
        for shard in self.shards:
            if any(first <= slot <= last for first, last in shard.slots):
                return shard
        return None


__all__ = [
    "CLUSTER_SLOTS",
    "ROLE_MASTER",
    "ROLE_REPLICA",
    "SHARD_COMPLETE",
    "SHARD_FAILED",
    "SHARD_PARTIAL",
    "SLOTS_FROM_SCAN",
    "SLOTS_FROM_SERVER",
    "SLOTS_KEPT",
    "ClusterNode",
    "ClusterView",
    "HashtagStat",
    "Shard",
    "ShardStat",
    "SlotRange",
    "SlotStat",
    "Topology",
]
