"""What a live scan's report says about the scan itself: the header's partial marks and the notes.

A live report must never look more complete than it is: every way it can cover less than the server holds
(interrupted, given up, resumed, keys the user may not read, databases not reached, a restart or a flush in
the middle, one shard of a cluster, a stale replica) gets a `PARTIAL_*` code in the header and a note (a code
with its parameters, worded by `render.notes`) saying what it costs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rediscipline.model.note import Note, note
from rediscipline.model.report import (
    PARTIAL_CONNECTION_LOST,
    PARTIAL_DATABASES,
    PARTIAL_FLUSHED,
    PARTIAL_INTERRUPTED,
    PARTIAL_RESTARTED,
    PARTIAL_RESUMED,
    PARTIAL_SHARDS,
    PARTIAL_SHRANK,
    PARTIAL_STALE_REPLICA,
    PARTIAL_UNREADABLE,
)
from rediscipline.model.server import CHECK_INFO, CHECK_SELECT
from rediscipline.sources.live.consistency import Drift
from rediscipline.sources.live.probes import ELEMENT_CAP


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened during one live scan, for its header and notes."""

    unavailable: Mapping[str, str]
    interrupted: bool = False
    stopped: str | None = None  # why the scan gave up (the server could not be reached again)
    resume_token: str | None = None  # where to continue, when it stopped early
    resumed_from: str | None = None
    rate: float | None = None
    population: int = 0
    filtered: bool = False
    unreadable: int = 0  # keys listed that the scanning user may not read
    drift: Drift | None = None
    fell_short: tuple[int, int] | None = None  # (keys at the start, keys SCAN listed) when most were missed
    vanished: tuple[int, int] | None = None  # (keys listed, keys gone before their probe) when most vanished
    not_scanned: tuple[int, ...] = ()
    cluster_masters: int | None = None
    stale_replica: str | None = None
    elements_unread: int = 0
    reconnects: int = 0
    databases: int | None = None  # how many the server has (CONFIG `databases`), when known

    @property
    def databases_unknown(self) -> bool:
        """INFO and SELECT both refused: databases other than 0 could be neither counted nor scanned."""
        return CHECK_INFO in self.unavailable and CHECK_SELECT in self.unavailable

    def partial(self) -> tuple[str, ...]:
        drift = self.drift
        marks = (
            (PARTIAL_INTERRUPTED, self.interrupted),
            (PARTIAL_CONNECTION_LOST, self.stopped is not None),
            (PARTIAL_RESUMED, self.resumed_from is not None),
            (PARTIAL_RESTARTED, drift is not None and drift.restarted),
            (PARTIAL_FLUSHED, drift is not None and drift.flushes > 0),
            (PARTIAL_SHRANK, (drift is not None and drift.shrank) or bool(self.fell_short or self.vanished)),
            (PARTIAL_UNREADABLE, self.unreadable > 0),
            (PARTIAL_DATABASES, bool(self.not_scanned) or self.databases_unknown),
            (PARTIAL_SHARDS, self.cluster_masters is not None and self.cluster_masters != 1),
            (PARTIAL_STALE_REPLICA, self.stale_replica is not None),
        )
        return tuple(code for code, applies in marks if applies)

    def notes(self) -> list[Note]:
        """The notes of this scan, in the report's order: refusals, coverage, changes, how keys were drawn.

        The note about unreadable keys is the driver's: their patterns are counted by the engine.
        """
        notes = [note("refused", check=check, reason=reason) for check, reason in sorted(self.unavailable.items())]
        notes += self._coverage()
        notes += self._changes()
        if self.rate is not None and self.rate < 1:
            notes.append(note("sampled", population=self.population, rate=self.rate))
        if self.filtered:
            notes.append(note("scan-filtered"))
        if self.elements_unread:
            notes.append(note("elements-unread", collections=self.elements_unread, cap_mb=ELEMENT_CAP >> 20))
        return notes

    def _coverage(self) -> list[Note]:
        """Where the scan stopped, where it started, what it could not reach."""
        notes: list[Note] = []
        if self.stopped is not None:
            notes.append(note("scan-stopped", reason=self.stopped, resume=self.resume_token))
        elif self.interrupted:
            notes.append(note("scan-interrupted", resume=self.resume_token))
        if self.reconnects:
            notes.append(note("reconnected", times=self.reconnects))
        if self.resumed_from is not None:
            notes.append(note("resumed", cursor=self.resumed_from))
        if self.not_scanned:
            notes.append(note("databases-not-scanned", dbs=self.not_scanned))
        elif self.databases_unknown:
            notes.append(note("databases-unknown", databases=self.databases))
        if self.cluster_masters is not None and self.cluster_masters != 1:
            notes.append(note("cluster-node", masters=self.cluster_masters))
        if self.stale_replica is not None:
            notes.append(note("stale-replica", state=self.stale_replica))
        return notes

    def _changes(self) -> list[Note]:
        """The server changing under the scan: a restart, a flush, keys vanishing en masse."""
        notes: list[Note] = []
        drift = self.drift
        meanwhile = {"expired": drift.expired, "evicted": drift.evicted} if drift is not None else {}
        if drift is not None and drift.restarted:
            notes.append(note("server-restarted"))
        if drift is not None and drift.flushes:
            notes.append(note("flushed", calls=drift.flushes))
        if drift is not None and drift.shrank:
            notes.append(note("keyspace-shrank", before=drift.keys_before, after=drift.keys_after, **meanwhile))
        if self.fell_short is not None:
            before, seen = self.fell_short
            notes.append(note("fell-short", before=before, seen=seen, **meanwhile))
        if self.vanished is not None:
            listed, gone = self.vanished
            notes.append(note("vanished", listed=listed, gone=gone))
        return notes
