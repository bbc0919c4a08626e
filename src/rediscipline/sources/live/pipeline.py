"""One pass of SCAN over one database as a pipeline of probe stages, for `scanner.LiveScanner`.

Each round trip carries the next SCAN plus every key's next probe stage (see `probes`), and it is sent
*before* the facts of the previous round are handed to the engine, so rule evaluation overlaps with the
server's work. Keys are reported in batches remembered by the cursor that produced them, so that a scan
restarted after a lost connection starts from the oldest batch not fully reported, skipping the names of
that batch already reported.

With the compiled core, the per-key work of a round trip runs in its twin (`sources.live._pipeline`): the new
keys' records, the RESP of their first and second stages, the reading of those stages' replies and the facts
of the keys done; and a round trip goes out in one send (`_send_first`). The methods here are the reference it
mirrors; the rare stages (3 and 4) stay here for both.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from rediscipline import compiled
from rediscipline.model.facts import KeyFact
from rediscipline.model.location import Location
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.probes import KeyRecord, Probes
from rediscipline.sources.live.wire import is_error

if TYPE_CHECKING:
    from rediscipline.sources.live.scanner import LiveScanner


class Skipped:
    """Yielded for a key that vanished or changed type while it was being probed."""


SKIPPED = Skipped()
#: The compiled twin of the per-key methods of `DbScan` (`compiled.load`).
TWIN = "rediscipline.sources.live._pipeline"
#: TIME as RESP, sent after the first probe stage of a round trip that reads TTLs.
TIME_COMMAND = b"*1\r\n$4\r\nTIME\r\n"


class Unreadable(NamedTuple):
    """Yielded for a key SCAN listed but the scanning user may not read (ACL key patterns, or TYPE refused)."""

    name: bytes
    location: Location


@dataclass(slots=True)
class _Batch:
    id: int
    cursor: int  # the SCAN cursor that produced it (resume from here if it is not finished)
    pending: int = 0
    names: list[bytes] = field(default_factory=list)


class _RoundTrip(NamedTuple):
    """One round trip in flight, in reply order: SCAN (when `scan` is its cursor), the first stage, TIME (when
    `clock`), then the later stages."""

    commands: int  # replies to read
    scan: int | None
    stage1: list[KeyRecord]
    stage2: list[tuple[KeyRecord, int]]  # record, replies
    rare: list[tuple[int, KeyRecord, int]]  # stage 3 or 4, record, replies
    clock: bool  # a TIME follows the first stage


class _First(NamedTuple):
    """The first part of a round trip (`DbScan._send_first`): SCAN, the new keys' first stage, TIME."""

    commands: int
    scan: int | None
    stage1: list[KeyRecord]
    clock: bool
    held: bytes  # its RESP when it waits to go out with the second part (the compiled core), else b""


class DbScan:
    """One pass over one database, from `cursor`, as a pipeline of stages.

    The time between receiving a round trip's replies and sending the next request is the only time the
    server waits for us, so that critical section parses just what the next request needs (cursor, names,
    types, sizes); building facts and running rules happens after the send, while the server works.
    """

    def __init__(self, owner: LiveScanner, db: int, cursor: int, skip: set[bytes]) -> None:
        self.owner = owner
        self.db = db
        self.cursor = cursor
        self.skip = skip
        self.batches: deque[_Batch] = deque()
        self.next_batch = 0
        self.scanning = True
        self.started = False
        twin = compiled.load(TWIN)
        #: the compiled twin's per-key stages for these probes, or None: the methods below run
        self.twin: Any = twin.Stages(owner.probes) if twin is not None else None

    def restart_point(self) -> tuple[int, set[bytes]]:
        """Where to start again after a lost connection, and the names already reported since."""
        if not self.batches:
            return self.cursor, self.skip
        reported = set(self.skip)
        for batch in self.batches:
            reported.update(batch.names)
        return self.batches[0].cursor, reported

    def run(self) -> Iterator[KeyFact | Skipped | Unreadable]:
        owner = self.owner
        owner.resume_token = f"{self.db}:{self.cursor}"
        first = self._send_first([])
        request = self._send_second(first, [], [])
        while request is not None:
            started = time.perf_counter()
            replies = owner.wire.receive(request.commands)
            owner.backoff.progressed()
            owner.adapt((time.perf_counter() - started) * 1000)
            # The next SCAN and the new keys' first stage go out before anything else is parsed, so the
            # server works on them while we read the rest of the replies (the compiled core, which reads
            # them in microseconds, sends them with the second part: see `_send_first`).
            first = self._send_first(self._new_records(request, replies))
            twin = self.twin
            if twin is None:
                stage2, rare, done = self._critical(request, replies)
            else:
                stage2, rare, done = twin.critical(self, request, replies)
            request = self._send_second(first, stage2, rare)
            if done:
                yield from self._facts(done) if twin is None else twin.facts(self, done)
                self._reported()
            if owner.progress is not None:
                owner.progress(owner.listed, owner.total)

    # -- the critical section: replies in, next request out ----------------------------------------------

    def _critical(
        self, request: _RoundTrip, replies: list[Any]
    ) -> tuple[list[KeyRecord], list[tuple[int, KeyRecord]], list[KeyRecord]]:
        probes = self.owner.probes
        position = 1 if request.scan is not None else 0
        width = probes.stage1_count
        received_ms = self._server_ms(replies[position + width * len(request.stage1)]) if request.clock else None
        if received_ms is None and probes.ttl:
            received_ms = self.owner.now_ms()  # no TIME: the local clock when the replies came back
        later = probes.later_stages
        next_stage2: list[KeyRecord] = []
        next_rare: list[tuple[int, KeyRecord]] = []
        done: list[KeyRecord] = []
        for record in request.stage1:
            for refusal in probes.read_stage1(record, replies, position):
                self.owner.refused(*refusal)
            ttl = record.ttl_ms
            if ttl is not None and ttl >= 0 and received_ms is not None:
                record.expire_at_ms = received_ms + ttl
            position += width
            (next_stage2 if later and not record.gone else done).append(record)
        position += request.clock  # the TIME after the first stage
        for record, count in request.stage2:
            for refusal in probes.read_stage2(record, replies[position : position + count]):
                self.owner.refused(*refusal)
            position += count
            if not record.gone and probes.wants_elements(record):
                next_rare.append((3, record))
            else:
                done.append(record)
        read_rare(probes, request.rare, replies, position, next_rare=next_rare, done=done)
        return next_stage2, next_rare, done

    @staticmethod
    def _server_ms(reply: Any) -> int | None:
        """A TIME reply (seconds, microseconds) in milliseconds, None when the server refused it."""
        if is_error(reply) or not isinstance(reply, list) or len(reply) != 2:
            return None
        return int(reply[0]) * 1000 + int(reply[1]) // 1000

    def _new_records(self, request: _RoundTrip, replies: list[Any]) -> list[KeyRecord]:
        scan = request.scan
        if scan is None:
            return []
        reply = replies[0]
        if is_error(reply):
            raise SourceError(f"{self.owner.display} refused SCAN: {reply}")
        self.cursor, names = int(reply[0]), reply[1]
        self.owner.listed += len(names)
        if self.cursor == 0:
            self.scanning = False
        return self._new_batch(scan, names)

    def _send_first(self, stage1: list[KeyRecord]) -> _First:
        """Send the next SCAN and the first stage of new keys.

        The pure core sends them at once, so that the server works on them while the replies of the last
        round trip are read. The compiled core reads those in a few microseconds: it holds them back to send
        them with the second part of the round trip, one system call instead of two.

        When the first stage reads TTLs and the server answers TIME, a TIME follows it: the server runs it
        after every PTTL of the round trip, so its clock plus a key's PTTL is that key's expiry, late by the
        server's own work on the stage (a fraction of a millisecond) and never early, however long the reply
        waits for us. Keys an application gave one EXPIREAT second stay in that second.
        """
        owner, probes = self.owner, self.owner.probes
        chunks: list[bytes] = []
        scan = None
        if self.scanning and (not self.started or self.cursor != 0):
            self.started = True
            scan = self.cursor
            chunks.append(owner.wire.pack([self._scan_command()]))
        if self.twin is not None:
            if stage1:
                chunks.append(self.twin.stage1(stage1))
        else:
            pack1 = probes.stage1
            chunks.extend([pack1(record.name) for record in stage1])
        clock = bool(stage1) and probes.ttl and owner.server_clock
        if clock:
            chunks.append(TIME_COMMAND)
        commands = (scan is not None) + probes.stage1_count * len(stage1) + clock
        held = b""
        if commands:
            owner.throttle()
            if self.twin is not None:
                held = b"".join(chunks)
            else:
                owner.wire.send_raw(b"".join(chunks), commands)
        return _First(commands, scan, stage1, clock, held)

    def _send_second(
        self, first: _First, stage2: list[KeyRecord], rare: list[tuple[int, KeyRecord]]
    ) -> _RoundTrip | None:
        """Send the later stages (after the first part, when it was held back); return the whole round trip's
        description, or None when nothing is left."""
        commands, scan, stage1, clock, held = first
        probes, wire = self.owner.probes, self.owner.wire
        chunks: list[bytes] = [held] if held else []
        sent2: list[tuple[KeyRecord, int]] = []
        if self.twin is not None:
            payload, sent2, count = self.twin.stage2(stage2)
            if count:
                chunks.append(payload)
                commands += count
        else:
            for record in stage2:
                payload, count = probes.stage2(record)
                if count:
                    chunks.append(payload)
                    commands += count
                sent2.append((record, count))
        sent_rare: list[tuple[int, KeyRecord, int]] = []
        for stage, record in rare:
            rare_commands = probes.stage3(record) if stage == 3 else probes.stage4(record)
            chunks.append(wire.pack(rare_commands))
            commands += len(rare_commands)
            sent_rare.append((stage, record, len(rare_commands)))
        if chunks:
            wire.send_raw(b"".join(chunks), commands if held else commands - first.commands)
        if not commands and not sent2 and not stage1:  # keys without probes are reported on the next turn
            return None
        return _RoundTrip(commands, scan, stage1, sent2, sent_rare, clock)

    def _scan_command(self) -> tuple[Any, ...]:
        settings = self.owner.settings
        command: list[Any] = [b"SCAN", self.cursor]
        if settings.match is not None:
            command += [b"MATCH", settings.match]
        command += [b"COUNT", self.owner.batch]
        if settings.type is not None:
            command += [b"TYPE", settings.type]
        return tuple(command)

    def _new_batch(self, cursor: int, names: list[bytes]) -> list[KeyRecord]:
        batch = _Batch(self.next_batch, cursor)
        self.next_batch += 1
        rate = self.owner.settings.sample_rate
        skip = self.skip
        records: list[KeyRecord]
        if self.twin is not None:
            records = self.twin.records(batch.id, names, skip, rate, self.owner.random.random)
        elif rate is None and not skip:
            records = [KeyRecord(name, batch.id) for name in names]
        else:
            draw = self.owner.random.random
            records = [
                KeyRecord(name, batch.id) for name in names if name not in skip and (rate is None or draw() < rate)
            ]
        batch.pending = len(records)
        if records:
            self.batches.append(batch)
        return records

    def _facts(self, done: list[KeyRecord]) -> list[KeyFact | Skipped | Unreadable]:
        """What the engine gets for the keys done (a fact, SKIPPED or Unreadable each), in order; each key is
        counted out of its batch, and the batches it finished are dropped."""
        location = self.owner.location(self.db)
        finished: set[int] = set()
        by_id = {batch.id: batch for batch in self.batches}
        facts: list[KeyFact | Skipped | Unreadable] = []
        for record in done:
            batch = by_id.get(record.batch)
            if batch is not None:
                batch.pending -= 1
                batch.names.append(record.name)
                if batch.pending == 0:
                    finished.add(batch.id)
            if record.gone:
                facts.append(Unreadable(record.name, location) if record.unreadable else SKIPPED)
                continue
            facts.append(
                KeyFact(
                    record.name,
                    location,
                    self.db,
                    record.type,
                    record.ttl_ms,
                    record.memory,
                    record.length,
                    record.encoding,
                    record.idle_seconds,
                    record.freq,
                    record.expire_at_ms,
                    record.largest_element,
                    record.head,
                )
            )
        if finished:
            self.batches = deque(b for b in self.batches if b.id not in finished)
        return facts

    def _reported(self) -> None:
        """Once the facts of a round trip are handed on: the resume token names the oldest batch not fully
        reported (a Ctrl-C while they are handed on leaves the token of the round before)."""
        oldest = self.batches[0].cursor if self.batches else (self.cursor if self.scanning else 0)
        self.owner.resume_token = f"{self.db}:{oldest}" if oldest or self.scanning else None


def read_rare(
    probes: Probes,
    rare: Sequence[tuple[int, KeyRecord, int]],
    replies: list[Any],
    position: int,
    *,
    next_rare: list[tuple[int, KeyRecord]],
    done: list[KeyRecord],
) -> None:
    """Stages 3 and 4 of a round trip's big collections, their replies from `position` on: a key whose stage 3
    asks for more goes to `next_rare`, the others to `done`. Rare keys, so both cores call this one."""
    for stage, record, count in rare:
        answer = replies[position : position + count]
        position += count
        if stage == 3 and probes.read_stage3(record, answer):
            next_rare.append((4, record))
        else:
            if stage == 4:
                probes.read_stage4(record, answer)
            done.append(record)
