"""Audit a live instance: connect, read the server's own statistics, scan and probe keys, build the report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rediscipline.api.common import build_report, new_engine, settings_for
from rediscipline.engine.runner import Engine
from rediscipline.model.location import SOURCE_LIVE
from rediscipline.model.report import Report, ServerSummary
from rediscipline.model.server import (
    CHECK_ACCESS,
    CHECK_ACL,
    CHECK_CONFIG,
    CHECK_MEMORY,
    CHECK_NO_TOUCH,
    CHECK_OBJECT,
    CHECK_SELECT,
    CHECK_SLOWLOG,
    ServerFact,
)
from rediscipline.model.text import Text
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.probes import Probes
from rediscipline.sources.live.scanner import SKIPPED, LiveScanner, Progress, ScanSettings
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


def scan_live(
    options: LiveScanOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    progress: Progress | None = None,
) -> Report:
    """Scan one server. Ctrl-C (KeyboardInterrupt) stops the scan and returns the partial report."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    if options.memory_samples < 1:
        raise SourceError("--memory-samples must be at least 1 (0 would walk every element of every key)")
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
    engine.set_server(server)
    engine.begin_input(live_origin(address.display))
    if engine.plan.commands:
        for fact in commandstats_facts(server):
            engine.feed_command(fact)
        for fact in read_slowlog(wire, server.origin, unavailable):
            engine.feed_command(fact)

    dbs = _databases(options, address, server)
    population = sum(server.keyspace.get(db, 0) for db in dbs)
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
    )
    scanner = LiveScanner(
        reconnect=connect,
        wire=wire,
        display=address.display,
        probes=_probes(engine, server, options),
        settings=scan_settings,
        server=server,
        unavailable=unavailable,
        progress=progress,
    )
    interrupted = False
    feed, skip = engine.feed, engine.skip
    try:
        for item in scanner.facts():
            if item is SKIPPED:
                skip()
            else:
                feed(item)  # type: ignore[arg-type]  # SKIPPED is the only non-fact item
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if scanner.wire is not wire:  # a reconnected wire; `scan_live` closes the first one
            scanner.wire.close()
    result = engine.finish(SOURCE_LIVE)
    resume_token = scanner.resume_token if interrupted else None
    summary = _summary(address, server, unavailable, resume_token)
    notes = _notes(
        unavailable=unavailable,
        interrupted=interrupted,
        resume=resume_token,
        rate=rate,
        population=population,
        options=options,
    )
    return build_report(result, settings, registry, "scan", (address.display,), notes=tuple(notes), server=summary)


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


def _databases(options: LiveScanOptions, address: ServerAddress, server: ServerFact) -> tuple[int, ...]:
    if options.db is not None:
        return (options.db,)
    if address.db is not None:
        return (address.db,)
    populated = tuple(sorted(db for db, keys in server.keyspace.items() if keys > 0))
    return populated or (0,)


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
    address: ServerAddress, server: ServerFact, unavailable: dict[str, str], resume: str | None
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
        unavailable=tuple(sorted(unavailable.items())),
        resume_cursor=resume,
    )


#: What a refused check costs, in the words of the report.
_COSTS = {
    CHECK_MEMORY: (
        "key memory was not measured: byte-size rules and memory totals are missing",
        "未能测量 Key 内存：按字节的规则与内存统计缺失",
    ),
    CHECK_OBJECT: (
        "OBJECT was refused: encoding and idle-time rules did not run",
        "OBJECT 命令被拒绝：编码与空闲时间规则未运行",
    ),
    CHECK_SELECT: (
        "SELECT was refused: only the connection's database was scanned",
        "SELECT 被拒绝：只扫描了连接所在的库",
    ),
    CHECK_NO_TOUCH: (
        "CLIENT NO-TOUCH is unavailable (Redis/Valkey < 7.2, or not permitted): the length probes may refresh "
        "keys' LRU/LFU data; idle times were read before them",
        "CLIENT NO-TOUCH 不可用（版本低于 7.2 或无权限）：长度探测可能刷新 LRU/LFU；空闲时间在其之前读取",
    ),
    CHECK_ACCESS: (
        "whether the scanning user can run KEYS, FLUSHALL, CONFIG… could not be checked",
        "无法检查扫描用户能否执行 KEYS、FLUSHALL、CONFIG 等命令",
    ),
    CHECK_ACL: ("ACL LIST was refused: users without a password were not checked", "ACL LIST 被拒绝：未检查无密码用户"),
    CHECK_CONFIG: (
        "CONFIG GET was refused: configuration rules used INFO only",
        "CONFIG GET 被拒绝：配置类规则只依据 INFO",
    ),
    CHECK_SLOWLOG: ("the slow log was not read", "未读取慢日志"),
}


def _notes(
    *,
    unavailable: dict[str, str],
    interrupted: bool,
    resume: str | None,
    rate: float | None,
    population: int,
    options: LiveScanOptions,
) -> list[Text]:
    notes: list[Text] = []
    for check, reason in sorted(unavailable.items()):
        en, zh = _COSTS.get(check, (f"{check} could not run", f"{check} 无法执行"))
        notes.append(Text(f"{en} ({check}: {reason})", f"{zh}（{check}：{reason}）"))
    if interrupted:
        tail_en = f"; continue with --resume {resume}" if resume else ""
        tail_zh = f"；继续请用 --resume {resume}" if resume else ""
        notes.append(
            Text(
                f"scan interrupted: this report covers the keys seen so far{tail_en}",
                f"扫描被中断：报告只包含已扫描的 Key{tail_zh}",
            )
        )
    if rate is not None and rate < 1:
        notes.append(
            Text(
                f"sampled scan: each of {population} keys was kept with probability {rate:.4g}; counts are "
                "estimates with 95% confidence intervals",
                f"抽样扫描：{population} 个 Key 中每个以概率 {rate:.4g} 被抽中；计数为带 95% 置信区间的估计值",
            )
        )
    if options.match or options.type:
        notes.append(
            Text(
                "filtered scan (--match/--type): totals cover matching keys only",
                "已按 --match/--type 过滤：统计仅覆盖匹配的 Key",
            )
        )
    return notes
