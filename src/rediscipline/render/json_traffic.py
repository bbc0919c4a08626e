"""The JSON report's `traffic` list: every window a `rediscipline traffic` run observed, with every item its view
kept (documented in docs/json-report.md).

What the server said is written as the rest of the report writes outside text: short names (commands, error
prefixes, client classes, types) bounded by QUOTE_LIMIT, client names by NAME_LIMIT, addresses and refusals
by TEXT_LIMIT (`cut_text`: exact within the bound, and `json_safe` escapes the unsafe characters). Slow-call
arguments and the keys of hot keys and queues are bytes, written as key names are (`render.names`): exact
text, or display text with `*_b64`, or cut with `*_length` and `*_ref` into the report's `long_names`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, cut_text, inert
from rediscipline.model.traffic import ClientInfo, CommandWindow, QueueStat, SlowCall, TrafficView
from rediscipline.render.json_monitor import monitor_object
from rediscipline.render.names import LongNames, name_fields
from rediscipline.render.traffic import RATE_COUNTERS

#: Digits kept of a rate or an average (they are measurements over seconds, not exact values).
DIGITS = 3


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DIGITS)


def _command(view: TrafficView, command: CommandWindow) -> dict[str, Any]:
    return {
        "name": cut_text(command.name, QUOTE_LIMIT),
        "calls": command.calls,
        "calls_per_second": _rounded(view.per_second(command.calls)),
        "usec": command.usec,
        "usec_per_call": _rounded(command.usec_per_call),
        "failed": command.failed,
        "rejected": command.rejected,
        "p50_us": command.p50_us,
        "p99_us": command.p99_us,
    }


def _stats(view: TrafficView) -> dict[str, Any]:
    return {
        cut_text(name, QUOTE_LIMIT): {
            "count": count,
            "per_second": _rounded(view.per_second(count)) if name in RATE_COUNTERS else None,
        }
        for name, count in view.stats.items()
    }


def _client(client: ClientInfo) -> dict[str, Any]:
    return {
        "id": client.id,
        "addr": cut_text(client.addr),
        "name": cut_text(client.name, NAME_LIMIT),
        "flags": cut_text(client.flags, QUOTE_LIMIT),
        "cmd": cut_text(client.cmd, QUOTE_LIMIT),
        "db": client.db,
        "age": client.age,
        "idle": client.idle,
        "sub": client.sub,
        "psub": client.psub,
        "ssub": client.ssub,
        "multi": client.multi,
        "watch": client.watch,
        "omem": client.omem,
        "class": client.output_class,
        "lib": cut_text(client.lib, QUOTE_LIMIT),
    }


def _slow_call(call: SlowCall, long_names: LongNames) -> dict[str, Any]:
    return {
        "id": call.id,
        "time": call.time,
        "duration_us": call.duration_us,
        "command": cut_text(call.command, QUOTE_LIMIT),
        "args": [name_fields("arg", arg, long_names) for arg in call.args],
        "client": cut_text(call.client),
        "client_name": cut_text(call.client_name, NAME_LIMIT),
    }


def _queue(view: TrafficView, queue: QueueStat, long_names: LongNames) -> dict[str, Any]:
    return {
        **name_fields("key", queue.key, long_names),
        "db": queue.db,
        "type": cut_text(queue.type, QUOTE_LIMIT),
        "reason": cut_text(queue.reason, NAME_LIMIT),
        "length_start": queue.length_start,
        "length_end": queue.length_end,
        "growth_per_second": _rounded(queue.growth_per_second(view.seconds)),
        "groups": [
            {"name": cut_text(g.name, NAME_LIMIT), "consumers": g.consumers, "pending": g.pending, "lag": g.lag}
            for g in queue.groups
        ],
    }


def _slot_heat(view: TrafficView) -> dict[str, Any] | None:
    heat = view.slot_heat
    if heat is None:
        return None
    return {
        "slots": heat.slots,
        "cpu_usec": heat.cpu_usec,
        "network_bytes": heat.network_bytes,
        "hot": [
            {
                "slot": slot.slot,
                "cpu_usec": slot.cpu_usec,
                "cpu_usec_per_second": _rounded(view.per_second(slot.cpu_usec)),
                "cpu_share": None if (share := heat.cpu_share(slot)) is None else round(share, 4),
                "network_bytes": slot.network_bytes,
                "network_bytes_per_second": _rounded(view.per_second(slot.network_bytes)),
                "keys": slot.keys,
            }
            for slot in heat.hot
        ],
    }


def _view(view: TrafficView, long_names: LongNames) -> dict[str, Any]:
    errors = sorted(view.errors.items(), key=lambda item: (-item[1], item[0]))
    return {
        "address": None if view.origin.path is None else cut_text(view.origin.path),
        "started": view.started,
        "seconds": view.seconds,
        "reset": view.reset,
        "calls": view.calls,
        "calls_per_second": _rounded(view.per_second(view.calls)),
        "commands": [_command(view, command) for command in view.commands],
        "errors": [{"error": cut_text(prefix, QUOTE_LIMIT), "count": count} for prefix, count in errors],
        "stats": _stats(view),
        "clients": {
            "total": view.clients_total,
            "listed": len(view.clients),
            "items": [_client(client) for client in view.clients],
        },
        "output_limits": {
            cut_text(name, QUOTE_LIMIT): {"hard": hard, "soft": soft, "soft_seconds": seconds}
            for name, (hard, soft, seconds) in view.output_limits.items()
        },
        "slow_calls": [_slow_call(call, long_names) for call in view.slow_calls],
        "slowlog": {
            "history": view.slowlog_history,
            "since": view.slowlog_since,
            "threshold_us": view.slowlog_threshold_us,
        },
        "hot_keys": [
            {
                **name_fields("key", hot.key, long_names),
                "db": hot.db,
                "ops_per_second": _rounded(hot.ops_per_second),
                "saturated": hot.saturated,
                "counter_start": hot.counter_start,
                "counter_end": hot.counter_end,
                "ops_error": _rounded(hot.ops_error),
                "bytes_per_second": _rounded(hot.bytes_per_second),
                "type": None if hot.type is None else cut_text(hot.type, QUOTE_LIMIT),
                "length": hot.length,
                "memory": hot.memory,
                "source": cut_text(hot.source, QUOTE_LIMIT),
            }
            for hot in view.hot_keys
        ],
        "hot_keys_sampled": view.hot_keys_sampled,
        "hot_keys_population": view.hot_keys_population,
        "queues": [_queue(view, queue, long_names) for queue in view.queues],
        "latency": {
            "threshold_ms": view.latency_threshold_ms,
            "events": [
                {"event": cut_text(e.event, QUOTE_LIMIT), "time": e.time, "latest_ms": e.latest_ms, "max_ms": e.max_ms}
                for e in view.latency_events
            ],
        },
        "slot_heat": _slot_heat(view),
        "monitor": None if view.monitor is None else monitor_object(view.monitor, view.monitor_cost, long_names),
        "sources": [
            {
                "name": cut_text(source.name, QUOTE_LIMIT),
                "blind_spots": {"en": inert(source.blind_spots.en), "zh": inert(source.blind_spots.zh)},
                "error": None if source.error is None else cut_text(source.error),
            }
            for source in view.sources
        ],
    }


def traffic_list(views: Sequence[TrafficView], long_names: LongNames) -> list[dict[str, Any]]:
    """One object per window, in the report's order."""
    return [_view(view, long_names) for view in views]


__all__ = ["traffic_list"]
