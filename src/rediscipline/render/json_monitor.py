"""The `monitor` object of a JSON traffic window: what a MONITOR sample counted, each count from a sketch with
its error (the true value is between `count - error` and `count`), and what the sample cost the server
(documented in docs/json-report.md). Keys and patterns are written as key names are (`render.names`); client
addresses and command names are bounded text."""

from __future__ import annotations

from typing import Any

from rediscipline.model.display import QUOTE_LIMIT, cut_text
from rediscipline.model.monitor import KeyCount, MonitorSample
from rediscipline.model.traffic import MonitorCost
from rediscipline.render.names import LongNames, name_fields


def _key(hot: KeyCount, long_names: LongNames) -> dict[str, Any]:
    return {
        **name_fields("key", hot.key, long_names),
        "db": hot.db,
        "count": round(hot.count),
        "error": round(hot.error),
    }


def monitor_object(sample: MonitorSample, cost: MonitorCost | None, long_names: LongNames) -> dict[str, Any]:
    """Everything the sample kept, and its cost (None when it was not measured)."""
    return {
        "stopped": sample.stopped,
        "error": None if sample.error is None else cut_text(sample.error),
        "lines": sample.lines,
        "malformed": sample.malformed,
        "bytes_read": sample.bytes_read,
        "max_bytes": sample.max_bytes,
        "seconds": round(sample.seconds, 3),
        "first_time": sample.first_time,
        "last_time": sample.last_time,
        "span": round(sample.span, 6),
        "cost": None
        if cost is None
        else {
            "ops_before": cost.ops_before,
            "seconds_before": cost.seconds_before,
            "ops_during": cost.ops_during,
            "seconds_during": cost.seconds_during,
            "drop": None if cost.drop is None else round(cost.drop, 4),
        },
        "commands": {cut_text(name, QUOTE_LIMIT): calls for name, calls in sample.commands.items()},
        "other_commands": sample.other_commands,
        "key_ops": sample.key_ops,
        "key_bytes": sample.key_bytes,
        "sketch_capacity": sample.sketch_capacity,
        "hot_by_ops": [_key(hot, long_names) for hot in sample.hot_by_ops],
        "hot_by_bytes": [_key(hot, long_names) for hot in sample.hot_by_bytes],
        "ops_floor": round(sample.ops_floor),
        "bytes_floor": round(sample.bytes_floor),
        "hot_by_ops_exact": sample.hot_by_ops_exact,
        "clients": [{"client": cut_text(c.client), "count": c.count, "error": c.error} for c in sample.clients],
        "senders": {
            cut_text(name, QUOTE_LIMIT): [{"client": cut_text(c.client), "count": c.count} for c in clients]
            for name, clients in sample.senders.items()
        },
        "multi_key": [
            {
                "command": cut_text(shape.command, QUOTE_LIMIT),
                "calls": shape.calls,
                "max_keys": shape.max_keys,
                "calls_by_keys": {str(size): calls for size, calls in shape.histogram.items()},
                "largest_client": cut_text(shape.largest_client),
                **name_fields("largest_key", shape.largest_key, long_names),
            }
            for shape in sample.arity
        ],
        "transactions": [
            {
                "client": cut_text(t.client),
                "transactions": t.transactions,
                "max_commands": t.max_commands,
                "commands": t.commands,
            }
            for t in sample.transactions
        ],
        "transactions_untracked": sample.transactions_untracked,
        "writes_without_ttl": [
            {
                **name_fields("pattern", writes.pattern, long_names),
                "count": writes.count,
                "error": writes.error,
                "command": cut_text(writes.example_command, QUOTE_LIMIT),
                **name_fields("example", writes.example, long_names),
            }
            for writes in sample.writes_without_ttl
        ],
        "ttls": [
            {
                **name_fields("pattern", shape.pattern, long_names),
                "writes": shape.writes,
                "writes_error": shape.writes_error,
                "ttl_ms": shape.ttl_ms,
                "absolute": shape.absolute,
                "repeats": shape.repeats,
                "repeats_error": shape.repeats_error,
                "burst": shape.burst,
                "burst_ttl_ms": shape.burst_ttl_ms,
                "burst_command": cut_text(shape.burst_command, QUOTE_LIMIT),
                **name_fields("example", shape.example, long_names),
            }
            for shape in sample.ttls
        ],
        "blocking": [
            {
                "command": cut_text(shape.command, QUOTE_LIMIT),
                "calls": shape.calls,
                "forever": shape.forever,
                "client": cut_text(shape.client),
                **name_fields("key", shape.key, long_names),
            }
            for shape in sample.blocking
        ],
    }
