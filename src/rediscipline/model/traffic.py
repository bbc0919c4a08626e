"""What a server was sent during an observation window: commands, errors, slow calls and connected clients.

A `TrafficView` is built from two snapshots of the server taken `seconds` apart (`sources.traffic`): the
counters of `INFO commandstats`, `errorstats` and `stats` are cumulative since the server started, so the
window's traffic is their difference. Each part of the view names where it came from and what that source
cannot see (`TrafficSourceInfo`), because every server-side source of traffic has blind spots: commandstats
has no arguments, the slow log keeps only calls above a threshold, CLIENT LIST is one instant.

The traffic rules (`rules.base.TrafficRule`) judge the view once, at the end of the run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rediscipline.model.location import Location
from rediscipline.model.monitor import MonitorSample
from rediscipline.model.text import Text

#: Client classes of `client-output-buffer-limit`, as the server names them.
CLASS_NORMAL = "normal"
CLASS_REPLICA = "replica"
CLASS_PUBSUB = "pubsub"

#: The server's defaults for `client-output-buffer-limit` (hard bytes, soft bytes, soft seconds; 0 = none),
#: used when CONFIG GET is refused.
DEFAULT_OUTPUT_LIMITS: Mapping[str, tuple[int, int, int]] = {
    CLASS_NORMAL: (0, 0, 0),
    CLASS_REPLICA: (256 << 20, 64 << 20, 60),
    CLASS_PUBSUB: (32 << 20, 8 << 20, 60),
}


@dataclass(frozen=True, slots=True)
class CommandWindow:
    """One command's calls inside the window (`name` as commandstats names it: `hgetall`, `config|set`).

    `failed` and `rejected` are None on servers that do not count them (before 6.2); `p50_us`/`p99_us` are
    the server's latency percentiles since it started (`INFO latencystats`, 7.0+), not the window's.
    """

    name: str
    calls: int
    usec: int
    failed: int | None = None
    rejected: int | None = None
    p50_us: float | None = None
    p99_us: float | None = None

    @property
    def usec_per_call(self) -> float | None:
        return self.usec / self.calls if self.calls else None


@dataclass(frozen=True, slots=True)
class ClientInfo:
    """One connection as `CLIENT LIST` described it at the end of the window, parsed by field name.

    `fields` holds every field the server printed, unknown ones included, as text; the attributes are the
    ones rules and the report read (None where this server's version does not print the field).
    """

    id: int
    addr: str
    name: str
    flags: str
    cmd: str
    age: int | None = None
    idle: int | None = None
    db: int | None = None
    sub: int = 0
    psub: int = 0
    ssub: int = 0
    multi: int = -1
    watch: int | None = None
    omem: int = 0
    tot_mem: int | None = None
    lib: str = ""
    fields: Mapping[str, str] = field(default_factory=dict)

    @property
    def channels(self) -> int:
        """Channels, patterns and shard channels this connection is subscribed to."""
        return self.sub + self.psub + self.ssub

    @property
    def output_class(self) -> str:
        """Which `client-output-buffer-limit` class applies: pubsub, replica or normal (MONITOR is normal)."""
        if "P" in self.flags:
            return CLASS_PUBSUB
        if "S" in self.flags:
            return CLASS_REPLICA
        return CLASS_NORMAL

    @property
    def label(self) -> str:
        """How the report names the connection: its address, with its name when it set one."""
        return f"{self.addr} ({self.name})" if self.name else self.addr


@dataclass(frozen=True, slots=True)
class SlowCall:
    """One slow log entry: when (Unix seconds), how long the command ran (µs), the command as the server kept
    it (at most 32 arguments of at most 128 bytes each) and who sent it (7.0+: address and name)."""

    id: int
    time: int
    duration_us: int
    command: str
    args: tuple[bytes, ...]
    client: str = ""
    client_name: str = ""


@dataclass(frozen=True, slots=True)
class HotKey:
    """A key among the most accessed during the window, and how that was measured.

    From `OBJECT FREQ` (an LFU policy): `counter_start`/`counter_end` are the key's LFU counter at each end of
    the window (a logarithmic, probabilistic count of accesses, 0–255), `ops_per_second` the accesses the
    counter's growth stands for (`hits_between`), a lower bound when the counter reached its ceiling
    (`saturated`); None when the key was not there at one end.

    From a MONITOR sample: `ops_per_second` is the sketch's count over the sample's span, at most
    `ops_error` per second above the truth; `bytes_per_second` the bytes of the commands' arguments sent
    about the key.

    `memory` (MEMORY USAGE, bytes, an estimate for collections), `type` and `length` (elements, or a
    string's bytes) are read after the window for the hottest keys, to tell a hot big key; None when not read.
    """

    db: int
    key: bytes
    ops_per_second: float | None
    source: str
    counter_start: int | None = None
    counter_end: int | None = None
    saturated: bool = False
    ops_error: float = 0.0
    bytes_per_second: float | None = None
    memory: int | None = None
    type: str | None = None
    length: int | None = None


#: INFO stats counters the window reports the difference of, when the server has them.
WINDOW_COUNTERS = (
    "total_connections_received",
    "total_commands_processed",
    "total_net_input_bytes",
    "total_net_output_bytes",
    "rejected_connections",
    "expired_keys",
    "evicted_keys",
    "keyspace_hits",
    "keyspace_misses",
    "total_error_replies",
    "unexpected_error_replies",
    "total_reads_processed",
    "total_writes_processed",
    "client_output_buffer_limit_disconnections",
    "client_query_buffer_limit_disconnections",
)

#: Those of them that count rare events (a connection refused, a client disconnected for its buffer): their
#: rate per second says nothing.
RARE_COUNTERS = frozenset(
    {
        "rejected_connections",
        "client_output_buffer_limit_disconnections",
        "client_query_buffer_limit_disconnections",
    }
)

#: Where hot keys were measured (`HotKey.source`): a MONITOR sample, or the keys' LFU counters.
SOURCE_MONITOR = "MONITOR"
SOURCE_OBJECT_FREQ = "OBJECT FREQ"

#: The LFU counter: where a new key starts and the ceiling (`LFU_INIT_VAL`, 255 in `evict.c`).
LFU_INIT = 5
LFU_MAX = 255


def hits_between(start: int, end: int, log_factor: int) -> float:
    """The accesses that take an LFU counter from `start` to `end`, on average: at counter c the server
    increments with probability 1 / ((c − LFU_INIT) · log_factor + 1) (`LFULogIncr`), so each step costs that
    many accesses. 0 when the counter did not grow (it only decays between accesses)."""
    return float(sum(max(c - LFU_INIT, 0) * log_factor + 1 for c in range(start, end)))


@dataclass(frozen=True, slots=True)
class StreamGroup:
    """A stream's consumer group when the window ended (`XINFO GROUPS`): `lag` is the entries added to the
    stream that the group has not yet read, None when the server cannot tell (before 7.0, or after XDEL or
    trimming left gaps): unknown, never 0."""

    name: str
    consumers: int
    pending: int
    lag: int | None


@dataclass(frozen=True, slots=True)
class QueueStat:
    """A list or stream used as a queue: its length at each end of the window (None: not read then, or the
    key was missing), why it was taken for a queue (`--queue`, a declared namespace, blocking reads of it in
    the slow log), and, for a stream, its consumer groups at the end."""

    db: int
    key: bytes
    type: str
    reason: str
    length_start: int | None
    length_end: int | None
    groups: tuple[StreamGroup, ...] = ()

    def growth_per_second(self, seconds: float) -> float | None:
        if self.length_start is None or self.length_end is None or seconds <= 0:
            return None
        return (self.length_end - self.length_start) / seconds


@dataclass(frozen=True, slots=True)
class TrafficSourceInfo:
    """One source of the view: its name (`INFO commandstats`, `SLOWLOG GET`, `CLIENT LIST`), whether it was
    read (`error`: the server's refusal), and what it cannot show."""

    name: str
    blind_spots: Text
    error: str | None = None


@dataclass(frozen=True, slots=True)
class LatencyEvent:
    """A latency event the server's monitor recorded in the window (`LATENCY LATEST`): its name (`command`,
    `fork`, `expire-cycle`, ...), its latest occurrence (Unix seconds), that one's duration and the largest
    since the server started (ms)."""

    event: str
    time: int
    latest_ms: int
    max_ms: int


@dataclass(frozen=True, slots=True)
class SlotHeat:
    """One hash slot's part of its master's work in the window (`CLUSTER SLOT-STATS` at each end, diffed): the
    main thread's µs spent on commands of the slot's keys, the bytes those commands brought in and sent out,
    and the keys it held at the end."""

    slot: int
    cpu_usec: int
    network_bytes: int
    keys: int


@dataclass(frozen=True, slots=True)
class SlotHeatView:
    """A master's hot slots over the window: the slots with the most CPU time (then bytes), at most
    `HOT_SLOTS_KEPT`, out of `slots` measured at both ends; `cpu_usec` and `network_bytes` are the totals
    over all of them (what a slot's share is of)."""

    slots: int
    cpu_usec: int
    network_bytes: int
    hot: tuple[SlotHeat, ...] = ()

    def cpu_share(self, heat: SlotHeat) -> float | None:
        return heat.cpu_usec / self.cpu_usec if self.cpu_usec > 0 else None


#: Hot slots a master's view keeps.
HOT_SLOTS_KEPT = 20


@dataclass(frozen=True, slots=True)
class MonitorCost:
    """What a MONITOR sample cost the server: its commands per second (`total_commands_processed`) in the part
    of the window before the sample and during the sample, each over `seconds` of the server's clock."""

    ops_before: float
    seconds_before: float
    ops_during: float
    seconds_during: float

    @property
    def drop(self) -> float | None:
        """The share of the throughput lost while MONITOR ran (negative: it grew), None without traffic before."""
        if self.ops_before <= 0:
            return None
        return 1 - self.ops_during / self.ops_before


@dataclass(frozen=True, slots=True)
class TrafficView:
    """A server's traffic over a window of `seconds`, from `started` (Unix seconds, the server's clock).

    * `commands`: every command with calls in the window, most calls first;
    * `errors`: error replies in the window by error prefix (`ERR`, `WRONGTYPE`; `INFO errorstats`, 6.2+);
    * `stats`: the window's difference of the `INFO stats` counters (`total_commands_processed`,
      `keyspace_hits`, `expired_keys`, `evicted_keys`, `total_net_input_bytes`, ...);
    * `clients`: the connections at the end (this tool's own excluded), `clients_total` how many there were
      (the list is bounded);
    * `output_limits`: `client-output-buffer-limit` per class (hard, soft, soft seconds);
    * `slow_calls`: slow log entries logged inside the window; `slowlog_history` how many older ones the
      log holds and `slowlog_since` the time of its oldest (what it says of the recent past);
    * `hot_keys`: the most accessed keys, hottest first, from the best source the server offers (see
      `HotKey`), with how many keys were read to find them out of how many;
    * `queues`: lists and streams used as queues, with their lengths at each end and their consumer groups;
    * `reset`: a counter went backwards (a restart or `CONFIG RESETSTAT` inside the window): the window's
      differences are unknown and left out, not shown negative;
    * `monitor`: the MONITOR sample taken inside the window (`--monitor`), and `monitor_cost` what it cost;
    * `latency_events`: the latency monitor's events of the window (`LATENCY LATEST`, only when the server's
      `latency-monitor-threshold`, `latency_threshold_ms`, is above 0);
    * `slot_heat`: a cluster master's hottest slots (`CLUSTER SLOT-STATS`, only when the server collects
      `cluster-slot-stats-enabled`), None elsewhere.
    """

    origin: Location
    started: float
    seconds: float
    commands: tuple[CommandWindow, ...] = ()
    errors: Mapping[str, int] = field(default_factory=dict)
    stats: Mapping[str, int] = field(default_factory=dict)
    clients: tuple[ClientInfo, ...] = ()
    clients_total: int = 0
    output_limits: Mapping[str, tuple[int, int, int]] = field(default_factory=lambda: dict(DEFAULT_OUTPUT_LIMITS))
    slow_calls: tuple[SlowCall, ...] = ()
    slowlog_history: int = 0
    slowlog_since: int | None = None
    slowlog_threshold_us: int | None = None
    reset: bool = False
    sources: tuple[TrafficSourceInfo, ...] = ()
    hot_keys: tuple[HotKey, ...] = ()
    hot_keys_sampled: int = 0  # keys whose access counter was read to find the hot ones
    hot_keys_population: int = 0  # keys the server held in the databases read
    queues: tuple[QueueStat, ...] = ()
    monitor: MonitorSample | None = None
    monitor_cost: MonitorCost | None = None
    latency_events: tuple[LatencyEvent, ...] = ()
    latency_threshold_ms: int | None = None
    slot_heat: SlotHeatView | None = None

    @property
    def calls(self) -> int:
        return sum(command.calls for command in self.commands)

    def per_second(self, count: int) -> float:
        return count / self.seconds if self.seconds > 0 else 0.0
