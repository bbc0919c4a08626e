"""Audit a live instance: connect, read the server's own statistics, scan and probe keys, build the report.

Everything that can be refused is refused before the first SCAN (a database the server does not have, a
Sentinel, a replica out of sync); everything that makes the report cover less than the server holds is
marked in its header and explained in its notes (`live_notes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rediscipline.api.common import build_report, new_engine, settings_for
from rediscipline.api.live_notes import Outcome, scan_notes
from rediscipline.api.live_unreadable import UnreadableTally
from rediscipline.engine.runner import Engine
from rediscipline.model.location import SOURCE_LIVE
from rediscipline.model.report import Report, ServerSummary
from rediscipline.model.server import CHECK_NO_TOUCH, ServerFact
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
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
from rediscipline.sources.live.preflight import ScanScope, scan_scope
from rediscipline.sources.live.probes import Probes
from rediscipline.sources.live.scanner import SKIPPED, LiveScanner, Progress, ScanSettings, Unreadable
from rediscipline.sources.live.server import commandstats_facts, live_origin, read_server, read_slowlog
from rediscipline.sources.live.url import ServerAddress, parse_address
from rediscipline.sources.live.wire import LostConnection, Wire, is_error

#: Fields every live scan reads, whatever the rules: the report's summary (memory by type, TTL coverage,
#: top keys) is built from them, and each costs one O(1) command per key.
SUMMARY_FIELDS = ("ttl", "memory", "length")


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
    batch: int = 50
    target_ms: float = 1.0
    max_ops: int | None = None
    resume: str | None = None  # `db:cursor` printed by an interrupted scan
    memory_samples: int = 5
    timeout: float = 10.0
    retries: int = 3  # reconnection attempts in a row before giving up (refilled after every round trip)
    allow_stale: bool = False  # scan a replica that is not in sync with its master


def scan_live(
    options: LiveScanOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    progress: Progress | None = None,
) -> Report:
    """Scan one server. Ctrl-C (KeyboardInterrupt) stops the scan and returns the partial report, and so does
    a server that stays unreachable after a lost connection (`ServerSummary.stopped` says why)."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    _check_options(options)
    address = parse_address(options.url, username=options.user, password_env=options.password_env)
    resume = _parse_resume(options.resume)

    def connect() -> Wire:
        wire = Wire(open_connection(address, options.timeout))
        _no_touch(wire, unavailable)
        return wire

    unavailable: dict[str, str] = {}
    wire = connect()
    try:
        return _scan(
            options=options,
            settings=settings,
            registry=registry,
            address=address,
            wire=wire,
            connect=connect,
            unavailable=unavailable,
            resume=resume,
            progress=progress,
        )
    except LostConnection as error:
        raise SourceError(f"lost the connection to {address.display}: {error}") from None
    finally:
        wire.close()


def _scan(
    *,
    options: LiveScanOptions,
    settings: Settings,
    registry: Registry,
    address: ServerAddress,
    wire: Wire,
    connect: Callable[[], Wire],
    unavailable: dict[str, str],
    resume: tuple[int, int] | None,
    progress: Progress | None,
) -> Report:
    engine = new_engine(settings)
    server = read_server(wire, live_origin(address.display))
    if server.info.get("loading") == "1":
        raise SourceError(f"{address.display} is loading its dataset into memory: try again when loading has finished")
    unavailable.update(server.unavailable)
    scope = scan_scope(
        wire, server, address.display, db=options.db, url_db=address.db, resume=resume, allow_stale=options.allow_stale
    )
    engine.set_server(server)
    engine.begin_input(live_origin(address.display))
    if engine.plan.commands:
        for fact in commandstats_facts(server):
            engine.feed_command(fact)
        for fact in read_slowlog(wire, server.origin, unavailable):
            engine.feed_command(fact)

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
        engine.set_sampling(rate, population)
    scan_settings = ScanSettings(
        dbs=dbs,
        match=options.match.encode("utf-8", "surrogateescape") if options.match is not None else None,
        type=options.type,
        sample_rate=rate,
        seed=options.seed,
        batch=options.batch,
        target_ms=options.target_ms,
        max_ops=options.max_ops,
        resume=resume,
        retries=options.retries,
    )
    probes = _probes(engine, server, options)
    scanner = LiveScanner(
        reconnect=connect,
        wire=wire,
        display=address.display,
        probes=probes,
        settings=scan_settings,
        server=server,
        unavailable=unavailable,
        progress=progress,
        on_reconnect=on_reconnect,
    )
    interrupted = False
    feed, skip = engine.feed, engine.skip
    unreadable = UnreadableTally(engine, settings)
    try:
        for item in scanner.facts():
            if item is SKIPPED:
                skip()
            elif item.__class__ is Unreadable:
                unreadable.add(item)
            else:
                feed(item)  # type: ignore[arg-type]
        end, end_keys = _end_drift(scanner, dbs, start, restarted)
    except KeyboardInterrupt:
        interrupted, end, end_keys = True, None, None
    finally:
        if scanner.wire is not wire:  # a reconnected wire; `scan_live` closes the first one
            scanner.wire.close()
    result = engine.finish(SOURCE_LIVE)
    complete = not interrupted and scanner.stopped is None
    full = complete and resume is None and options.match is None and options.type is None
    listed, gone = scanner.listed, result.stats.keyspace.skipped if result.stats.keyspace else 0
    reachable = sum(server.keyspace.get(db, 0) for db in dbs if db not in scanner.not_scanned)
    outcome = Outcome(
        unavailable=unavailable,
        interrupted=interrupted,
        stopped=scanner.stopped,
        resume_token=None if complete else scanner.resume_token,
        resumed_from=options.resume if resume is not None else None,
        rate=rate,
        population=population,
        filtered=bool(options.match or options.type),
        unreadable=unreadable.summary(),
        drift=end,
        fell_short=(reachable, listed) if full and fell_short(reachable, listed) else None,
        vanished=(listed, gone) if fell_short(listed, listed - gone) else None,
        not_scanned=tuple(scanner.not_scanned),
        cluster_masters=scope.cluster_masters,
        stale_replica=scope.stale_replica,
        elements_unread=probes.elements_unread,
        reconnects=scanner.backoff.reconnects,
        databases=server.config_int("databases"),
    )
    summary = _summary(address, server, scope, outcome, end_keys)
    notes = tuple(scan_notes(outcome))
    return build_report(result, settings, registry, "scan", (address.display,), notes=notes, server=summary)


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


def _no_touch(wire: Wire, unavailable: dict[str, str]) -> None:
    """Ask the server not to update LRU/LFU for our reads (Redis 7.2+, Valkey 7.2+)."""
    reply = wire.call(b"CLIENT", b"NO-TOUCH", b"ON")
    if is_error(reply):
        unavailable.setdefault(CHECK_NO_TOUCH, str(reply))


def _probes(engine: Engine, server: ServerFact, options: LiveScanOptions) -> Probes:
    plan = engine.plan
    lfu = "lfu" in (server.maxmemory_policy or "")
    wants = set(plan.key_fields) | set(SUMMARY_FIELDS)
    return Probes(
        ttl="ttl" in wants,
        memory="memory" in wants,
        memory_samples=options.memory_samples,
        encoding="encoding" in wants,
        idle="idle" in wants and not lfu,  # OBJECT IDLETIME is an error under an LFU policy
        freq="freq" in wants and lfu,  # and OBJECT FREQ under an LRU one
        length="length" in wants,
        head="head" in wants,
        element="element" in wants,
    )


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
        unreadable=outcome.unreadable,
        cluster_masters=scope.cluster_masters,
        dbs_at_end=tuple(sorted(end_keys.items())) if end_keys is not None else None,
        dbs_not_scanned=outcome.not_scanned,
    )
