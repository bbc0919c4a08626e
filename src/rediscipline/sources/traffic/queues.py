"""Lists and streams used as queues: their length at each end of the window, and a stream's consumer groups.

Which keys are queues is not something a server says. They come from three places: the keys given with
`--queue`, the declared namespaces whose pattern is one key of type list or stream (`[namespaces."jobs:mail"]
type = "list"`), and the keys of blocking reads (BLPOP, BRPOPLPUSH, XREADGROUP ... BLOCK) the slow log holds
from before the window; keys first seen in the slow log inside the window are read at the end only. Each
reading is O(1) per key (TYPE, then LLEN or XLEN, and XINFO GROUPS for a stream), pipelined, and taken
outside the window so that it is not counted in the window's traffic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.traffic import QueueStat, SlowCall, StreamGroup
from rediscipline.redis_meta.command_table_generated import COMMANDS
from rediscipline.redis_meta.commands import key_positions
from rediscipline.sources.live.wire import Wire, is_error
from rediscipline.sources.traffic.replies import reply_int, reply_text

#: Commands that block reading a list or a stream: their keys are queues someone waits on.
QUEUE_READS = frozenset(
    name for name, info in COMMANDS.items() if info.is_blocking and info.key_type in ("list", "stream")
)
#: Queues read at most.
QUEUES_KEPT = 100

REASON_OPTION = "--queue"
REASON_SLOWLOG = "blocking reads in the slow log"


def declared_queues(namespaces: Iterable[NamespacePolicy]) -> tuple[tuple[bytes, str], ...]:
    """The declared namespaces that are one list or stream key (a pattern without glob characters)."""
    return tuple(
        (policy.pattern.encode(), f"namespace {policy.pattern}")
        for policy in namespaces
        if policy.type in ("list", "stream") and not any(char in policy.pattern for char in "*?[")
    )


@dataclass(frozen=True, slots=True)
class Reading:
    type: str
    length: int | None
    groups: tuple[StreamGroup, ...] = ()


def queue_reads(calls: Iterable[SlowCall]) -> dict[bytes, str]:
    """The keys of blocking list and stream reads among slow-log entries."""
    found: dict[bytes, str] = {}
    for call in calls:
        if call.command not in QUEUE_READS:
            continue
        argv = (call.command.encode(), *call.args)
        for position in key_positions(argv):
            found.setdefault(argv[position], REASON_SLOWLOG)
    return found


def read_queues(wire: Wire, db: int, keys: Sequence[bytes]) -> dict[bytes, Reading]:
    """TYPE of each key, then LLEN or XLEN (and XINFO GROUPS) of the lists and streams among them."""
    if not keys:
        return {}
    wire.call("SELECT", db)  # whatever database the hot keys' readings left the connection in
    wire.send([("TYPE", key) for key in keys])
    types = {key: reply_text(reply) for key, reply in zip(keys, wire.receive(len(keys)), strict=True)}
    queues = [key for key in keys if types[key] in ("list", "stream")]
    commands: list[tuple[str | bytes, ...]] = []
    for key in queues:
        commands.append(("LLEN", key) if types[key] == "list" else ("XLEN", key))
        if types[key] == "stream":
            commands.append(("XINFO", "GROUPS", key))
    if commands:
        wire.send(commands)
    replies = iter(wire.receive(len(commands)) if commands else [])
    readings: dict[bytes, Reading] = {}
    for key in queues:
        length = next(replies)
        groups: tuple[StreamGroup, ...] = ()
        if types[key] == "stream":
            groups = stream_groups(next(replies))
        readings[key] = Reading(types[key], None if is_error(length) else int(length), groups)
    return readings


def stream_groups(reply: object) -> tuple[StreamGroup, ...]:
    """XINFO GROUPS' reply (a flat field list per group, RESP2) → its groups."""
    if not isinstance(reply, list):
        return ()
    groups: list[StreamGroup] = []
    for entry in reply:
        if not isinstance(entry, list):
            continue
        fields = {reply_text(entry[i]): entry[i + 1] for i in range(0, len(entry) - 1, 2)}
        lag = fields.get("lag")
        groups.append(
            StreamGroup(
                name=reply_text(fields.get("name", b"")),
                consumers=reply_int(fields.get("consumers")) or 0,
                pending=reply_int(fields.get("pending")) or 0,
                lag=reply_int(lag) if lag is not None else None,
            )
        )
    return tuple(groups)


def queue_stats(
    db: int,
    candidates: Mapping[bytes, str],
    start: Mapping[bytes, Reading],
    end: Mapping[bytes, Reading],
) -> tuple[QueueStat, ...]:
    """The queues found at either end, in the order the candidates were given."""
    stats: list[QueueStat] = []
    for key, reason in candidates.items():
        first, last = start.get(key), end.get(key)
        if first is None and last is None:
            continue
        kind = (last or first).type  # type: ignore[union-attr]  # one of them is there
        stats.append(
            QueueStat(
                db=db,
                key=key,
                type=kind,
                reason=reason,
                length_start=None if first is None else first.length,
                length_end=None if last is None else last.length,
                groups=() if last is None else last.groups,
            )
        )
    return tuple(stats)
