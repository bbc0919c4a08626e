"""Which node of each shard a cluster scan reads, and how to reach it.

Every shard is read once: its master, or with `--prefer replicas` a replica that is online and in sync (the
master when none is, with a note saying why). A shard whose master the cluster marks as failed is read from a
replica that is in sync. Nodes are reached at the address the cluster announces (its TLS port when the
scan's address is `rediss://`), or where `--map` sends that address (NAT, docker port mappings), with the
credentials and TLS options of the address the scan was given.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rediscipline.model.cluster import ROLE_MASTER, ClusterNode, Shard
from rediscipline.model.note import Note, note
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_addresses import AddressMap, mapped
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.server import parse_info
from rediscipline.sources.live.url import ServerAddress
from rediscipline.sources.live.wire import LostConnection, Wire, is_error

PREFER_MASTERS = "masters"
PREFER_REPLICAS = "replicas"
PREFER = (PREFER_MASTERS, PREFER_REPLICAS)


@dataclass(frozen=True, slots=True)
class Chosen:
    """The node read for one shard: where to reach it, its role, how many keys it said it holds, and whether
    it is a replica read although it is not in sync (its master is down: it holds what it last received)."""

    shard: Shard
    node: ClusterNode
    address: ServerAddress
    keys: int | None
    stale: bool = False

    @property
    def reached(self) -> str:
        return reached(self.address)


def reached(address: ServerAddress) -> str:
    """`host:port` a node is read at (its TLS port over TLS, after `--map`): how reports name nodes and shards."""
    host = address.host or ""
    return f"[{host}]:{address.port}" if ":" in host else f"{host}:{address.port}"


@dataclass(frozen=True, slots=True)
class _Probe:
    keys: int | None = None
    in_sync: bool = True
    error: str | None = None


def node_address(seed: ServerAddress, node: ClusterNode, address_map: AddressMap) -> ServerAddress:
    """Where to reach `node`: its announced host and port (its TLS port over TLS), mapped by `--map`, with the
    seed's scheme, credentials and options; database 0 (a cluster has no other)."""
    host, port = mapped(node, address_map, tls=seed.tls)
    return replace(seed, host=host, port=port, db=None)


def choose_nodes(
    shards: tuple[Shard, ...], seed: ServerAddress, address_map: AddressMap, *, prefer: str, timeout: float
) -> tuple[list[Chosen], list[Note]]:
    """The node to read for each shard that serves slots, and notes on the choices that were not preferred."""
    chosen: list[Chosen] = []
    notes: list[Note] = []
    for shard in shards:
        master = shard.master
        if master is None or not shard.slots:
            continue
        master_failed = master.health != "online"
        if master_failed:  # a replica is all there is: read one even if its link to the dead master is down
            candidates = list(shard.healthy_replicas)
        elif prefer == PREFER_REPLICAS:
            candidates = [*shard.healthy_replicas, master]
        else:
            candidates = [master]
        picked: Chosen | None = None
        refused: list[tuple[str, str]] = []
        for node in candidates:
            address = node_address(seed, node, address_map)
            probe = _probe(address, node, timeout)
            if probe.error is None and (probe.in_sync or master_failed):
                picked = Chosen(shard, node, address, probe.keys, stale=not probe.in_sync)
                break
            refused.append((reached(address), probe.error or "not in sync with its master"))
        named = reached(node_address(seed, master, address_map))
        if picked is None:  # nothing answered: the job reports the error of the node that should have been read
            node = shard.replicas[0] if master_failed and shard.replicas else master
            picked = Chosen(shard, node, node_address(seed, node, address_map), None)
        elif master_failed:
            notes.append(note("cluster-master-failed", shard=named, replica=picked.reached))
        elif prefer == PREFER_REPLICAS and picked.node.role == ROLE_MASTER:
            why = "; ".join(f"{where}: {reason}" for where, reason in refused) or "it has no replica online"
            notes.append(note("cluster-replica-fallback", shard=named, reason=why))
        chosen.append(picked)
    return chosen, notes


def _probe(address: ServerAddress, node: ClusterNode, timeout: float) -> _Probe:
    """Connect to a node once: how many keys it holds (DBSIZE) and, for a replica, whether it is in sync."""
    try:
        wire = Wire(open_connection(address, timeout))
    except SourceError as error:
        return _Probe(error=str(error))
    try:
        size = wire.call(b"DBSIZE")
        keys = size if isinstance(size, int) else None
        if node.role == ROLE_MASTER:
            return _Probe(keys)
        reply = wire.call(b"INFO", b"replication")
        if is_error(reply) or not isinstance(reply, bytes):
            return _Probe(keys)  # INFO refused: the scan itself will tell
        info = parse_info(reply)
        return _Probe(keys, info.get("master_link_status", "up") == "up" and info.get("master_sync_in_progress") != "1")
    except LostConnection as error:
        return _Probe(error=f"lost the connection to {address.display}: {error}")
    finally:
        wire.close()


__all__ = ["PREFER", "PREFER_MASTERS", "PREFER_REPLICAS", "Chosen", "choose_nodes", "node_address", "reached"]
