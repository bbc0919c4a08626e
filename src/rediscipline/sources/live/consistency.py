"""Did the server stay the same server, with the same keyspace, while it was scanned?

A scan takes minutes to hours. A restart (a new `run_id`), a FLUSHALL or FLUSHDB, or a mass deletion in that
time leaves a report that covers a fraction of the keys its header counts, with nothing wrong in it. So the
scan compares what the server says at the start, at every reconnection and at the end: its run_id, the
FLUSHALL/FLUSHDB calls in its commandstats, the keys of the scanned databases (INFO keyspace, or DBSIZE for a
user without INFO), and the keys it expired and evicted meanwhile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rediscipline.sources.live.server import commandstats_of, keyspace_of, read_info
from rediscipline.sources.live.wire import Wire, is_error

#: The keyspace "shrank" when fewer than this share of the keys at the start are left (or were seen) ...
SHRINK_SHARE = 0.5
#: ... and at least this many keys are missing (a few keys expiring from a tiny database is not news).
SHRINK_MIN_KEYS = 100


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the server says about itself at one moment; None where it would not say."""

    run_id: str | None
    keys: Mapping[int, int] | None  # per scanned database
    flushes: int | None  # FLUSHALL + FLUSHDB calls since the server started
    expired: int | None
    evicted: int | None


def snapshot_of(info: Mapping[str, str], keyspace: Mapping[int, int], dbs: Sequence[int]) -> Snapshot:
    """The snapshot in an INFO already read (`keyspace` from INFO, or counted by DBSIZE without it)."""
    stats = commandstats_of(dict(info))
    flushes = stats.get("flushall", 0) + stats.get("flushdb", 0) if stats else None
    return Snapshot(
        run_id=info.get("run_id"),
        keys={db: keyspace.get(db, 0) for db in dbs},
        flushes=flushes,
        expired=_int(info.get("expired_keys")),
        evicted=_int(info.get("evicted_keys")),
    )


def take_snapshot(wire: Wire, dbs: Sequence[int]) -> Snapshot:
    """Read a snapshot at the end of a scan: INFO when allowed, else DBSIZE of each scanned database.

    The connection is on the last database scanned; with one database no SELECT is needed (a user without
    SELECT scanned only the one it is on). With several, the connection moves.
    """
    info = read_info(wire)
    if info is not None:
        return snapshot_of(info, keyspace_of(info)[0], dbs)
    keys: dict[int, int] = {}
    for db in dbs:
        commands: list[tuple[bytes | int, ...]] = [(b"DBSIZE",)] if len(dbs) == 1 else [(b"SELECT", db), (b"DBSIZE",)]
        replies = _pipeline(wire, commands)
        if any(is_error(reply) for reply in replies) or not isinstance(replies[-1], int):
            return Snapshot(None, None, None, None, None)
        keys[db] = replies[-1]
    return Snapshot(None, keys, None, None, None)


def read_run_id(wire: Wire) -> str | None:
    """The server's run_id (INFO server), or None when INFO is refused."""
    reply = wire.call(b"INFO", b"server")
    if is_error(reply) or not isinstance(reply, bytes):
        return None
    for line in reply.decode("ascii", "replace").splitlines():
        if line.startswith("run_id:"):
            return line[len("run_id:") :].strip()
    return None


@dataclass(frozen=True, slots=True)
class Drift:
    """How the server changed between two snapshots."""

    restarted: bool
    flushes: int  # FLUSHALL/FLUSHDB calls in between (0 when unknown)
    keys_before: int | None
    keys_after: int | None
    expired: int | None  # keys the server expired in between
    evicted: int | None

    @property
    def shrank(self) -> bool:
        before, after = self.keys_before, self.keys_after
        return before is not None and after is not None and _lost(before, after)


def drift(start: Snapshot, end: Snapshot, *, restarted: bool = False) -> Drift:
    def delta(a: int | None, b: int | None) -> int | None:
        return b - a if a is not None and b is not None and b >= a else None

    restart = restarted or (start.run_id is not None and end.run_id is not None and start.run_id != end.run_id)
    flushes = delta(start.flushes, end.flushes) if not restart else None
    return Drift(
        restarted=restart,
        flushes=flushes or 0,
        keys_before=sum(start.keys.values()) if start.keys is not None else None,
        keys_after=sum(end.keys.values()) if end.keys is not None else None,
        expired=None if restart else delta(start.expired, end.expired),
        evicted=None if restart else delta(start.evicted, end.evicted),
    )


def fell_short(before: int, seen: int) -> bool:
    """Whether a full scan that saw `seen` keys missed most of the `before` the server held at its start.

    SCAN returns every key present for the whole scan, so only keys deleted (or expired) meanwhile are missed.
    """
    return _lost(before, seen)


def _lost(before: int, after: int) -> bool:
    return after < before * SHRINK_SHARE and before - after >= SHRINK_MIN_KEYS


def _pipeline(wire: Wire, commands: list[tuple[bytes | int, ...]]) -> list[Any]:
    wire.send(commands)
    return wire.receive(len(commands))


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() else None
