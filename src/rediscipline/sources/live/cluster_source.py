"""A whole Redis Cluster as a source: the topology from one address, one job per shard, one report.

`open_live` looks at the address first: a node with `cluster_enabled:1` is scanned as its whole cluster (a
`ClusterSource`, unless `--no-cluster`), anything else as one server (a `LiveSource`). The cluster source
reads the shards from the node it was given (`cluster_topology`), picks the node to read for each
(`cluster_nodes`), and hands out one job per shard: a `LiveSource` of that node, with the same guest
discipline as a single scan (read-only, NO-TOUCH, adaptive batches, `--max-ops` per node), run wherever the
run's executor puts it. Once every shard was read, `settle` turns what came back into the cluster's view
(keys, memory and settings per shard, the server's slot statistics where it has them) and the notes: a shard
that failed or stopped part way, a failover or a slot migration during the scan, a refused topology command.
"""

from __future__ import annotations

import heapq
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from rediscipline.model.cluster import (
    SHARD_COMPLETE,
    SHARD_FAILED,
    SHARD_PARTIAL,
    SLOTS_FROM_SCAN,
    SLOTS_FROM_SERVER,
    SLOTS_KEPT,
    ClusterNode,
    ClusterView,
    ShardStat,
    SlotStat,
    Topology,
)
from rediscipline.model.location import SOURCE_LIVE
from rediscipline.model.note import Note, note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import PARTIAL_SHARDS, ServerSummary
from rediscipline.model.source import Fact, PartReport, SourceOutcome
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_nodes import PREFER_MASTERS, Chosen, choose_nodes, node_address, reached
from rediscipline.sources.live.cluster_topology import (
    SlotStats,
    is_cluster,
    parse_address_map,
    read_slot_stats,
    read_topology,
)
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.scanner import Progress
from rediscipline.sources.live.server import live_origin, parse_info
from rediscipline.sources.live.source import LiveScanOptions, LiveSource
from rediscipline.sources.live.topology import hello_info
from rediscipline.sources.live.url import ServerAddress, parse_address
from rediscipline.sources.live.wire import LostConnection, Wire

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ClusterOptions:
    """How an address that is a cluster node is scanned: `cluster` None detects it, True requires a cluster
    node, False scans just that node; `prefer` which node of each shard is read; `address_map` the
    `--map host:port=host:port` entries."""

    cluster: bool | None = None
    prefer: str = PREFER_MASTERS
    address_map: tuple[str, ...] = ()


@dataclass(frozen=True)
class NodeJob:
    """The scan of one shard's node: a `LiveSource` of it, made where the job runs.

    A password from `--password-env` does not travel with the job (through a Dask scheduler): the worker
    reads the same environment variable.
    """

    options: LiveScanOptions
    address: ServerAddress

    def open(self) -> LiveSource:
        address = self.address
        variable = self.options.password_env
        if variable is not None:
            if variable not in os.environ:
                raise SourceError(
                    f"--password-env {variable}: the environment variable is not set where {address.display} is read"
                )
            address = replace(address, password=os.environ[variable])
        return LiveSource(self.options, address=address, shard=True)


def open_live(
    options: LiveScanOptions, cluster: ClusterOptions | None = None, progress: Progress | None = None
) -> LiveSource | ClusterSource:
    """The source for `options.url`: its whole cluster when it is a cluster node (unless told not to), else
    that one server. Asks the node once (`INFO cluster`, or HELLO's mode when INFO is refused)."""
    cluster = cluster or ClusterOptions()
    if cluster.cluster is False:
        return LiveSource(options, progress)
    address = parse_address(options.url, username=options.user, password_env=options.password_env)
    parse_address_map(cluster.address_map)  # a malformed --map fails before anything connects
    if address.scheme == "unix" and cluster.cluster is None:
        return LiveSource(options, progress)
    info = _ask(address, options, cluster_info)
    if is_cluster(info):
        return ClusterSource(options, cluster, address, progress)
    if cluster.cluster:
        raise SourceError(f"{address.display} is not a cluster node (cluster_enabled:0): leave out --cluster")
    return LiveSource(options, progress)


def cluster_info(wire: Wire) -> dict[str, str]:
    """INFO's `cluster` section (HELLO's fields when INFO is refused)."""
    reply = wire.call(b"INFO", b"cluster")
    return parse_info(reply) if isinstance(reply, bytes) else hello_info(wire)


def _ask(address: ServerAddress, options: LiveScanOptions, question: Callable[[Wire], T]) -> T:
    """`question` over a connection of its own. A connection dropped under it (a proxy's idle timeout, a
    `CLIENT KILL`) is opened again, up to `options.retries` times, as the scan itself would."""
    attempt = 0
    while True:
        wire = Wire(open_connection(address, options.timeout))
        try:
            return question(wire)
        except LostConnection as error:
            if attempt >= options.retries:
                raise SourceError(f"lost the connection to {address.display}: {error}") from None
            attempt += 1
        finally:
            wire.close()


class ClusterSource:
    """Every shard of the cluster `address` belongs to (see the module docstring)."""

    place = SOURCE_LIVE
    counts_keys = True
    sharded = True

    def __init__(
        self,
        options: LiveScanOptions,
        cluster: ClusterOptions,
        address: ServerAddress,
        progress: Progress | None = None,
    ) -> None:
        if options.db not in (None, 0) or address.db not in (None, 0):
            raise SourceError("a cluster has only database 0: leave out --db (or scan one node with --no-cluster)")
        if options.resume is not None:
            raise SourceError("--resume continues the scan of one node: add --no-cluster and the node's address")
        self.options = options
        self.cluster = cluster
        self.address = address
        self.address_map = parse_address_map(cluster.address_map)
        self.inputs = (address.display,)
        self._chosen: list[Chosen] = []
        self._topology: Topology | None = None
        self._notes: list[Note] = []
        self._outcome = SourceOutcome()
        self.progress = progress
        self._keys_read = 0

    def outcome(self) -> SourceOutcome:
        return self._outcome

    def jobs(self, plan: ProbePlan) -> Sequence[NodeJob]:
        """Read the topology and pick the node of each shard; one job per shard that serves slots."""
        topology = self._read_topology(self.address)
        self._topology = topology
        chosen, notes = choose_nodes(
            topology.shards, self.address, self.address_map, prefer=self.cluster.prefer, timeout=self.options.timeout
        )
        self._chosen, self._notes = chosen, notes
        if topology.refused:
            refused = tuple(f"{command}: {reason}" for command, reason in topology.refused)
            self._notes.insert(0, note("cluster-topology-refused", used=topology.read_with, refused=refused))
        if topology.migrating:
            self._notes.append(
                note("cluster-slots-migrating", slots=tuple(slot for slot, _f, _t in topology.migrating))
            )
        total = sum(node.keys or 0 for node in chosen)
        jobs = []
        for node in chosen:
            options = replace(self.options, url=None, allow_stale=self.options.allow_stale or node.stale)
            if options.sample is not None and node.keys is not None and total:
                options = replace(options, sample=max(1, math.ceil(options.sample * node.keys / total)))
            address = replace(node.address, password=None) if options.password_env else node.address
            jobs.append(NodeJob(options, address))
        return jobs

    def part_done(self, part: PartReport) -> None:
        """Progress in keys: those of the shards read so far, of what the shards held at the start."""
        self._keys_read += part.keys
        if self.progress is not None:
            total = sum(chosen.keys or 0 for chosen in self._chosen)
            self.progress(self._keys_read, max(total, self._keys_read))

    def _read_topology(self, address: ServerAddress) -> Topology:
        return _ask(address, self.options, lambda wire: read_topology(wire, address.display))

    def settle(self, parts: Sequence[PartReport]) -> Iterator[Fact]:
        """The cluster's view from what each shard's job found, and the run's notes."""
        shards = [self._shard(chosen, part) for chosen, part in zip(self._chosen, parts, strict=True)]
        notes = list(self._notes)
        notes += _node_notes(self._chosen, parts)
        notes += [
            note("cluster-shard-missed", shard=s.address, status=s.status, slots=_ranges(s.slots), reason=s.missed)
            for s in shards
            if s.status != SHARD_COMPLETE
        ]
        notes += self._changes()
        slots, slots_from = self._slot_stats(shards, parts)
        topology = self._topology
        assert topology is not None
        origin = live_origin(self.address.display)
        servers = [p.outcome.server for p in parts if p.outcome is not None and p.outcome.server is not None]
        # slots whose master the cluster marks as failed are served by nobody until a replica takes over
        down = sum(shard.slot_count for shard in topology.shards if shard.master and shard.master.health != "online")
        view = ClusterView(
            tuple(shards), slots=slots, slots_from=slots_from, uncovered_slots=topology.uncovered + down, origin=origin
        )
        self._outcome = SourceOutcome(tuple(notes), self._summary(shards, servers))
        yield view

    def _shard(self, chosen: Chosen, part: PartReport) -> ShardStat:
        server = part.server
        status, missed = SHARD_COMPLETE, None
        if part.error is not None:
            status, missed = SHARD_FAILED, part.error
        elif part.outcome is None:
            status, missed = SHARD_FAILED, "interrupted before it was read"
        else:
            summary = part.outcome.server
            codes = summary.partial if summary is not None else ()
            if codes or part.interrupted:
                status, missed = SHARD_PARTIAL, summary.stopped if summary and summary.stopped else ", ".join(codes)
        return ShardStat(
            shard_id=chosen.shard.shard_id,
            address=chosen.reached,
            scanned_role=chosen.node.role,
            slots=chosen.shard.slots,
            replicas=len(chosen.shard.healthy_replicas),
            keys=part.keys,
            memory=part.memory,
            server_keys=sum(server.keyspace.values()) if server is not None else None,
            used_memory=server.info_int("used_memory") if server is not None else None,
            maxmemory=server.maxmemory if server is not None else None,
            config=tuple(sorted(server.config.items())) if server is not None and server.config else (),
            status=status,
            missed=missed,
        )

    def _changes(self) -> list[Note]:
        """A failover or slots moving between the start and the end of the scan, read again from the seed or,
        when it is gone, from a node that was read."""
        before = self._topology
        if before is None:
            return []
        after: Topology | None = None
        for address in [self.address, *(c.address for c in self._chosen)]:
            try:
                after = self._read_topology(address)
                break
            except SourceError:
                continue
        if after is None:
            return [note("cluster-topology-unknown-at-end")]
        notes: list[Note] = []

        def named(node: ClusterNode) -> str:
            return reached(node_address(self.address, node, self.address_map))

        owner_after = {first: shard for shard in after.shards for first, _last in shard.slots}
        for shard in before.shards:
            if shard.master is None or not shard.slots:
                continue
            now = owner_after.get(shard.slots[0][0])
            if now is None or now.slots != shard.slots:
                shown = _ranges(now.slots) if now is not None else ""
                moved = note("cluster-slots-moved", shard=named(shard.master), before=_ranges(shard.slots), after=shown)
                notes.append(moved)
            elif now.master is not None and now.master.node_id != shard.master.node_id:
                notes.append(note("cluster-failover", shard=named(shard.master), master=named(now.master)))
        moving = sorted({slot for slot, _f, _t in after.migrating} - {slot for slot, _f, _t in before.migrating})
        if moving:
            notes.append(note("cluster-slots-migrating", slots=tuple(moving)))
        return notes

    def _slot_stats(self, shards: list[ShardStat], parts: Sequence[PartReport]) -> tuple[tuple[SlotStat, ...], str]:
        """The server's own per-slot figures (CLUSTER SLOT-STATS, Redis 8+ and Valkey 8+) from every node that
        was read: the busiest slots by each figure, and each shard's CPU and network totals (set in `shards`);
        none when one of the nodes cannot give them."""
        kept: set[SlotStat] = set()
        for index, (chosen, part) in enumerate(zip(self._chosen, parts, strict=True)):
            if part.error is not None or part.outcome is None:
                continue
            figures = self._node_slot_stats(chosen)
            if figures is None:
                return (), SLOTS_FROM_SCAN
            stats = [SlotStat(slot, index, keys, None, cpu, net) for slot, (keys, cpu, net) in figures.items()]
            for weight in (_keys, _cpu, _network):
                kept.update(stat for stat in heapq.nlargest(SLOTS_KEPT, stats, key=weight) if weight(stat))
            cpu = [stat.cpu_usec for stat in stats]
            network = [stat.network_bytes for stat in stats]
            complete = len(stats) == shards[index].slot_count
            shards[index] = replace(
                shards[index],
                cpu_usec=sum(c for c in cpu if c is not None) if complete and None not in cpu else None,
                network_bytes=sum(n for n in network if n is not None) if complete and None not in network else None,
            )
        return tuple(sorted(kept, key=lambda stat: stat.slot)), SLOTS_FROM_SERVER

    def _node_slot_stats(self, chosen: Chosen) -> SlotStats | None:
        try:
            wire = Wire(open_connection(chosen.address, self.options.timeout))
        except SourceError:
            return None
        try:
            return read_slot_stats(wire, chosen.shard.slots)
        except LostConnection:
            return None
        finally:
            wire.close()

    def _summary(self, shards: Sequence[ShardStat], servers: Sequence[ServerSummary]) -> ServerSummary:
        first = servers[0] if servers else None
        partial = sorted({code for server in servers for code in server.partial})
        if any(shard.status != SHARD_COMPLETE for shard in shards) and PARTIAL_SHARDS not in partial:
            partial.append(PARTIAL_SHARDS)
        used = [shard.used_memory for shard in shards if shard.used_memory is not None]
        keys = [shard.server_keys for shard in shards if shard.server_keys is not None]
        volatile = sum(count for server in servers for _db, count in server.volatile)
        started = [server.started_ms for server in servers if server.started_ms is not None]
        return ServerSummary(
            address=self.address.display,
            flavor=first.flavor if first is not None else "?",
            version=first.version if first is not None else "?",
            role="cluster",
            used_memory=sum(used) if used else None,
            dbs=((0, sum(keys)),) if keys else (),
            partial=tuple(partial),
            started_ms=min(started) if started else None,
            volatile=((0, volatile),) if any(server.volatile for server in servers) else (),
            expire_config=first.expire_config if first is not None else (),
            clients=first.clients if first is not None else None,
        )


def _keys(stat: SlotStat) -> int:
    return stat.keys


def _cpu(stat: SlotStat) -> int:
    return stat.cpu_usec or 0


def _network(stat: SlotStat) -> int:
    return stat.network_bytes or 0


def _node_notes(chosen: Sequence[Chosen], parts: Sequence[PartReport]) -> list[Note]:
    """Each node's own notes: once when every node that was read said the same, else each with its shard."""
    said: dict[tuple[str, tuple[tuple[str, object], ...]], tuple[Note, list[str]]] = {}
    read = 0
    for node, part in zip(chosen, parts, strict=True):
        if part.outcome is None:
            continue
        read += 1
        for item in part.outcome.notes:
            key = (item.code, tuple(sorted(item.params.items())))
            said.setdefault(key, (item, []))[1].append(node.reached)
    notes: list[Note] = []
    for item, shards in said.values():
        if len(shards) == read:
            notes.append(item)
        else:
            notes += [Note(item.code, {**item.params, "shard": shard}) for shard in shards]
    return notes


def _ranges(ranges: Sequence[tuple[int, int]]) -> str:
    return ",".join(f"{first}-{last}" if first != last else str(first) for first, last in ranges)


__all__ = ["ClusterOptions", "ClusterSource", "NodeJob", "open_live"]
