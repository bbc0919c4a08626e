"""The slow log, as the traffic window reads it: the entries logged inside the window, and what the older ones
say of the recent past (how many, since when).

Each entry keeps at most 32 arguments of at most 128 bytes (the server truncates), the execution time in µs
(not the time the client waited) and, from Redis 4.0, the client's address and name.
"""

from __future__ import annotations

from typing import Any

from rediscipline.model.traffic import SlowCall
from rediscipline.redis_meta.commands import with_subcommand
from rediscipline.sources.traffic.replies import reply_text

#: Entries asked for: the server's default `slowlog-max-len` is 128.
SLOWLOG_ENTRIES = 128


def slow_calls(reply: Any) -> tuple[SlowCall, ...]:
    """SLOWLOG GET's reply → its entries, newest first (as the server lists them); malformed ones skipped."""
    calls: list[SlowCall] = []
    for entry in reply if isinstance(reply, list) else ():
        if not isinstance(entry, list) or len(entry) < 4 or not isinstance(entry[3], list) or not entry[3]:
            continue
        try:
            entry_id, time, duration = int(entry[0]), int(entry[1]), int(entry[2])
        except (TypeError, ValueError):
            continue
        args = tuple(bytes(arg) if isinstance(arg, bytes) else str(arg).encode() for arg in entry[3])
        name, rest = with_subcommand(args[0].decode("utf-8", "replace").lower(), args[1:])
        client = reply_text(entry[4]) if len(entry) > 4 else ""
        client_name = reply_text(entry[5]) if len(entry) > 5 else ""
        calls.append(SlowCall(entry_id, time, duration, name, rest or (), client, client_name))
    return tuple(calls)


def newest_id(reply: Any) -> int:
    """The id of the newest entry in `SLOWLOG GET 1`'s reply: entries logged after it are inside the window
    (-1 when the log is empty or refused)."""
    calls = slow_calls(reply)
    return calls[0].id if calls else -1
