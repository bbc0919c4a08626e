"""Walk a live keyspace with SCAN and pipelined, bounded probes; yield one KeyFact per key.

Each database is walked by a `pipeline.DbScan`. The batch (SCAN COUNT) adapts so that the time the server
spends on one of our round trips stays near `target_ms`; `max_ops` caps commands per second. Keys that vanish
or change type between SCAN and probe are counted as skipped; keys the user may not read are yielded as
`Unreadable`. A dropped connection is reopened (see `retry` for how patiently) and the scan resumes from the
cursor of the oldest batch not fully reported, without reporting a key twice; when the server stays away,
the scan stops with `stopped` saying why and `resume_token` where to continue.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rediscipline.model.facts import KeyFact
from rediscipline.model.location import SOURCE_LIVE, Location
from rediscipline.model.server import CHECK_SELECT, ServerFact
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.defaults import (
    DEFAULT_BATCH,
    DEFAULT_RETRIES,
    DEFAULT_TARGET_MS,
    MAX_BATCH,
    MIN_BATCH,
)
from rediscipline.sources.live.pipeline import SKIPPED, DbScan, Skipped, Unreadable
from rediscipline.sources.live.probes import Probes
from rediscipline.sources.live.retry import Backoff
from rediscipline.sources.live.wire import LostConnection, Wire, is_error

Progress = Callable[[int, int], None]
#: How the batch changes after a round trip slower than the target (shrink) or under half of it (grow).
BATCH_SHRINK = 0.7
BATCH_GROW = 1.25
__all__ = ["SKIPPED", "LiveScanner", "Progress", "ScanSettings", "Skipped", "Unreadable"]


@dataclass(frozen=True, slots=True)
class ScanSettings:
    dbs: tuple[int, ...]
    match: bytes | None = None
    type: str | None = None
    sample_rate: float | None = None
    seed: int | None = None
    batch: int = DEFAULT_BATCH
    target_ms: float = DEFAULT_TARGET_MS
    max_ops: int | None = None
    resume: tuple[int, int] | None = None  # (db, cursor)
    retries: int = DEFAULT_RETRIES


class LiveScanner:
    def __init__(
        self,
        *,
        reconnect: Callable[[], Wire],
        wire: Wire,
        display: str,
        probes: Probes,
        settings: ScanSettings,
        server: ServerFact,
        unavailable: dict[str, str],
        progress: Progress | None = None,
        on_reconnect: Callable[[Wire], None] | None = None,
        clock: bool = True,
    ) -> None:
        """`clock`: read the server's clock (TIME) to turn TTLs into expiry times; only when TTLs are probed."""
        self._reconnect = reconnect
        self._on_reconnect = on_reconnect
        self.wire = wire
        self.display = display
        self.probes = probes
        self.settings = settings
        self.unavailable = unavailable
        self.progress = progress
        self.batch = settings.batch
        self.listed = 0  # names returned by SCAN (before sampling)
        self.total = sum(server.keyspace.get(db, 0) for db in settings.dbs)
        self.resume_token: str | None = None
        self.random = random.Random(settings.seed)
        self._db = 0
        self._locations: dict[int, Location] = {}
        offset = _clock_offset(wire) if clock else None
        #: the server answers TIME: each round trip that reads TTLs asks it after them (`pipeline.DbScan`)
        self.server_clock = offset is not None
        self._clock_offset = offset or 0.0
        self._started = time.perf_counter()
        self._sent_before = 0  # commands sent on connections that were lost
        self.backoff = Backoff(settings.retries, rng=random.Random())  # jitter apart from the sampling draw
        self.stopped: str | None = None  # why the scan ended early, when the server could not be reached again
        self.not_scanned: list[int] = []  # databases SELECT refused

    # -- the scan -----------------------------------------------------------------------------------------

    def facts(self) -> Iterator[KeyFact | Skipped | Unreadable]:
        start_db, start_cursor = self.settings.resume or (self.settings.dbs[0] if self.settings.dbs else 0, 0)
        for db in self.settings.dbs:
            if db < start_db:
                continue
            yield from self._scan_db(db, start_cursor if db == start_db else 0)
            if self.stopped is not None:
                return  # resume_token says where to continue
        self.resume_token = None

    def _select(self, db: int) -> bool:
        if db == self._db:
            return True
        reply = self.wire.call(b"SELECT", db)
        if is_error(reply):
            self.refused(CHECK_SELECT, reply)
            return False
        self._db = db
        return True

    def _scan_db(self, db: int, cursor: int) -> Iterator[KeyFact | Skipped | Unreadable]:
        skip: set[bytes] = set()
        reconnected = False
        while True:
            state: DbScan | None = None
            try:
                if not self._select(db):
                    if reconnected:  # the server changed under us (ACL, config): keep what was scanned
                        self.stopped = f"{self.display} refused SELECT {db} after a reconnection"
                    else:
                        self.not_scanned.append(db)
                    return
                state = DbScan(self, db, cursor, skip)
                yield from state.run()
                return
            except LostConnection as error:
                if state is not None:
                    cursor, skip = state.restart_point()
                self.resume_token = f"{db}:{cursor}"
                if not self._reconnect_after(str(error)):
                    return
                reconnected = True

    def _reconnect_after(self, reason: str) -> bool:
        """Open a new connection, waiting between attempts; False (and `stopped` set) when the budget is spent."""
        self._sent_before += self.wire.commands_sent  # keep --max-ops honest across connections
        self.wire.close()
        first = reason
        while True:
            wait = self.backoff.next_wait()
            if wait is None:
                again = "" if reason == first else f"; reconnecting: {reason}"
                self.stopped = f"lost the connection to {self.display} ({first}{again})"
                return False
            time.sleep(wait)
            try:
                wire = self._reconnect()
            except SourceError as error:
                reason = str(error)
                continue
            self.wire, self._db = wire, 0
            try:
                if self._on_reconnect is not None:
                    self._on_reconnect(wire)
            except LostConnection as error:
                reason = str(error)
                wire.close()
                continue
            self.backoff.reconnected()
            return True

    # -- helpers used by DbScan -------------------------------------------------------------------------

    def location(self, db: int) -> Location:
        found = self._locations.get(db)
        if found is None:
            found = self._locations[db] = Location(SOURCE_LIVE, self.display, db=db)
        return found

    def now_ms(self) -> int:
        return int((time.time() + self._clock_offset) * 1000)

    def throttle(self) -> None:
        if self.settings.max_ops is None:
            return
        elapsed = time.perf_counter() - self._started
        ahead = (self._sent_before + self.wire.commands_sent) / self.settings.max_ops - elapsed
        if ahead > 0:
            time.sleep(ahead)

    def adapt(self, waited_ms: float) -> None:
        """Shrink the batch when the server needed longer than the target for one round trip; grow it back."""
        target = self.settings.target_ms
        if waited_ms > target:
            self.batch = max(MIN_BATCH, int(self.batch * BATCH_SHRINK))
        elif waited_ms < target / 2:
            self.batch = min(MAX_BATCH, self.settings.batch, int(self.batch * BATCH_GROW) + 1)

    def refused(self, check: str, reply: Any) -> None:
        """Record the server's refusal of a probe once. The probe stays in the pipeline (requests in flight
        are laid out with it, and an error reply costs the server next to nothing); its field stays None."""
        self.unavailable.setdefault(check, str(reply))


def _clock_offset(wire: Wire) -> float | None:
    """Server clock minus local clock, in seconds, or None when the server does not answer TIME.

    Taken against the midpoint of the TIME round trip, to the microsecond. It places on the server's clock
    what the scan reads with `now_ms()` when the server refuses TIME; otherwise every round trip that reads
    TTLs carries its own TIME (see `pipeline.DbScan`).
    """
    before = time.time()
    reply = wire.call(b"TIME")
    after = time.time()
    if is_error(reply) or not isinstance(reply, list):
        return None
    return int(reply[0]) + int(reply[1]) / 1_000_000 - (before + after) / 2
