"""Latency events of the window, from the server's own latency monitor: `LATENCY LATEST`.

The server records an event (`command`, `fast-command`, `fork`, `expire-cycle`, `eviction-cycle`, `aof-fsync-always`,
...) only when `latency-monitor-threshold` is above 0, which it is not by default; this tool reads the setting
and never changes it. `LATENCY LATEST` gives per event its latest occurrence (Unix seconds), that one's
duration and the largest since the server started (milliseconds): the events whose latest occurrence falls in
the window are the window's (an event that happened in the window and again after it is still listed, with
its latest duration).
"""

from __future__ import annotations

from collections.abc import Callable

from rediscipline.model.traffic import LatencyEvent
from rediscipline.sources.live.wire import is_error
from rediscipline.sources.traffic.replies import reply_int, reply_text

#: The source's name in the report.
SOURCE_LATENCY = "LATENCY LATEST"

Call = Callable[..., object]


def latency_threshold(call: Call) -> tuple[int | None, str | None]:
    """`latency-monitor-threshold` in ms (None when unknown), and why the events cannot be read (None when they
    can: the threshold is above 0)."""
    reply = call("CONFIG", "GET", "latency-monitor-threshold")
    if is_error(reply) or not isinstance(reply, list) or len(reply) != 2:
        return None, f"CONFIG GET latency-monitor-threshold: {reply}" if is_error(reply) else "no such setting"
    threshold = reply_int(reply[1])
    if not threshold:
        return (
            threshold,
            "latency-monitor-threshold is 0: the server records no latency events (this tool never sets it)",
        )
    return threshold, None


def latency_events(call: Call, since: float) -> tuple[tuple[LatencyEvent, ...], str | None]:
    """The events whose latest occurrence is at `since` (Unix seconds) or later, longest first; or the refusal."""
    reply = call("LATENCY", "LATEST")
    if is_error(reply) or not isinstance(reply, list):
        return (), f"{reply}"
    events = []
    for entry in reply:
        if not isinstance(entry, list) or len(entry) < 4:
            continue
        moment, latest, largest = (reply_int(value) for value in entry[1:4])
        if moment is None or latest is None or largest is None or moment < int(since):
            continue
        events.append(LatencyEvent(reply_text(entry[0]), moment, latest, largest))
    events.sort(key=lambda event: (-event.latest_ms, event.event))
    return tuple(events), None
