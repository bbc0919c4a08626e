"""Two snapshots of a server → the window's `TrafficView`: what was sent between them.

Counters are differences (end − start). What this tool sent itself inside the window (`own`: the INFO, TIME,
CONFIG GET, CLIENT LIST and SLOWLOG GET of the observation) is taken out of the command counts, so that the
window shows the applications' traffic, not ours. When the server restarted, or its statistics were reset,
between the snapshots (another run id, a shorter uptime, a counter that went backwards), the differences
mean nothing: the view says `reset` and carries none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rediscipline.model.location import Location
from rediscipline.model.monitor import MonitorSample
from rediscipline.model.traffic import (
    DEFAULT_OUTPUT_LIMITS,
    WINDOW_COUNTERS,
    ClientInfo,
    CommandWindow,
    HotKey,
    LatencyEvent,
    MonitorCost,
    QueueStat,
    SlotHeatView,
    SlowCall,
    TrafficSourceInfo,
    TrafficView,
)
from rediscipline.sources.live.server import pairs
from rediscipline.sources.traffic.snapshot import Snapshot


@dataclass(frozen=True, slots=True)
class Observed:
    """What the source read besides the two snapshots."""

    clients: tuple[ClientInfo, ...] = ()
    clients_total: int = 0
    slowlog: tuple[SlowCall, ...] = ()
    slowlog_before: int = -1  # the id of the newest entry when the window started
    hot_keys: tuple[HotKey, ...] = ()
    hot_keys_sampled: int = 0
    hot_keys_population: int = 0
    queues: tuple[QueueStat, ...] = ()
    output_limits: Mapping[str, tuple[int, int, int]] = field(default_factory=lambda: dict(DEFAULT_OUTPUT_LIMITS))
    slowlog_threshold_us: int | None = None
    sources: tuple[TrafficSourceInfo, ...] = ()
    monitor: MonitorSample | None = None
    monitor_cost: MonitorCost | None = None
    latency_events: tuple[LatencyEvent, ...] = ()
    latency_threshold_ms: int | None = None
    slot_heat: SlotHeatView | None = None


def traffic_view(
    origin: Location,
    start: Snapshot,
    end: Snapshot,
    *,
    seconds: float,
    observed: Observed,
    own: Mapping[str, int],
    own_errors: Mapping[str, int],
) -> TrafficView:
    """The window from `start` to `end`, `seconds` long; `own` and `own_errors`: this tool's own calls inside
    it, by command, and the error replies it was given, by error prefix."""
    started = start.clock if start.clock is not None else 0.0
    slow_inside = tuple(call for call in observed.slowlog if call.id > observed.slowlog_before)
    older = [call.time for call in observed.slowlog if call.id <= observed.slowlog_before]
    reset = restarted(start, end)
    commands: tuple[CommandWindow, ...] = ()
    errors: dict[str, int] = {}
    stats: dict[str, int] = {}
    if not reset:
        commands, went_back = command_windows(start, end, own)
        errors, errors_back = differences(_errorstats(start), _errorstats(end), own_errors)
        stats, stats_back = differences(_stats(start), _stats(end), {})
        reset = went_back or errors_back or stats_back
        if reset:
            commands, errors, stats = (), {}, {}
    return TrafficView(
        origin=origin,
        started=started,
        seconds=seconds,
        commands=commands,
        errors=errors,
        stats=stats,
        clients=observed.clients,
        clients_total=observed.clients_total,
        slow_calls=slow_inside,
        slowlog_history=len(older),
        slowlog_since=min(older) if older else None,
        slowlog_threshold_us=observed.slowlog_threshold_us,
        reset=reset,
        sources=observed.sources,
        output_limits=observed.output_limits,
        hot_keys=observed.hot_keys,
        hot_keys_sampled=observed.hot_keys_sampled,
        hot_keys_population=observed.hot_keys_population,
        queues=observed.queues,
        monitor=observed.monitor,
        monitor_cost=observed.monitor_cost,
        latency_events=observed.latency_events,
        latency_threshold_ms=observed.latency_threshold_ms,
        slot_heat=observed.slot_heat,
    )


def restarted(start: Snapshot, end: Snapshot) -> bool:
    """Whether the server restarted between the snapshots: another run id, or an uptime that went back."""
    if start.run_id and end.run_id and start.run_id != end.run_id:
        return True
    before, after = start.field_int("server", "uptime_in_seconds"), end.field_int("server", "uptime_in_seconds")
    return before is not None and after is not None and after < before


def command_windows(start: Snapshot, end: Snapshot, own: Mapping[str, int]) -> tuple[tuple[CommandWindow, ...], bool]:
    """Each command's calls in the window, most first, and whether some counter went backwards."""
    before, after = _commandstats(start), _commandstats(end)
    own = _named_as(own, after)
    latency = _latency(end)
    windows: list[CommandWindow] = []
    went_back = False
    for name, now in after.items():
        then = before.get(name, {})
        delta = {field: now[field] - then.get(field, 0) for field in now}
        if any(value < 0 for value in delta.values()):
            went_back = True
            continue
        calls = delta.get("calls", 0) - own.get(name, 0)
        if calls <= 0:
            continue
        p50, p99 = latency.get(name, (None, None))
        windows.append(
            CommandWindow(
                name=name,
                calls=calls,
                usec=delta.get("usec", 0),
                failed=delta.get("failed_calls"),
                rejected=delta.get("rejected_calls"),
                p50_us=p50,
                p99_us=p99,
            )
        )
    if any(name not in after for name in before):
        went_back = True  # a command the server counted before is gone: its statistics were reset
    windows.sort(key=lambda window: (-window.calls, window.name))
    return tuple(windows), went_back


def _named_as(own: Mapping[str, int], counted: Mapping[str, object]) -> dict[str, int]:
    """`own` by the names the server counts under: before 7.0, `client|list` is counted as `client`."""
    named: dict[str, int] = {}
    for name, calls in own.items():
        base = name.partition("|")[0]
        key = base if name not in counted and base in counted else name
        named[key] = named.get(key, 0) + calls
    return named


def differences(
    before: Mapping[str, int], after: Mapping[str, int], own: Mapping[str, int]
) -> tuple[dict[str, int], bool]:
    """`after − before − own` per counter (a counter new at the end counts from 0), positive ones only; and
    whether some counter went backwards."""
    out: dict[str, int] = {}
    went_back = False
    for name, value in after.items():
        delta = value - before.get(name, 0)
        if delta < 0:
            went_back = True
        elif delta - own.get(name, 0) > 0:
            out[name] = delta - own.get(name, 0)
    return out, went_back or any(name not in after for name in before)


def _commandstats(snapshot: Snapshot) -> dict[str, dict[str, int]]:
    """`cmdstat_get:calls=…,usec=…,rejected_calls=…,failed_calls=…` → command → integer counters."""
    out: dict[str, dict[str, int]] = {}
    for name, value in snapshot.section("commandstats").items():
        if name.startswith("cmdstat_"):
            counters = {k: int(v) for k, v in pairs(value).items() if k != "usec_per_call" and v.isdigit()}
            out[name[len("cmdstat_") :].lower()] = counters
    return out


def _errorstats(snapshot: Snapshot) -> dict[str, int]:
    """`errorstat_WRONGTYPE:count=3` → error prefix → count."""
    return {
        name[len("errorstat_") :]: int(pairs(value).get("count", "0") or 0)
        for name, value in snapshot.section("errorstats").items()
        if name.startswith("errorstat_")
    }


def _stats(snapshot: Snapshot) -> dict[str, int]:
    return {name: value for name in WINDOW_COUNTERS if (value := snapshot.field_int("stats", name)) is not None}


def _latency(snapshot: Snapshot) -> dict[str, tuple[float | None, float | None]]:
    """`latency_percentiles_usec_get:p50=1.003,p99=2.007,p99.9=3.007` → command → (p50, p99) in µs."""
    out: dict[str, tuple[float | None, float | None]] = {}
    for name, value in snapshot.section("latencystats").items():
        if name.startswith("latency_percentiles_usec_"):
            fields = pairs(value)
            out[name[len("latency_percentiles_usec_") :].lower()] = (
                _float(fields.get("p50")),
                _float(fields.get("p99")),
            )
    return out


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
