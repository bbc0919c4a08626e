"""A cluster master's slot heat over the window: `CLUSTER SLOT-STATS` read at each end and diffed.

The command (Valkey 8.0+, Redis 8.2+) gives per slot its key count and, when the server collects them
(`cluster-slot-stats-enabled yes`, off by default; this tool never sets it), the main thread's µs spent on
the slot's keys and the network bytes in and out of those commands since the slot came to the node. The
window's difference finds the slots a master's load comes from: a hot key, or a hashtag that put too many
keys in one slot, shows as one slot far above the rest.

The slots are read over the master's own ranges (the command answers for no other), outside the window's
snapshots so that these calls are not counted as the applications' traffic. A slot that is in one reading
only (it moved during the window) or whose counters went back (it moved away and back) is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from rediscipline.model.cluster import SlotRange
from rediscipline.model.traffic import HOT_SLOTS_KEPT, SlotHeat, SlotHeatView
from rediscipline.sources.live.cluster_topology import SlotStats, read_slot_stats
from rediscipline.sources.live.wire import Wire

#: The source's name in the report.
SOURCE_SLOT_STATS = "CLUSTER SLOT-STATS"

#: Why there is no slot heat, when the server counts keys per slot only.
METRICS_OFF = (
    "cluster-slot-stats-enabled is no: the server counts keys per slot, not CPU time or bytes (this tool never sets it)"
)

#: Why there is no slot heat, when the server has no such command or refuses it to this user.
UNREADABLE = "CLUSTER SLOT-STATS is unknown (before Valkey 8.0 and Redis 8.2) or refused to this user"


class SlotReading:
    """The two readings of a master's slots; `error` says why there is no heat (None: there is)."""

    def __init__(self, ranges: Sequence[SlotRange]) -> None:
        self.ranges = tuple(ranges)
        self.error: str | None = None
        self._start: SlotStats | None = None

    def start(self, wire: Wire) -> None:
        self._start = self._read(wire)

    def finish(self, wire: Wire) -> SlotHeatView | None:
        """The window's slot heat, read now against the start's reading; None with `error` set when there is
        none."""
        if self._start is None:
            return None
        end = self._read(wire)
        return None if end is None else slot_heat(self._start, end)

    def _read(self, wire: Wire) -> SlotStats | None:
        stats = read_slot_stats(wire, self.ranges)
        if stats is None:
            self.error = UNREADABLE
        elif stats and any(cpu is None for _keys, cpu, _net in stats.values()):
            self.error, stats = METRICS_OFF, None
        return stats


def slot_heat(start: SlotStats, end: SlotStats) -> SlotHeatView:
    """The difference of two readings with CPU and byte counters: totals over the slots in both, and the
    HOT_SLOTS_KEPT with the most CPU time, then bytes, among those with any."""
    heats: list[SlotHeat] = []
    for slot, (keys, cpu, net) in end.items():
        before = start.get(slot)
        if before is None or cpu is None or net is None or before[1] is None or before[2] is None:
            continue
        cpu_delta, net_delta = cpu - before[1], net - before[2]
        if cpu_delta < 0 or net_delta < 0:
            continue
        heats.append(SlotHeat(slot, cpu_delta, net_delta, keys))
    busy = [heat for heat in heats if heat.cpu_usec or heat.network_bytes]
    hot = sorted(busy, key=lambda heat: (-heat.cpu_usec, -heat.network_bytes, heat.slot))
    return SlotHeatView(
        slots=len(heats),
        cpu_usec=sum(h.cpu_usec for h in heats),
        network_bytes=sum(h.network_bytes for h in heats),
        hot=tuple(hot[:HOT_SLOTS_KEPT]),
    )
