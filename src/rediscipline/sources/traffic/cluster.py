"""Traffic of a whole Redis Cluster: every master observed over the same window, one view per master.

`open_traffic` asks the address first (`INFO cluster`): a cluster node is observed as its whole cluster, as the
live scan does, anything else as one server. The cluster's masters (those serving slots, from the node's
topology, `sources.live.cluster_topology`) are each observed by a `TrafficSource` of their own, all at once in
threads of this process, so that their windows cover the same seconds; each yields its facts (the commands it
ran, its view) with its own address as their origin, and the report has one traffic section per master.

Each master also reads the heat of the slots it serves (`sources.traffic.slots`). A master that cannot be
observed (down, refusing this user) is a note, and the others go on. A Ctrl-C ends every window and MONITOR
sample at once (each window takes its closing snapshot then). Notes of a master (MONITOR's cost, a refused
part) are said for each master that had them, each starting with the master; a setting the masters share
(`CLUSTER_WIDE_NOTES`) once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from rediscipline.model.cluster import SlotRange
from rediscipline.model.location import SOURCE_TRAFFIC
from rediscipline.model.note import Note, note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_nodes import node_address, reached
from rediscipline.sources.live.cluster_source import cluster_info
from rediscipline.sources.live.cluster_topology import is_cluster, read_topology
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.url import ServerAddress, parse_address
from rediscipline.sources.live.wire import LostConnection, Wire
from rediscipline.sources.traffic.source import TrafficOptions, TrafficSource, check_duration

#: A master of the cluster: its address and the slot ranges it serves.
Master = tuple[ServerAddress, tuple[SlotRange, ...]]

#: Notes said once for the whole cluster, not once per master: a setting the masters share.
CLUSTER_WIDE_NOTES = frozenset({"traffic-slot-stats-off"})


def open_traffic(options: TrafficOptions) -> TrafficSource | ClusterTrafficSource:
    """The source for `options.url`: its whole cluster when it is a cluster node, else that one server."""
    check_duration(options.duration)
    address = parse_address(options.url, username=options.user, password_env=options.password_env)
    if address.scheme == "unix":
        return TrafficSource(options)
    masters = _masters(address, options.timeout)
    if masters is None:
        return TrafficSource(options)
    if address.db not in (None, 0):
        raise SourceError("a cluster has only database 0: leave out the URL's database")
    return ClusterTrafficSource(options, address, masters)


def _masters(address: ServerAddress, timeout: float) -> list[Master] | None:
    """The masters serving slots, each with its address and slot ranges, when `address` is a cluster node,
    else None."""
    wire = Wire(open_connection(address, timeout))
    try:
        if not is_cluster(cluster_info(wire)):
            return None
        topology = read_topology(wire, address.display)
    except LostConnection as error:
        raise SourceError(f"lost the connection to {address.display}: {error}") from None
    finally:
        wire.close()
    return [
        (node_address(address, shard.master, {}), shard.slots)
        for shard in topology.shards
        if shard.master is not None and shard.slots and shard.master.health == "online"
    ]


class ClusterTrafficSource:
    """Every master of a cluster observed over the same window (see the module docstring)."""

    place = SOURCE_TRAFFIC
    counts_keys = False

    def __init__(self, options: TrafficOptions, seed: ServerAddress, masters: list[Master]) -> None:
        if not masters:
            raise SourceError(f"{seed.display} is a cluster node, but no master of its cluster serves slots")
        self.options = options
        self.inputs = (seed.display,)
        self._stop = threading.Event()
        self._sources = [
            TrafficSource(
                replace(options, url=None, save_trace=_trace_of(options, index, len(masters))),
                address=master,
                slots=slots,
                sleep=self._sleep,
                stop=self._stop,
            )
            for index, (master, slots) in enumerate(masters)
        ]
        self._outcome = SourceOutcome()

    def outcome(self) -> SourceOutcome:
        return self._outcome

    def _sleep(self, seconds: float) -> None:
        """A window's wait, ended for every master at once by a Ctrl-C here."""
        if self._stop.wait(seconds):
            raise KeyboardInterrupt

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        with ThreadPoolExecutor(len(self._sources), thread_name_prefix="rediscipline-traffic") as pool:
            futures = [pool.submit(_observed, source, plan) for source in self._sources]
            try:
                while not all(future.done() for future in futures):
                    time.sleep(0.1)
            except KeyboardInterrupt:
                self._stop.set()
        notes: list[Note] = [note("traffic-cluster", masters=tuple(s.address.display for s in self._sources))]
        servers = []
        for source, future in zip(self._sources, futures, strict=True):
            error = future.exception()
            if isinstance(error, SourceError):
                notes.append(note("traffic-node-failed", node=reached(source.address), reason=str(error)))
                continue
            if error is not None:
                raise error
            yield from future.result()
            outcome = source.outcome()
            for said in outcome.notes:
                if said.code not in CLUSTER_WIDE_NOTES:
                    notes.append(note(said.code, **{**said.params, "shard": reached(source.address)}))
                elif said not in notes:
                    notes.append(said)
            if outcome.server is not None:
                servers.append(outcome.server)
        if not servers:
            raise SourceError("no master of the cluster could be observed: " + "; ".join(
                str(n.params["reason"]) for n in notes if n.code == "traffic-node-failed"
            ))  # fmt: skip
        self._outcome = SourceOutcome(tuple(notes), replace(servers[0], role="cluster"))


def _observed(source: TrafficSource, plan: ProbePlan) -> list[Fact]:
    return list(source.facts(plan))


def _trace_of(options: TrafficOptions, index: int, masters: int) -> Path | None:
    """Each master's own trace file: `trace.jsonl` becomes `trace.1.jsonl`, `trace.2.jsonl`, ..."""
    path = options.save_trace
    if path is None or masters == 1:
        return path
    return path.with_name(f"{path.stem}.{index + 1}{path.suffix}")
