"""How big the hottest keys are, read after the window: a hot key that is also big is the worst kind (every
access moves its bytes through one node), and the rules tell one from the other by these numbers.

For at most SIZES_READ keys, in one pipelined round trip per database: TYPE and `MEMORY USAGE` (the server's
estimate; it samples 5 elements of a collection, so it is O(1) in practice), then the length by type (STRLEN,
LLEN, HLEN, SCARD, ZCARD, XLEN), all O(1). A key gone by then, or a command the user may not run, leaves its
number None.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rediscipline.model.traffic import HotKey
from rediscipline.sources.live.wire import Wire, is_error
from rediscipline.sources.traffic.replies import reply_int, reply_text

#: The hottest keys whose sizes are read.
SIZES_READ = 10
#: The O(1) length of each type.
LENGTH_COMMANDS = {
    "string": "STRLEN",
    "list": "LLEN",
    "hash": "HLEN",
    "set": "SCARD",
    "zset": "ZCARD",
    "stream": "XLEN",
}


def read_sizes(wire: Wire, hot: Sequence[HotKey], limit: int = SIZES_READ) -> tuple[HotKey, ...]:
    """`hot` with the type, memory and length of its first `limit` keys filled in."""
    sized = list(hot)
    by_db: dict[int, list[int]] = {}
    for index, hot_key in enumerate(hot[:limit]):
        by_db.setdefault(hot_key.db, []).append(index)
    for db, indexes in sorted(by_db.items()):
        if is_error(wire.call("SELECT", db)):
            continue
        keys = [hot[index].key for index in indexes]
        wire.send([command for key in keys for command in (("TYPE", key), ("MEMORY", "USAGE", key))])
        replies = wire.receive(2 * len(keys))
        types = [_type(reply) for reply in replies[0::2]]
        memories = [reply_int(reply) for reply in replies[1::2]]
        measured = [
            (key, LENGTH_COMMANDS[kind]) for key, kind in zip(keys, types, strict=True) if kind in LENGTH_COMMANDS
        ]
        wire.send([(command, key) for key, command in measured])
        lengths = dict(zip((key for key, _command in measured), wire.receive(len(measured)), strict=True))
        for index, key, kind, memory in zip(indexes, keys, types, memories, strict=True):
            sized[index] = dataclasses.replace(hot[index], type=kind, memory=memory, length=reply_int(lengths.get(key)))
    return tuple(sized)


def _type(reply: object) -> str | None:
    """TYPE's reply as a type name, None for a key that is gone (`none`) or an error."""
    text = None if is_error(reply) else reply_text(reply)
    return None if text == "none" else text
