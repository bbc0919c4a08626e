"""A live instance as a source: connect, read what the plan asks of the server, scan and probe keys.

Everything that can be refused is refused before the first SCAN (a database the server does not have, a
Sentinel, a replica out of sync); everything that makes the report cover less than the server holds is
marked in its header and explained in its notes (`outcome`).

A Ctrl-C (KeyboardInterrupt) raised while the scan waits on the server, or thrown into `facts` by the driver
while the engine works, ends the scan: the facts so far stand as a partial result that says where to resume.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from rediscipline.model.facts import VANISHED, KeySample, UnreadableKey
from rediscipline.model.location import SOURCE_LIVE
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import EXPIRE_CONFIG, ServerSummary
from rediscipline.model.server import CHECK_NO_TOUCH, ServerFact
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.consistency import (
    Drift,
    Snapshot,
    drift,
    fell_short,
    read_run_id,
    snapshot_of,
    take_snapshot,
)
from rediscipline.sources.live.defaults import (
    DEFAULT_BATCH,
    DEFAULT_MEMORY_SAMPLES,
    DEFAULT_RETRIES,
    DEFAULT_TARGET_MS,
    DEFAULT_TIMEOUT_SECONDS,
)
from rediscipline.sources.live.outcome import Outcome
from rediscipline.sources.live.preflight import ScanScope, scan_scope
from rediscipline.sources.live.probes import probes_for
from rediscipline.sources.live.scanner import SKIPPED, LiveScanner, Progress, ScanSettings, Unreadable
from rediscipline.sources.live.server import commandstats_facts, live_origin, read_server, read_slowlog
from rediscipline.sources.live.topology import database_count
from rediscipline.sources.live.url import ServerAddress, parse_address
from rediscipline.sources.live.wire import LostConnection, Wire, is_error


@dataclass(frozen=True, slots=True)
class LiveScanOptions:
    url: str | None = None  # None: $REDIS_URL
    user: str | None = None
    password_env: str | None = None
    db: int | None = None  # None: every database that holds keys
    match: str | None = None
    type: str | None = None
    sample: int | None = None  # draw about this many keys uniformly at random
    seed: int | None = None
    batch: int = DEFAULT_BATCH
    target_ms: float = DEFAULT_TARGET_MS
    max_ops: int | None = None
    resume: str | None = None  # `db:cursor` printed by an interrupted scan
    memory_samples: int = DEFAULT_MEMORY_SAMPLES
    timeout: float = DEFAULT_TIMEOUT_SECONDS
    retries: int = DEFAULT_RETRIES  # reconnection attempts in a row before giving up (refilled after every round trip)
    allow_stale: bool = False  # scan a replica that is not in sync with its master


class LiveSource:
    """One server. Options are checked and the address parsed when the source is made, before connecting."""

    place = SOURCE_LIVE
    counts_keys = True

    def __init__(
        self,
        options: LiveScanOptions,
        progress: Progress | None = None,
        *,
        address: ServerAddress | None = None,
        shard: bool = False,
    ) -> None:
        """`address`: the server, already parsed (`options.url` is then not read); `shard`: the server is one
        shard of a cluster scanned as a whole, so its report is not marked as covering one shard only, and
        reads are allowed on a replica (READONLY) and stay allowed on a master that fails over to one."""
        _check_options(options)
        self.options = options
        self.shard = shard
        self.address: ServerAddress = address or parse_address(
            options.url, username=options.user, password_env=options.password_env
        )
        self.inputs = (self.address.display,)
        self.resume = _parse_resume(options.resume)
        self.progress = progress
        self.unavailable: dict[str, str] = {}
        self._outcome = SourceOutcome()

    def outcome(self) -> SourceOutcome:
        return self._outcome

    def _connect(self) -> Wire:
        wire = Wire(open_connection(self.address, self.options.timeout))
        reply = wire.call(b"CLIENT", b"NO-TOUCH", b"ON")  # Redis/Valkey 7.2+: our reads leave LRU/LFU alone
        if is_error(reply):
            self.unavailable.setdefault(CHECK_NO_TOUCH, str(reply))
        if self.shard:
            wire.call(b"READONLY")
        return wire

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        wire = self._connect()
        try:
            yield from self._scan(plan, wire)
        except LostConnection as error:
            raise SourceError(f"lost the connection to {self.address.display}: {error}") from None
        finally:
            wire.close()

    def _scan(self, plan: ProbePlan, wire: Wire) -> Iterator[Fact]:
        options, display = self.options, self.address.display
        server = read_server(wire, live_origin(display), plan.server, commands=plan.commands)
        if server.info.get("loading") == "1":
            raise SourceError(f"{display} is loading its dataset into memory: try again when loading has finished")
        self.unavailable.update(server.unavailable)
        scope = scan_scope(
            wire,
            server,
            display,
            db=options.db,
            url_db=self.address.db,
            resume=self.resume,
            allow_stale=options.allow_stale,
        )
        if self.shard:
            scope = replace(scope, cluster_masters=None)
        yield server
        if plan.commands:
            yield from commandstats_facts(server)
            yield from read_slowlog(wire, server.origin, self.unavailable)
        dbs = scope.dbs
        population = sum(server.keyspace.get(db, 0) for db in dbs)
        start = snapshot_of(server.info, server.keyspace, dbs)
        restarted = False

        def on_reconnect(new_wire: Wire) -> None:
            nonlocal restarted
            run_id = read_run_id(new_wire)
            restarted = restarted or (run_id is not None and start.run_id is not None and run_id != start.run_id)

        rate = None
        if options.sample is not None:
            rate = min(1.0, options.sample / population) if population else 1.0
            yield KeySample(rate, population)
        probes = probes_for(plan, server, options.memory_samples)
        scanner = LiveScanner(
            reconnect=self._connect,
            wire=wire,
            display=display,
            probes=probes,
            settings=self._scan_settings(dbs, rate),
            server=server,
            unavailable=self.unavailable,
            progress=self.progress,
            on_reconnect=on_reconnect,
            clock="ttl" in plan.key_fields,
        )
        interrupted, gone, unreadable = False, 0, 0
        end: Drift | None = None
        end_keys: Mapping[int, int] | None = None
        try:
            for item in scanner.facts():
                if item is SKIPPED:
                    gone += 1
                    yield VANISHED
                elif item.__class__ is Unreadable:
                    unreadable += 1
                    yield UnreadableKey(item.name, item.location)
                else:
                    yield item  # type: ignore[misc]
            end, end_keys = _end_drift(scanner, dbs, start, restarted)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if scanner.wire is not wire:  # a reconnected wire; `facts` closes the first one
                scanner.wire.close()
        complete = not interrupted and scanner.stopped is None
        full = complete and self.resume is None and options.match is None and options.type is None
        listed = scanner.listed
        reachable = sum(server.keyspace.get(db, 0) for db in dbs if db not in scanner.not_scanned)
        outcome = Outcome(
            unavailable=self.unavailable,
            interrupted=interrupted,
            stopped=scanner.stopped,
            resume_token=None if complete else scanner.resume_token,
            resumed_from=options.resume if self.resume is not None else None,
            rate=rate,
            population=population,
            filtered=bool(options.match or options.type),
            unreadable=unreadable,
            drift=end,
            fell_short=(reachable, listed) if full and fell_short(reachable, listed) else None,
            vanished=(listed, gone) if fell_short(listed, listed - gone) else None,
            not_scanned=tuple(scanner.not_scanned),
            cluster_masters=scope.cluster_masters,
            stale_replica=scope.stale_replica,
            elements_unread=probes.elements_unread,
            reconnects=scanner.backoff.reconnects,
            databases=self._databases(server, scanner, interrupted),
        )
        summary = _summary(self.address, server, scope, outcome, end_keys)
        self._outcome = SourceOutcome(tuple(outcome.notes()), summary)

    def _scan_settings(self, dbs: tuple[int, ...], rate: float | None) -> ScanSettings:
        options = self.options
        return ScanSettings(
            dbs=dbs,
            match=options.match.encode("utf-8", "surrogateescape") if options.match is not None else None,
            type=options.type,
            sample_rate=rate,
            seed=options.seed,
            batch=options.batch,
            target_ms=options.target_ms,
            max_ops=options.max_ops,
            resume=self.resume,
            retries=options.retries,
        )

    def _databases(self, server: ServerFact, scanner: LiveScanner, interrupted: bool) -> int | None:
        """How many databases the server has, for the note of a user that may neither INFO nor SELECT."""
        known = server.config_int("databases")
        if known is not None or interrupted or scanner.stopped is not None:
            return known
        outcome = Outcome(self.unavailable)
        if not outcome.databases_unknown:
            return None
        try:
            return database_count(scanner.wire, None)
        except LostConnection:
            return None


def _end_drift(
    scanner: LiveScanner, dbs: tuple[int, ...], start: Snapshot, restarted: bool
) -> tuple[Drift | None, Mapping[int, int] | None]:
    """How the server changed between the start and the end of the scan, and its keys per database at the end.

    A scan that gave up cannot ask; it still knows whether a reconnection found a restarted server.
    """
    end = None
    if scanner.stopped is None:
        try:
            end = take_snapshot(scanner.wire, dbs)
        except (LostConnection, SourceError):
            end = None
    if end is None:
        return (drift(start, start, restarted=True) if restarted else None), None
    return drift(start, end, restarted=restarted), end.keys


def _check_options(options: LiveScanOptions) -> None:
    """Refuse option values that cannot work, before connecting (the CLI's own ranges say the same)."""
    problems = (
        (options.memory_samples < 1, "--memory-samples must be at least 1 (0 would walk every element of every key)"),
        (options.batch < 1, "--batch must be at least 1"),
        (options.sample is not None and options.sample < 1, "--sample must be at least 1"),
        (options.max_ops is not None and options.max_ops < 1, "--max-ops must be at least 1"),
        (options.timeout <= 0, "--timeout must be more than 0 seconds"),
        (options.retries < 0, "retries must be 0 or more"),
        (options.db is not None and options.db < 0, "--db must be 0 or more"),
        (options.match == "", "--match '' matches no key: leave it out to scan every key"),
    )
    for failed, message in problems:
        if failed:
            raise SourceError(message)


def _parse_resume(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    db, sep, cursor = text.partition(":")
    if not sep or not db.isdigit() or not cursor.isdigit():
        raise SourceError(f"--resume {text!r}: expected DB:CURSOR as printed by an interrupted scan (e.g. 0:1234)")
    return int(db), int(cursor)


def _summary(
    address: ServerAddress,
    server: ServerFact,
    scope: ScanScope,
    outcome: Outcome,
    end_keys: Mapping[int, int] | None,
) -> ServerSummary:
    return ServerSummary(
        address=address.display,
        flavor=server.flavor,
        version=server.version,
        role=server.info.get("role"),
        used_memory=server.info_int("used_memory"),
        maxmemory=server.maxmemory,
        maxmemory_policy=server.maxmemory_policy,
        dbs=tuple(sorted(server.keyspace.items())),
        unavailable=tuple(sorted(outcome.unavailable.items())),
        resume_cursor=outcome.resume_token,
        resumed_from=outcome.resumed_from,
        partial=outcome.partial(),
        stopped=outcome.stopped,
        cluster_masters=scope.cluster_masters,
        dbs_at_end=tuple(sorted(end_keys.items())) if end_keys is not None else None,
        dbs_not_scanned=outcome.not_scanned,
        started_ms=_server_time_ms(server),
        volatile=tuple(sorted(server.expires.items())),
        expire_config=tuple(
            (name, value) for name in EXPIRE_CONFIG if (value := server.config_value(name)) is not None
        ),
        clients=server.info_int("connected_clients"),
    )


def _server_time_ms(server: ServerFact) -> int:
    """The server's clock when it was first read (INFO `server_time_usec`, Redis 6.2 and later), else this host's:
    the moment the TTLs the scan reads count from."""
    usec = server.info_int("server_time_usec")
    return usec // 1000 if usec else int(time.time() * 1000)


__all__ = ["LiveScanOptions", "LiveSource"]
