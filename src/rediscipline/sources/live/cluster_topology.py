"""A Redis Cluster's shards as one of its nodes describes them, read over the raw wire.

`CLUSTER SHARDS` (Redis 7.0+, Valkey) says everything: slot ranges, every node with its announced endpoint,
ports, role and health, and on Valkey the shard id. A user or a managed service may refuse it (an ACL user
without `cluster|shards`, a renamed command), so `CLUSTER SLOTS` comes next (slot ranges and the nodes
serving them, no health and no failed replicas), then `CLUSTER NODES` (text: flags, masters, slots). NODES is
read as well when one of the others answered, when the user may run it: only it tells which slots are being
migrated, and after SLOTS it gives what SLOTS leaves out (health, failed replicas, masters without slots).

Every command here is read-only and O(nodes). A refusal is recorded with the server's words and the next
command is tried; a reply of an unexpected shape counts as a refusal too, so a proxy that answers oddly
falls back instead of failing. The replies are RESP2 (the connection's protocol): maps arrive as flat
key/value lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rediscipline.model.cluster import ROLE_MASTER, ROLE_REPLICA, ClusterNode, Shard, SlotRange, Topology
from rediscipline.model.display import display_text
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_addresses import AddressMap, mapped, normal_host, parse_address_map
from rediscipline.sources.live.wire import Wire, is_error

# The cluster source reads topology, addresses, cluster mode and slot statistics through this one module.
__all__ = [
    "NODES",
    "SHARDS",
    "SLOTS",
    "AddressMap",
    "NodesView",
    "is_cluster",
    "mapped",
    "merge_ranges",
    "normal_host",
    "parse_address_map",
    "parse_nodes",
    "parse_shards",
    "parse_slot_stats",
    "parse_slots",
    "read_slot_stats",
    "read_topology",
    "topology_from_replies",
]

SHARDS = "CLUSTER SHARDS"
SLOTS = "CLUSTER SLOTS"
NODES = "CLUSTER NODES"

HEALTH_ONLINE = "online"
HEALTH_FAILED = "failed"

#: Slots asked of CLUSTER SLOT-STATS per command (its reply is a few dozen bytes per slot).
SLOT_STATS_CHUNK = 1024
#: Characters of the server's words kept for a refused command.
REFUSAL_LIMIT = 200

_NODES_FLAGS_FAILED = frozenset({"fail", "fail?"})
_UNKNOWN_ENDPOINT = ("", "?")


class _Unreadable(Exception):
    """A reply that is not the shape the command documents."""


# ---- reading ------------------------------------------------------------------------------------------------------


def read_topology(wire: Wire, where: str = "the node") -> Topology:
    """The cluster's shards as the node on `wire` describes them (see the module docstring).

    Sends `CLUSTER SHARDS`, `CLUSTER SLOTS` only when SHARDS was refused, and `CLUSTER NODES`. Raises
    SourceError (one line naming `where` and each refused command with the server's words) when none answers.
    """
    replies: dict[str, Any] = {SHARDS: wire.call(b"CLUSTER", b"SHARDS")}
    if _refusal(SHARDS, replies[SHARDS]) is not None:
        replies[SLOTS] = wire.call(b"CLUSTER", b"SLOTS")
    replies[NODES] = wire.call(b"CLUSTER", b"NODES")
    return topology_from_replies(replies, where)


def topology_from_replies(replies: Mapping[str, Any], where: str = "the node") -> Topology:
    """The topology from the replies of SHARDS, SLOTS and NODES (any may be missing, or an error reply)."""
    refused: list[tuple[str, str]] = []
    shards = _parsed(SHARDS, replies, parse_shards, refused)
    slots = _parsed(SLOTS, replies, parse_slots, refused) if shards is None else None
    nodes = _parsed(NODES, replies, parse_nodes, refused)
    if shards is not None:
        return Topology(shards, SHARDS, tuple(refused), nodes.migrating if nodes else ())
    if slots is not None:
        merged = slots if nodes is None else _completed(slots, nodes)
        return Topology(merged, SLOTS, tuple(refused), nodes.migrating if nodes else ())
    if nodes is not None:
        return Topology(nodes.shards, NODES, tuple(refused), nodes.migrating)
    words = "; ".join(f"{command} ({reason})" for command, reason in refused)
    raise SourceError(f"{where} refused every command that describes its cluster: {words}")


def _parsed(command: str, replies: Mapping[str, Any], parse: Any, refused: list[tuple[str, str]]) -> Any:
    if command not in replies:
        return None
    reply = replies[command]
    reason = _refusal(command, reply)
    if reason is None:
        try:
            return parse(reply)
        except (_Unreadable, ValueError, TypeError, IndexError, KeyError) as error:
            reason = f"unreadable reply: {error}"
    refused.append((command, display_text(reason, REFUSAL_LIMIT)))
    return None


def _refusal(command: str, reply: Any) -> str | None:
    if is_error(reply):
        return str(reply) or "error"
    expected = bytes if command == NODES else list
    return None if isinstance(reply, expected) else f"unreadable reply: {type(reply).__name__}"


# ---- CLUSTER SHARDS -----------------------------------------------------------------------------------------------


def parse_shards(reply: Any) -> tuple[Shard, ...]:
    """`CLUSTER SHARDS`: per shard `slots` (a flat list of first/last pairs), `nodes` (maps of id, port,
    tls-port, ip, endpoint, hostname, role, health) and, on Valkey, `id` (the shard id).

    When a failed master stays listed beside the one that replaced it (Valkey keeps both in the shard), the
    online one is the shard's master and the other is listed with the replicas, role `master`, health failed.
    """
    shards = []
    for entry in _list(reply):
        fields = _fields(entry)
        bounds = [_int(value) for value in _list(fields.get("slots", []))]
        if len(bounds) % 2:
            raise _Unreadable("an odd number of slot bounds")
        nodes = [_shards_node(_fields(node)) for node in _list(fields.get("nodes", []))]
        if not nodes:
            continue
        masters = sorted((node for node in nodes if node.role == ROLE_MASTER), key=lambda n: n.health != HEALTH_ONLINE)
        master = masters[0] if masters else None
        shard_id = _text(fields.get("shard-id") or fields.get("id") or b"") or (master or nodes[0]).node_id
        others = tuple(node for node in nodes if node is not master)
        ranges = tuple(zip(bounds[::2], bounds[1::2], strict=True))
        shards.append(Shard(shard_id, merge_ranges(ranges), master, _by_address(others)))
    return _ordered(shards)


def _shards_node(fields: dict[str, Any]) -> ClusterNode:
    endpoint = _text(fields.get("endpoint", b""))
    host = endpoint if endpoint not in _UNKNOWN_ENDPOINT else _text(fields.get("ip") or fields.get("hostname") or b"")
    tls_port = _int(fields["tls-port"]) if "tls-port" in fields else None
    port = _int(fields.get("port", 0)) or tls_port
    if port is None:
        raise _Unreadable("a node without a port")
    role = ROLE_MASTER if _text(fields.get("role", b"")) == "master" else ROLE_REPLICA
    health = _text(fields.get("health", HEALTH_ONLINE.encode()))
    return ClusterNode(_text(fields["id"]), host, port, role, _health(health), tls_port)


# ---- CLUSTER SLOTS ------------------------------------------------------------------------------------------------


def parse_slots(reply: Any) -> tuple[Shard, ...]:
    """`CLUSTER SLOTS`: per range [first, last, master, replica...], each node [endpoint, port, id, metadata]
    (metadata since 7.0: `ip`, `hostname`). Ranges of one master are one shard, its id the master's id.

    SLOTS lists no health (every node reads online), no failed replica and no master without slots.
    """
    by_master: dict[str, tuple[list[SlotRange], ClusterNode, dict[str, ClusterNode]]] = {}
    for entry in _list(reply):
        items = _list(entry)
        first, last = _int(items[0]), _int(items[1])
        nodes = [
            _slots_node(_list(node), ROLE_MASTER if index == 0 else ROLE_REPLICA)
            for index, node in enumerate(items[2:])
        ]
        if not nodes:
            raise _Unreadable(f"slots {first}-{last} without a master")
        ranges, _master, replicas = by_master.setdefault(nodes[0].node_id, ([], nodes[0], {}))
        ranges.append((first, last))
        replicas.update((node.node_id, node) for node in nodes[1:])
    shards = [
        Shard(master.node_id, merge_ranges(ranges), master, _by_address(replicas.values()))
        for ranges, master, replicas in by_master.values()
    ]
    return _ordered(shards)


def _slots_node(items: list[Any], role: str) -> ClusterNode:
    port = _int(items[1])
    metadata = _fields(items[3]) if len(items) > 3 else {}
    endpoint = _text(items[0]) if items[0] is not None else ""
    if endpoint in _UNKNOWN_ENDPOINT:
        endpoint = _text(metadata.get("ip") or metadata.get("hostname") or b"")
    node_id = _text(items[2]) if len(items) > 2 else f"{endpoint}:{port}"  # before Redis 4.0: no ids
    return ClusterNode(node_id, endpoint, port, role)


# ---- CLUSTER NODES ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodesView:
    """`CLUSTER NODES` read: the shards (one per master, its id the master's id), every node by id, and the
    slots the answering node (`myself`) is migrating or importing."""

    shards: tuple[Shard, ...]
    nodes: dict[str, ClusterNode] = field(default_factory=dict)
    migrating: tuple[tuple[int, str, str], ...] = ()


_MIGRATING = re.compile(r"\[(\d+)->-([0-9a-fA-F]+)\]")
_IMPORTING = re.compile(r"\[(\d+)-<-([0-9a-fA-F]+)\]")


def parse_nodes(reply: bytes) -> NodesView:
    """`CLUSTER NODES`: a line per node, `id ip:port@cport[,hostname] flags master ping pong epoch link
    slot...`. Nodes in handshake are left out (their ids are temporary); `fail` and `fail?` read as failed;
    `noaddr` keeps the node with an empty host. Slots are `first-last` or a single slot; `[slot->-id]` (this
    node migrating a slot to id) and `[slot-<-id]` (importing from id) appear on the `myself` line only, and
    on Valkey also on its replicas' (SETSLOT is replicated), which name their master's migration.
    """
    nodes: dict[str, ClusterNode] = {}
    slots: dict[str, list[SlotRange]] = {}
    masters_of: dict[str, str] = {}
    migrating: set[tuple[int, str, str]] = set()
    for line in reply.decode("utf-8", "replace").splitlines():
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 8:
            raise _Unreadable(f"a line of {len(fields)} fields")
        node_id, address, flags = fields[0], fields[1], set(fields[2].split(","))
        if "handshake" in flags:
            continue
        host, port, tls_port = _nodes_address(address)
        role = ROLE_MASTER if "master" in flags else ROLE_REPLICA
        health = HEALTH_FAILED if flags & _NODES_FLAGS_FAILED else HEALTH_ONLINE
        nodes[node_id] = ClusterNode(node_id, host, port, role, health, tls_port)
        if role == ROLE_MASTER:
            slots[node_id] = []
        elif fields[3] != "-":
            masters_of[node_id] = fields[3]
        for token in fields[8:]:
            if token.startswith("["):
                if "myself" in flags:
                    migrating.update(_migration(token, node_id if role == ROLE_MASTER else fields[3]))
                continue
            first, _sep, last = token.partition("-")
            slots.setdefault(node_id, []).append((int(first), int(last or first)))
    shards = []
    for master_id, ranges in slots.items():
        replicas = (nodes[node_id] for node_id, of in masters_of.items() if of == master_id)
        shards.append(Shard(master_id, merge_ranges(ranges), nodes.get(master_id), _by_address(replicas)))
    for master_id in sorted(set(masters_of.values()) - set(slots)):  # a replica of a master not listed
        replicas = (nodes[node_id] for node_id, of in masters_of.items() if of == master_id)
        shards.append(Shard(master_id, (), None, _by_address(replicas)))
    return NodesView(_ordered(shards), nodes, tuple(sorted(migrating)))


def _nodes_address(address: str) -> tuple[str, int, int | None]:
    """`ip:port@cport[,hostname][,aux=value...]` (IPv6 unbracketed: the port follows the last colon)."""
    endpoint, _sep, bus = address.partition("@")
    ip, _sep, port = endpoint.rpartition(":")
    extras = bus.split(",")[1:]
    hostname = next((extra for extra in extras if "=" not in extra), "")
    aux = dict(extra.split("=", 1) for extra in extras if "=" in extra)
    tls_port = int(aux["tls-port"]) if aux.get("tls-port", "").isdigit() else 0
    return ip or hostname, int(port or 0), tls_port or None


def _migration(token: str, node_id: str) -> list[tuple[int, str, str]]:
    if match := _MIGRATING.fullmatch(token):
        return [(int(match[1]), node_id, match[2])]
    if match := _IMPORTING.fullmatch(token):
        return [(int(match[1]), match[2], node_id)]
    return []


def _completed(shards: tuple[Shard, ...], view: NodesView) -> tuple[Shard, ...]:
    """SLOTS' shards with what NODES adds: each node's health and tls port, the replicas SLOTS leaves out
    (failed ones), and the masters serving no slot."""
    completed = []
    listed = set()
    for shard in shards:
        master = _with_nodes_state(shard.master, view) if shard.master is not None else None
        replicas = {node.node_id: _with_nodes_state(node, view) for node in shard.replicas}
        from_nodes = next((s for s in view.shards if s.shard_id == shard.shard_id), None)
        for node in from_nodes.replicas if from_nodes else ():
            replicas.setdefault(node.node_id, node)
        listed.update([shard.shard_id, *replicas])
        completed.append(Shard(shard.shard_id, shard.slots, master, _by_address(replicas.values())))
    completed += [shard for shard in view.shards if shard.shard_id not in listed]
    return _ordered(completed)


def _with_nodes_state(node: ClusterNode, view: NodesView) -> ClusterNode:
    known = view.nodes.get(node.node_id)
    if known is None:
        return node
    return ClusterNode(node.node_id, node.host, node.port, node.role, known.health, node.tls_port or known.tls_port)


# ---- cluster mode and slot statistics -------------------------------------------------------------------------------


def is_cluster(info: Mapping[str, str]) -> bool:
    """Whether INFO (its `cluster` section: `cluster_enabled:1`) or, when INFO was refused, HELLO's or INFO
    server's `redis_mode:cluster` says this node is a cluster node."""
    if "cluster_enabled" in info:
        return info["cluster_enabled"].strip() == "1"
    return info.get("redis_mode", "").strip() == "cluster"


SlotStats = dict[int, tuple[int, int | None, int | None]]


def read_slot_stats(wire: Wire, ranges: Iterable[SlotRange]) -> SlotStats | None:
    """Per slot (keys, cpu_usec, network_bytes) from `CLUSTER SLOT-STATS SLOTSRANGE first last` (Redis 8+,
    Valkey 8+), in pipelined chunks of SLOT_STATS_CHUNK slots; `ranges` are the node's own (the command
    answers for no other). cpu_usec and network_bytes (in + out) are None unless the server collects them
    (`cluster-slot-stats-enabled yes`). None when the command is unknown or refused.
    """
    commands = [
        (b"CLUSTER", b"SLOT-STATS", b"SLOTSRANGE", start, min(start + SLOT_STATS_CHUNK - 1, last))
        for first, last in ranges
        for start in range(first, last + 1, SLOT_STATS_CHUNK)
    ]
    if not commands:
        return {}
    wire.send(commands)
    stats: SlotStats = {}
    for reply in wire.receive(len(commands)):
        if is_error(reply) or not isinstance(reply, list):
            return None
        try:
            stats.update(parse_slot_stats(reply))
        except (_Unreadable, ValueError, TypeError, IndexError, KeyError):
            return None
    return stats


def parse_slot_stats(reply: list[Any]) -> SlotStats:
    """One SLOT-STATS reply: [[slot, [key-count, n, cpu-usec, n, network-bytes-in, n, ...]], ...]."""
    stats: SlotStats = {}
    for entry in reply:
        slot, values = _list(entry)
        fields = {name: _int(value) for name, value in _fields(values).items()}
        network = [fields[name] for name in ("network-bytes-in", "network-bytes-out") if name in fields]
        stats[_int(slot)] = (fields["key-count"], fields.get("cpu-usec"), sum(network) if network else None)
    return stats


# ---- shapes -------------------------------------------------------------------------------------------------------


def merge_ranges(ranges: Iterable[SlotRange]) -> tuple[SlotRange, ...]:
    """Slot ranges sorted, with overlapping and adjacent ones joined."""
    merged: list[SlotRange] = []
    for first, last in sorted(ranges):
        if not 0 <= first <= last:
            raise _Unreadable(f"slot range {first}-{last}")
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return tuple(merged)


def _ordered(shards: Iterable[Shard]) -> tuple[Shard, ...]:
    """Shards serving slots by their first slot, then those serving none by their master's address."""

    def key(shard: Shard) -> tuple[bool, int, str, int, str]:
        node = shard.master or (shard.replicas[0] if shard.replicas else None)
        host, port = (node.host, node.port) if node else ("", 0)
        return (not shard.slots, shard.slots[0][0] if shard.slots else 0, host, port, shard.shard_id)

    return tuple(sorted(shards, key=key))


def _by_address(nodes: Iterable[ClusterNode]) -> tuple[ClusterNode, ...]:
    return tuple(sorted(nodes, key=lambda node: (node.host, node.port, node.node_id)))


def _health(word: str) -> str:
    """CLUSTER SHARDS' health word; Redis 7.0 writes `fail` where later servers write `failed`."""
    return HEALTH_FAILED if word == "fail" else word


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise _Unreadable(f"{type(value).__name__} where a list was expected")
    return value


def _fields(value: Any) -> dict[str, Any]:
    """A RESP2 map (a flat key/value list) or a RESP3 one (a dict), keyed by text."""
    if isinstance(value, dict):
        return {_text(key): item for key, item in value.items()}
    items = _list(value)
    return {_text(items[index]): items[index + 1] for index in range(0, len(items) - 1, 2)}


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _int(value: Any) -> int:
    if isinstance(value, bool):
        raise _Unreadable("a boolean where a number was expected")
    if isinstance(value, int):
        return value
    return int(_text(value))
