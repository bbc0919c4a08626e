"""Reports of a `rediscipline traffic` window made from a hand-made `TrafficView` through the real engine (the
view and the commands it saw are the facts a `TrafficSource` yields), for the render tests."""

from __future__ import annotations

from dataclasses import replace

from rediscipline.api.defaults import settings_for
from rediscipline.api.driver import run
from rediscipline.model.facts import EVIDENCE_COMMANDSTATS, EVIDENCE_SLOWLOG, CommandFact
from rediscipline.model.location import SOURCE_TRAFFIC, Location
from rediscipline.model.monitor import (
    ArityShape,
    BlockingShape,
    ClientCount,
    KeyCount,
    MonitorSample,
    PatternCount,
    TransactionShape,
    TtlShape,
)
from rediscipline.model.note import note
from rediscipline.model.report import Report, ServerSummary
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.model.traffic import (
    ClientInfo,
    CommandWindow,
    HotKey,
    LatencyEvent,
    MonitorCost,
    QueueStat,
    SlotHeat,
    SlotHeatView,
    SlowCall,
    StreamGroup,
    TrafficSourceInfo,
    TrafficView,
)
from rediscipline.rules import default_registry
from rediscipline.settings.loader import Overrides
from rediscipline.sources.traffic.monitor_facts import monitor_calls, monitor_hot_keys
from rediscipline.sources.traffic.source import BLIND_SPOTS
from tests.support.sources import FactSource

ADDRESS = "redis://127.0.0.1:6379"
STARTED = 1_795_000_000.0  # 2026-11-18 11:06:40 UTC
#: The rules these reports run with: named, so that a rule added later changes no snapshot.
RULES = ("CMD001", "CMD005", "PUB003", "PUB004", "PUB005", "PUB006", "HOT001", "HOT002", "BAT001", "BAT003",
         "TTL006", "TTL007", "PUB001")  # fmt: skip

COMMANDS = (
    CommandWindow("get", 12_000, 36_000, 0, 0, 1.0, 3.0),
    CommandWindow("set", 4_000, 20_000, 2, 1, 2.0, 5.0),
    CommandWindow("hgetall", 1_200, 240_000, 0, 0, 150.0, 900.0),
    CommandWindow("publish", 900, 4_500, 0, 0),
    CommandWindow("expire", 800, 1_600, 0, 0),
    CommandWindow("incr", 700, 1_400, 0, 0),
    CommandWindow("lpush", 300, 900, 0, 0),
    CommandWindow("brpop", 290, 870, 0, 0),
    CommandWindow("xadd", 100, 800, 0, 0),
    CommandWindow("del", 50, 200, 0, 0),
    CommandWindow("config|get", 4, 120, 0, 0),
    CommandWindow("keys", 3, 450_000, None, None),
)
CLIENTS = (
    ClientInfo(5, "10.0.0.7:51022", "feed", "P", "subscribe", 600, 0, 0, sub=120, psub=2, omem=9_000_000),
    ClientInfo(6, "10.0.0.8:40000", "worker", "b", "brpop", 60, 12, 0),
    ClientInfo(7, "10.0.0.9:40001", "", "x", "exec", 30, 0, 1, multi=3, watch=1),
    ClientInfo(8, "10.0.0.10:40002", "ops", "O", "monitor", 30, 0, 0, omem=2_000_000),
    ClientInfo(9, "10.0.0.11:40003", "web", "N", "get", 10, 1, 0, watch=0, omem=16_384),
)
SLOW_CALLS = (
    SlowCall(103, 1_795_000_006, 12_000, "mset", tuple(b"k%d" % i for i in range(8)), "10.0.0.11:40003", "web"),
    SlowCall(102, 1_795_000_005, 480_000, "keys", (b"order:*",), "10.0.0.11:40003", "web"),
    SlowCall(101, 1_795_000_003, 25_000, "hgetall", (b"cart:\xff:1",), "10.0.0.9:40001"),
)


def traffic_view(**changes: object) -> TrafficView:
    """A window of 10 s: twelve commands, two error prefixes, five clients of every kind (six connected),
    three slow calls, two hot keys, a list and a stream used as queues, the sources (CONFIG GET refused)."""
    view = TrafficView(
        origin=Location(SOURCE_TRAFFIC, ADDRESS),
        started=STARTED,
        seconds=10.0,
        commands=COMMANDS,
        errors={"ERR": 5, "WRONGTYPE": 2},
        stats={
            "total_commands_processed": 20_351,
            "total_net_input_bytes": 1_048_576,
            "total_net_output_bytes": 10_485_760,
            "rejected_connections": 1,
            "keyspace_hits": 11_000,
            "keyspace_misses": 1_000,
            "expired_keys": 40,
        },
        clients=CLIENTS,
        clients_total=6,
        slow_calls=SLOW_CALLS,
        slowlog_history=40,
        slowlog_since=1_794_996_400,
        slowlog_threshold_us=10_000,
        sources=(
            TrafficSourceInfo("INFO commandstats", BLIND_SPOTS["INFO commandstats"]),
            TrafficSourceInfo("SLOWLOG GET", BLIND_SPOTS["SLOWLOG GET"]),
            TrafficSourceInfo("CLIENT LIST", BLIND_SPOTS["CLIENT LIST"]),
            TrafficSourceInfo("CONFIG GET", BLIND_SPOTS["CONFIG GET"], "NOPERM this user has no permissions"),
            TrafficSourceInfo("OBJECT FREQ", BLIND_SPOTS["OBJECT FREQ"]),
        ),
        hot_keys=(
            HotKey(0, b"live:room:8801:goods", 5_200.0, "OBJECT FREQ", 200, 230),
            HotKey(0, b"rank:global", 4_100.0, "OBJECT FREQ", 255, 255, saturated=True),
        ),
        hot_keys_sampled=1_000,
        hot_keys_population=1_000,
        latency_events=(
            LatencyEvent("command", int(STARTED) + 4, 250, 900),
            LatencyEvent("fork\x1b[31m", int(STARTED) + 6, 12, 40),
        ),
        latency_threshold_ms=10,
        queues=(
            QueueStat(0, b"jobs:email", "list", "--queue", 100, 400),
            QueueStat(
                0,
                b"events",
                "stream",
                "namespace events",
                10,
                20,
                (StreamGroup("billing", 2, 30, 5), StreamGroup("audit", 1, 0, None)),
            ),
        ),
    )
    return replace(view, **changes)  # type: ignore[arg-type]


def traffic_report(view: TrafficView | None = None, extra: tuple[Fact, ...] = ()) -> Report:
    """The report of one window, judged by RULES: the window's commands as the source yields them (the
    commandstats counts and the slow calls), the `extra` facts, then the view."""
    view = view or traffic_view()
    registry = default_registry()
    settings = settings_for(Overrides(isolated=True, select=RULES), registry)
    origin = view.origin
    facts: list[Fact] = [CommandFact(c.name, origin, EVIDENCE_COMMANDSTATS, None, c.calls) for c in view.commands]
    facts += [CommandFact(s.command, origin, EVIDENCE_SLOWLOG, s.args, 1, s.duration_us) for s in view.slow_calls]
    facts += extra
    facts.append(view)
    summary = ServerSummary(ADDRESS, "redis", "7.2.4", "standalone", 1_048_576, None, "allkeys-lfu")
    notes = (note("traffic-clients-capped", kept=len(view.clients), total=view.clients_total),)
    source = FactSource(SOURCE_TRAFFIC, facts, SourceOutcome(notes, summary), inputs=(ADDRESS,), counts_keys=False)
    report = run([source], settings, command="traffic", registry=registry)
    return replace(report, stats=replace(report.stats, elapsed_seconds=0.0))


def monitor_sample() -> MonitorSample:
    """A MONITOR sample with one item of every kind, and one binary key."""
    return MonitorSample(
        stopped="max-bytes",
        lines=41_000,
        malformed=1,
        bytes_read=4_194_304,
        max_bytes=4_194_304,
        seconds=3.2,
        first_time=STARTED + 2.0,
        last_time=STARTED + 5.0,
        commands={"get": 30_000, "mget": 6_000, "set": 4_000, "setex": 999, "blpop": 1},
        key_ops=40_000,
        key_bytes=1_200_000,
        sketch_capacity=10_000,
        hot_by_ops=(KeyCount(0, b"live:room:8801:goods", 12_000, 0), KeyCount(0, b"bin:\xff\x1b[31m", 900, 12)),
        hot_by_bytes=(KeyCount(0, b"page:home:html", 600_000, 0),),
        ops_floor=12,
        bytes_floor=40,
        clients=(ClientCount("10.0.0.7:51022", 35_000, 0), ClientCount("10.0.0.8:40111", 5_999, 3)),
        arity=(ArityShape("mget", 6_000, 500, {1: 10, 128: 5_000, 512: 990}, "10.0.0.7:51022", b"user:profile:1"),),
        transactions=(TransactionShape("10.0.0.8:40111", 12, 250, 1_800),),
        writes_without_ttl=(PatternCount(b"cache:item:*", 4_000, 0, b"cache:item:7", "set"),),
        ttls=(
            TtlShape(
                b"promo:stock:*", 999, 0, 3_600_000, False, 999, 0, b"promo:stock:1", 120, 3_600_000, False, "setex"
            ),
        ),
        blocking=(BlockingShape("blpop", 1, 1, "10.0.0.9:1234", b"jobs:queue"),),
        senders={"keys": (ClientCount("10.0.0.9:1234", 3, 0),)},
    )


def monitored_report() -> Report:
    """The report of a window observed with --monitor: hot keys from the sample with their sizes, and the calls
    the sample's shapes stand for; the window is a cluster master's, with its hot slots."""
    sample = monitor_sample()
    view = traffic_view(
        monitor=sample,
        monitor_cost=MonitorCost(83_621.0, 2.0, 44_028.0, 8.0),
        hot_keys=tuple(
            replace(hot, type="hash", length=12_000, memory=672_400) if hot.key.startswith(b"live") else hot
            for hot in monitor_hot_keys(sample)
        ),
        sources=(
            TrafficSourceInfo("MONITOR", BLIND_SPOTS["MONITOR"]),
            TrafficSourceInfo("CLUSTER SLOT-STATS", BLIND_SPOTS["CLUSTER SLOT-STATS"]),
        ),
        slot_heat=SlotHeatView(
            5_461,
            2_000_000,
            50_000_000,
            (SlotHeat(866, 1_500_000, 40_000_000, 1), SlotHeat(12, 20_000, 1_000_000, 310)),
        ),
    )
    return traffic_report(view, extra=tuple(monitor_calls(sample, view.origin)))
