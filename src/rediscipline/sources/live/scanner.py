"""Walk a live keyspace with SCAN and pipelined, bounded probes; yield one KeyFact per key.

Each round trip carries the next SCAN plus every key's next probe stage (see `probes`), and it is sent
*before* the facts of the previous round are handed to the engine, so rule evaluation overlaps with the
server's work. The batch (SCAN COUNT) adapts so that the time the server spends on one of our round trips
stays near `target_ms`; `max_ops` caps commands per second. Keys that vanish or change type between SCAN and
probe are counted as skipped. A dropped connection is reopened and the scan resumes from the cursor of the
oldest batch not fully reported, without reporting a key twice.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rediscipline.model.facts import KeyFact
from rediscipline.model.location import SOURCE_LIVE, Location
from rediscipline.model.server import CHECK_MEMORY, CHECK_OBJECT, CHECK_SELECT, ServerFact
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.probes import KeyRecord, Probes
from rediscipline.sources.live.wire import LostConnection, Wire, is_error

Progress = Callable[[int, int], None]
MIN_BATCH = 10
MAX_BATCH = 1000


class Skipped:
    """Yielded for a key that vanished or changed type while it was being probed."""


SKIPPED = Skipped()


@dataclass(frozen=True, slots=True)
class ScanSettings:
    dbs: tuple[int, ...]
    match: bytes | None = None
    type: str | None = None
    sample_rate: float | None = None
    seed: int | None = None
    batch: int = 100
    target_ms: float = 1.0
    max_ops: int | None = None
    resume: tuple[int, int] | None = None  # (db, cursor)
    retries: int = 3


@dataclass(slots=True)
class _Batch:
    id: int
    cursor: int  # the SCAN cursor that produced it (resume from here if it is not finished)
    pending: int = 0
    names: list[bytes] = field(default_factory=list)


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
    ) -> None:
        self._reconnect = reconnect
        self.wire = wire
        self.display = display
        self.probes = probes
        self.settings = settings
        self.server = server
        self.unavailable = unavailable
        self.progress = progress
        self.batch = settings.batch
        self.listed = 0  # names returned by SCAN (before sampling)
        self.total = sum(server.keyspace.get(db, 0) for db in settings.dbs)
        self.resume_token: str | None = None
        self._random = random.Random(settings.seed)
        self._db = 0
        self._locations: dict[int, Location] = {}
        self._clock_offset_ms = _clock_offset(wire)
        self._started = time.perf_counter()

    # -- the scan -----------------------------------------------------------------------------------------

    def facts(self) -> Iterator[KeyFact | Skipped]:
        start_db, start_cursor = self.settings.resume or (self.settings.dbs[0] if self.settings.dbs else 0, 0)
        for db in self.settings.dbs:
            if db < start_db:
                continue
            if not self._select(db):
                continue
            yield from self._scan_db(db, start_cursor if db == start_db else 0)
        self.resume_token = None

    def _select(self, db: int) -> bool:
        if db == self._db:
            return True
        reply = self.wire.call(b"SELECT", db)
        if is_error(reply):
            self.unavailable.setdefault(CHECK_SELECT, str(reply))
            return False
        self._db = db
        return True

    def _scan_db(self, db: int, cursor: int) -> Iterator[KeyFact | Skipped]:
        skip: set[bytes] = set()
        attempts = 0
        while True:
            state = _DbScan(self, db, cursor, skip)
            try:
                yield from state.run()
                return
            except LostConnection as error:
                cursor, skip = state.restart_point()
                self.resume_token = f"{db}:{cursor}"
                attempts += 1
                if attempts > self.settings.retries:
                    raise SourceError(
                        f"lost the connection to {self.display} ({error}); resume with --resume {db}:{cursor}"
                    ) from None
                time.sleep(0.5 * 2 ** (attempts - 1))
                self.wire.close()
                try:
                    self.wire = self._reconnect()
                except SourceError as reconnect_error:
                    if attempts >= self.settings.retries:
                        raise SourceError(f"{reconnect_error}; resume with --resume {db}:{cursor}") from None
                    continue
                self._db = 0
                if not self._select(db):
                    raise SourceError(f"cannot select db {db} again after reconnecting to {self.display}") from None

    # -- helpers used by _DbScan ------------------------------------------------------------------------

    def location(self, db: int) -> Location:
        found = self._locations.get(db)
        if found is None:
            found = self._locations[db] = Location(SOURCE_LIVE, self.display, db=db)
        return found

    def now_ms(self) -> int:
        return int(time.time() * 1000) + self._clock_offset_ms

    def throttle(self) -> None:
        if self.settings.max_ops is None:
            return
        elapsed = time.perf_counter() - self._started
        ahead = self.wire.commands_sent / self.settings.max_ops - elapsed
        if ahead > 0:
            time.sleep(ahead)

    def adapt(self, waited_ms: float) -> None:
        """Shrink the batch when the server needed longer than the target for one round trip; grow it back."""
        target = self.settings.target_ms
        if waited_ms > target:
            self.batch = max(MIN_BATCH, int(self.batch * 0.7))
        elif waited_ms < target / 2:
            self.batch = min(MAX_BATCH, self.settings.batch, int(self.batch * 1.25) + 1)

    def disable(self, check: str, reply: Any) -> None:
        self.unavailable.setdefault(check, str(reply))


class _DbScan:
    """One pass over one database, from `cursor`, as a pipeline of stages."""

    def __init__(self, owner: LiveScanner, db: int, cursor: int, skip: set[bytes]) -> None:
        self.owner = owner
        self.db = db
        self.cursor = cursor
        self.skip = skip
        self.batches: deque[_Batch] = deque()
        self.next_batch = 0
        self.scanning = True

    def restart_point(self) -> tuple[int, set[bytes]]:
        """Where to start again after a lost connection, and the names already reported since."""
        if not self.batches:
            return self.cursor, self.skip
        reported = set(self.skip)
        for batch in self.batches:
            reported.update(batch.names)
        return self.batches[0].cursor, reported

    def run(self) -> Iterator[KeyFact | Skipped]:
        owner, probes = self.owner, self.owner.probes
        owner.resume_token = f"{self.db}:{self.cursor}"
        jobs: list[tuple[int, KeyRecord, list[tuple[Any, ...]]]] = []
        scan_command = self._scan_command()
        request: list[tuple[Any, ...]] = [scan_command] if scan_command is not None else []
        if not request:
            return
        owner.wire.send(request)
        while True:
            started = time.perf_counter()
            replies = owner.wire.receive(len(request))
            owner.adapt((time.perf_counter() - started) * 1000)
            done: list[KeyRecord] = []
            next_jobs: list[tuple[int, KeyRecord, list[tuple[Any, ...]]]] = []
            position = 0
            new_names: list[bytes] = []
            if scan_command is not None:
                self.cursor, new_names = int(replies[0][0]), replies[0][1]
                position = 1
                owner.listed += len(new_names)
            for stage, record, commands in jobs:
                answer = replies[position : position + len(commands)]
                position += len(commands)
                follow = self._advance(stage, record, answer)
                if follow is None:
                    done.append(record)
                else:
                    next_jobs.append(follow)
            if scan_command is not None:
                batch = self._new_batch(scan_command[1], new_names)
                for record in batch:
                    next_jobs.append((1, record, probes.stage1(record.name)))
            scan_command = self._scan_command() if self.scanning else None
            request = [] if scan_command is None else [scan_command]
            for _stage, _record, commands in next_jobs:
                request.extend(commands)
            if request:
                owner.throttle()
                owner.wire.send(request)
            jobs = next_jobs
            yield from self._report(done)
            if owner.progress is not None:
                owner.progress(owner.listed, owner.total)
            if not request:
                return

    def _scan_command(self) -> tuple[Any, ...] | None:
        if not self.scanning:
            return None
        command: list[Any] = [b"SCAN", self.cursor]
        settings = self.owner.settings
        if settings.match is not None:
            command += [b"MATCH", settings.match]
        command += [b"COUNT", self.owner.batch]
        if settings.type is not None:
            command += [b"TYPE", settings.type]
        if self.cursor == 0 and self.batches_seen:
            self.scanning = False
            return None
        self.batches_seen = True
        return tuple(command)

    batches_seen = False

    def _new_batch(self, cursor: int, names: list[bytes]) -> list[KeyRecord]:
        batch = _Batch(self.next_batch, cursor)
        self.next_batch += 1
        rate = self.owner.settings.sample_rate
        draw = self.owner._random.random
        records = []
        for name in names:
            if name in self.skip or (rate is not None and draw() >= rate):
                continue
            records.append(KeyRecord(name, batch.id))
        batch.pending = len(records)
        if records:
            self.batches.append(batch)
        return records

    def _advance(
        self, stage: int, record: KeyRecord, replies: list[Any]
    ) -> tuple[int, KeyRecord, list[tuple[Any, ...]]] | None:
        """Take one stage's replies; return the next stage's job, or None when the record is complete."""
        probes = self.owner.probes
        if stage == 1:
            self._stage1(record, replies)
            if record.gone:
                return None
            commands = probes.stage2(record)
            return (2, record, commands) if commands else None
        if stage == 2:
            self._stage2(record, replies)
            if not record.gone and probes.wants_elements(record):
                return (3, record, probes.stage3(record))
            return None
        if stage == 3:
            self._stage3(record, replies)
            if record.fields:
                return (4, record, probes.stage4(record))
            return None
        lengths = [len(f) for f in record.fields] + [r for r in replies if isinstance(r, int)]
        record.largest_element = max(lengths, default=None)
        return None

    def _stage1(self, record: KeyRecord, replies: list[Any]) -> None:
        probes, owner = self.owner.probes, self.owner
        kind = replies[0]
        if is_error(kind) or kind == b"none":
            record.gone = True
            return
        record.type = kind.decode("ascii", "replace")
        index = 1
        if probes.ttl:
            ttl = replies[index]
            index += 1
            if ttl == -2:
                record.gone = True
                return
            record.ttl_ms = ttl if isinstance(ttl, int) else None
        if probes.memory:
            reply = replies[index]
            index += 1
            if is_error(reply):
                owner.disable(CHECK_MEMORY, reply)
            elif reply is None:
                record.gone = True
                return
            else:
                record.memory = reply
        for attribute, wanted in (("encoding", probes.encoding), ("idle_seconds", probes.idle), ("freq", probes.freq)):
            if not wanted:
                continue
            reply = replies[index]
            index += 1
            if is_error(reply):
                owner.disable(CHECK_OBJECT, reply)
            elif reply is not None:
                setattr(record, attribute, reply.decode("ascii", "replace") if isinstance(reply, bytes) else reply)

    def _stage2(self, record: KeyRecord, replies: list[Any]) -> None:
        for reply in replies:
            if is_error(reply):  # WRONGTYPE: the key was replaced by another type since TYPE
                record.gone = True
                return
        if replies and isinstance(replies[0], int):
            record.length = replies[0]
            if record.length == 0 and record.type != "string":
                record.gone = True  # Redis never keeps an empty collection: it was deleted
                return
        if len(replies) > 1 and isinstance(replies[1], bytes):
            record.head = replies[1]

    def _stage3(self, record: KeyRecord, replies: list[Any]) -> None:
        if record.type == "hash":
            fields = replies[0]
            record.fields = list(fields) if isinstance(fields, list) else []
            return
        elements: list[bytes] = []
        for reply in replies:
            if isinstance(reply, list):
                elements.extend(e for e in reply if isinstance(e, bytes))
            elif isinstance(reply, bytes):
                elements.append(reply)
        record.largest_element = max((len(e) for e in elements), default=None)

    def _report(self, done: list[KeyRecord]) -> Iterator[KeyFact | Skipped]:
        if not done:
            return
        owner = self.owner
        location = owner.location(self.db)
        now = owner.now_ms()
        finished: set[int] = set()
        by_id = {batch.id: batch for batch in self.batches}
        for record in done:
            batch = by_id.get(record.batch)
            if batch is not None:
                batch.pending -= 1
                batch.names.append(record.name)
                if batch.pending == 0:
                    finished.add(batch.id)
            if record.gone:
                yield SKIPPED
                continue
            ttl = record.ttl_ms
            yield KeyFact(
                record.name,
                location,
                self.db,
                record.type,
                ttl,
                record.memory,
                record.length,
                record.encoding,
                record.idle_seconds,
                record.freq,
                now + ttl if ttl is not None and ttl >= 0 else None,
                record.largest_element,
                record.head,
            )
        if finished:
            self.batches = deque(b for b in self.batches if b.id not in finished)
        oldest = self.batches[0].cursor if self.batches else (self.cursor if self.scanning else 0)
        owner.resume_token = f"{self.db}:{oldest}" if oldest or self.scanning else None


def _clock_offset(wire: Wire) -> int:
    """Server clock minus local clock, in ms, so expiry times are on the server's clock."""
    reply = wire.call(b"TIME")
    if is_error(reply) or not isinstance(reply, list):
        return 0
    server_ms = int(reply[0]) * 1000 + int(reply[1]) // 1000
    return server_ms - int(time.time() * 1000)
