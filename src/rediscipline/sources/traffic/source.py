"""A live server as a source of traffic: observe it for a window and yield what it was sent.

The observation is read-only and cheap (about a dozen commands in all, whatever the traffic): CONFIG GET of
the settings the view compares with, a snapshot (INFO and TIME), a wait, then SLOWLOG GET, CLIENT LIST and a
second snapshot; a cluster's master also reads CLUSTER SLOT-STATS over its slots at each end. Nothing is
turned on at the server (no CONFIG SET; MONITOR only with `monitor`): a part it refuses to this user is named
in the view's sources with the server's words, and the rest goes on.

Facts: the commands called inside the window (`CommandFact` with commandstats evidence and the window's call
count, and the slow calls with their arguments), which the command rules judge as they judge a scan's; and
the `TrafficView`, which the traffic rules judge at the end and the report shows.

A Ctrl-C during the wait ends the window there: the second snapshot is taken at once and the view covers the
shorter window, which a note says.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from rediscipline.model.cluster import SlotRange
from rediscipline.model.display import PATH_LIMIT, display_bytes
from rediscipline.model.facts import EVIDENCE_COMMANDSTATS, EVIDENCE_SLOWLOG, CommandFact
from rediscipline.model.location import SOURCE_TRAFFIC, Location
from rediscipline.model.monitor import STOP_DURATION, STOP_INTERRUPTED, STOP_REFUSED, MonitorSample
from rediscipline.model.note import Note, note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import ServerSummary
from rediscipline.model.server import ServerFact
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.model.text import Text
from rediscipline.model.traffic import (
    DEFAULT_OUTPUT_LIMITS,
    SOURCE_MONITOR,
    SOURCE_OBJECT_FREQ,
    HotKey,
    LatencyEvent,
    MonitorCost,
    SlowCall,
    TrafficSourceInfo,
    TrafficView,
)
from rediscipline.redis_meta.commands import CONTAINERS
from rediscipline.sources.config.syntax import memory_bytes, strict_int
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.defaults import DEFAULT_TIMEOUT_SECONDS
from rediscipline.sources.live.server import pairs
from rediscipline.sources.live.topology import sentinel_error
from rediscipline.sources.live.url import ServerAddress, parse_address
from rediscipline.sources.live.wire import LostConnection, Wire, is_error
from rediscipline.sources.traffic.clients import own_address, parse_clients
from rediscipline.sources.traffic.defaults import DEFAULT_DURATION, MAX_DURATION
from rediscipline.sources.traffic.hotkeys import (
    DEFAULT_MAX_KEYS,
    Candidates,
    hot_keys,
    is_lfu,
    read_again,
    walk_counters,
)
from rediscipline.sources.traffic.latency import SOURCE_LATENCY, latency_events, latency_threshold
from rediscipline.sources.traffic.monitor import DEFAULT_MAX_BYTES, sample_monitor
from rediscipline.sources.traffic.monitor_facts import monitor_calls, monitor_hot_keys
from rediscipline.sources.traffic.queues import QUEUES_KEPT, queue_reads, queue_stats, read_queues
from rediscipline.sources.traffic.replies import reply_int
from rediscipline.sources.traffic.sizes import read_sizes
from rediscipline.sources.traffic.slots import METRICS_OFF, SOURCE_SLOT_STATS, SlotReading
from rediscipline.sources.traffic.slowlog import SLOWLOG_ENTRIES, newest_id, slow_calls
from rediscipline.sources.traffic.snapshot import Snapshot, parse_sections, take_snapshot
from rediscipline.sources.traffic.trace import TraceHeader, TraceWriter, trace_file
from rediscipline.sources.traffic.window import Observed, traffic_view

#: With --monitor, the part of the window before the sample (its throughput is what MONITOR's cost is measured
#: against): this share of the window, at most BASELINE_MAX seconds.
BASELINE_SHARE = 0.2
BASELINE_MAX = 2.0

#: `lfu-log-factor` when CONFIG GET is refused: the server's default.
DEFAULT_LFU_LOG_FACTOR = 10

#: What each source of the view cannot show, in the report's words.
BLIND_SPOTS = {
    "INFO commandstats": Text(
        "calls and CPU time per command, no arguments, no keys, no client; CPU is the main thread's execution "
        "time only",
        "按命令统计调用次数与 CPU 时间；没有参数、Key 与客户端；CPU 只是主线程的执行时间",
    ),
    "SLOWLOG GET": Text(
        "only calls slower than slowlog-log-slower-than, at most slowlog-max-len of them, 32 arguments of 128 "
        "bytes each; execution time, not the time the client waited",
        "只记录超过 slowlog-log-slower-than 的调用，最多 slowlog-max-len 条，每条最多 32 个参数、每个 128 字节；"
        "记录的是执行时间，不是客户端等待的时间",
    ),
    "CLIENT LIST": Text(
        "the connections at one instant (the end of the window): a client that came and went in between is not seen",
        "窗口结束时那一刻的连接：窗口内来了又走的客户端看不到",
    ),
    SOURCE_OBJECT_FREQ: Text(
        "the LFU access counter (a logarithmic, probabilistic count) of the keys with the highest counters when "
        "the window opened, read again when it closed: accesses per second are estimates, lower bounds at the "
        "counter's ceiling; a key that became hot only inside the window is missed",
        "窗口开始时 LFU 计数最高的 Key 的访问计数（对数、概率性的计数），在窗口结束时再读一次："
        "每秒访问数为估计值，计数封顶时为下限；只在窗口内才变热的 Key 会被遗漏",
    ),
    SOURCE_LATENCY: Text(
        "events longer than latency-monitor-threshold only (none when it is 0, the default), each with its latest "
        "occurrence only: several in the window show as one",
        "只记录超过 latency-monitor-threshold 的事件（为 0 即默认值时没有），每种事件只有最近一次："
        "窗口内的多次只显示为一次",
    ),
    SOURCE_MONITOR: Text(
        "every command the server ran during the sample, with its arguments and client, except administrative "
        "ones (CONFIG, SLOWLOG, ...); no pipeline boundaries (a MULTI block shows); unix-socket clients share "
        "one name; counts come from bounded sketches (each with its error); costs the server throughput while "
        "it runs, and the sample stops at --monitor-max-bytes",
        "采样期间服务端执行的每条命令及其参数与客户端，管理类命令（CONFIG、SLOWLOG 等）除外；看不到 Pipeline 的边界"
        "（MULTI 块可见）；unix socket 客户端共用一个名字；计数来自有界的概要结构（各带误差）；运行期间消耗服务端吞吐，"
        "读满 --monitor-max-bytes 即停止",
    ),
    SOURCE_SLOT_STATS: Text(
        "per hash slot of a cluster master, the main thread's CPU time and the network bytes of the commands on "
        "its keys, read at each end of the window: no keys, no commands; only when the server collects them "
        "(cluster-slot-stats-enabled)",
        "集群主节点每个哈希槽的主线程 CPU 时间与其 Key 上命令的网络字节，在窗口两端各读一次：没有 Key、没有命令；"
        "仅当服务端采集时（cluster-slot-stats-enabled）",
    ),
    "CONFIG GET": Text(
        "the output buffer limits and the slow log threshold the view compares with (the server's defaults "
        "when refused)",
        "视图所比较的输出缓冲区限制与慢日志阈值（被拒绝时按服务端默认值）",
    ),
}


@dataclass(frozen=True, slots=True)
class TrafficOptions:
    url: str | None = None  # None: $REDIS_URL
    user: str | None = None
    password_env: str | None = None
    duration: float = DEFAULT_DURATION
    timeout: float = DEFAULT_TIMEOUT_SECONDS
    hot_keys_scan: int = DEFAULT_MAX_KEYS  # keys whose LFU counter is read to find hot keys at most (0: none)
    queues: tuple[tuple[bytes, str], ...] = ()  # keys known to be queues, with why (`--queue`, a namespace)
    monitor: bool = False  # take a MONITOR sample inside the window
    monitor_max_bytes: int = DEFAULT_MAX_BYTES
    save_trace: Path | None = None  # write the sample's key accesses there (`trace`)


def check_duration(duration: float) -> None:
    """A window the tool observes: more than 0 s, at most MAX_DURATION s."""
    if not 0 < duration <= MAX_DURATION:
        raise SourceError(f"--duration must be more than 0 and at most {MAX_DURATION:g} seconds, not {duration:g}")


class TrafficSource:
    """One server observed for `options.duration` seconds (the address is parsed when the source is made, or
    given: a master of a cluster, with the slot ranges it serves, whose heat is read over the window).

    `sleep` waits inside the window and may raise KeyboardInterrupt to end it; `stop`, once set, ends a
    MONITOR sample the same way (a source run in a worker thread is stopped through both).
    """

    place = SOURCE_TRAFFIC
    counts_keys = False

    def __init__(
        self,
        options: TrafficOptions,
        *,
        address: ServerAddress | None = None,
        slots: Sequence[SlotRange] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        stop: threading.Event | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        check_duration(options.duration)
        self.options = options
        self.address: ServerAddress = address or parse_address(
            options.url, username=options.user, password_env=options.password_env
        )
        self.inputs = (self.address.display,)
        self._db = self.address.db or 0  # the database the queues are in: the URL's
        self._slots = slots
        self._sleep, self._clock, self._stop = sleep, clock, stop
        self._outcome = SourceOutcome()
        self._trace_written: tuple[str, int] | None = None
        self._trace_header = TraceHeader()

    def outcome(self) -> SourceOutcome:
        return self._outcome

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        del plan  # the observation is the same whatever the rules: it is cheap, and the report shows all of it
        wire = Wire(open_connection(self.address, self.options.timeout))
        try:
            yield from self._observe(wire)
        except LostConnection as error:
            raise SourceError(f"lost the connection to {self.address.display}: {error}") from None
        finally:
            wire.close()

    def _observe(self, wire: Wire) -> Iterator[Fact]:
        origin = Location(SOURCE_TRAFFIC, self.address.display)
        calls = _Calls(wire)
        limits, threshold, config_error = _settings(calls)
        latency_threshold_ms, latency_error = latency_threshold(calls.call)
        own_id = calls.call("CLIENT", "ID")
        policy, log_factor, dbs = _lfu_settings(calls)
        candidates, hot_source = self._hot_candidates(wire, policy, dbs)
        if self.options.monitor:
            hot_source = _source(SOURCE_MONITOR, None)
        history = calls.call("SLOWLOG", "GET", SLOWLOG_ENTRIES)
        last_slow = newest_id(history)
        queues = self._queue_candidates(() if is_error(history) else slow_calls(history))
        queues_start = read_queues(wire, self._db, list(queues))
        slot_reading = None if self._slots is None else SlotReading(self._slots)
        if slot_reading is not None:
            slot_reading.start(wire)
        calls.reset()  # what we send from here on lands inside the window
        start = take_snapshot(wire)
        calls.count("info", "time")
        _refuse_sentinel(start, wire, self.address.display)
        self._trace_header = _trace_header(self.address.display, start)
        began = self._clock()
        if self.options.monitor:
            cut, sample, middle = self._monitored(wire, calls, began)
        else:
            cut, sample, middle = self._wait(began, began + self.options.duration), None, None
        slowlog_reply = calls.call("SLOWLOG", "GET", SLOWLOG_ENTRIES)
        clients_reply = calls.call("CLIENT", "LIST")
        events: tuple[LatencyEvent, ...] = ()
        if latency_error is None:
            events, latency_error = latency_events(calls.call, start.clock or 0.0)
        end = take_snapshot(wire)
        seconds = _seconds(start, end, self._clock() - began)
        slot_heat = None if slot_reading is None else slot_reading.finish(wire)
        hot: tuple[HotKey, ...] = ()
        if sample is not None:
            hot = monitor_hot_keys(sample)
            if sample.stopped == STOP_REFUSED:
                hot_source = _source(SOURCE_MONITOR, sample.error)
        elif candidates is not None:
            hot = hot_keys(candidates, read_again(wire, candidates), seconds, log_factor)
        hot = read_sizes(wire, hot)
        listed = clients_reply if isinstance(clients_reply, bytes) else b""
        ours = own_address(listed, reply_int(own_id))  # the slow log names clients by address: ours are left out
        logged = tuple(
            call for call in (() if is_error(slowlog_reply) else slow_calls(slowlog_reply)) if call.client != ours
        )
        for key, reason in queue_reads(call for call in logged if call.id > last_slow).items():
            if len(queues) < QUEUES_KEPT:
                queues.setdefault(key, reason)
        queues_end = read_queues(wire, self._db, list(queues))
        clients, total = parse_clients(listed, reply_int(own_id))
        sources: tuple[TrafficSourceInfo, ...] = (
            _source("INFO commandstats", start.refused.get("commandstats")),
            _source("SLOWLOG GET", str(slowlog_reply) if is_error(slowlog_reply) else None),
            _source("CLIENT LIST", str(clients_reply) if is_error(clients_reply) else None),
            _source("CONFIG GET", config_error),
            _source(SOURCE_LATENCY, latency_error),
            hot_source,
        )
        if slot_reading is not None:
            sources += (_source(SOURCE_SLOT_STATS, slot_reading.error),)
        observed = Observed(
            clients=clients,
            clients_total=total,
            slowlog=logged,
            queues=queue_stats(self._db, queues, queues_start, queues_end),
            slowlog_before=last_slow,
            hot_keys=hot,
            hot_keys_sampled=0 if candidates is None else candidates.read,
            hot_keys_population=sum(count for _db, count in dbs),
            output_limits=limits,
            slowlog_threshold_us=threshold,
            sources=sources,
            latency_events=events,
            latency_threshold_ms=latency_threshold_ms,
            monitor=sample,
            monitor_cost=None if middle is None or sample is None else _cost(start, middle, end),
            slot_heat=slot_heat,
        )
        view = traffic_view(
            origin, start, end, seconds=seconds, observed=observed, own=calls.sent, own_errors=calls.errors
        )
        self._outcome = SourceOutcome(tuple(self._notes(view, cut)), _summary(self.address.display, end))
        senders = {} if sample is None else sample.senders
        for command in view.commands:
            sent_by = tuple(client.client for client in senders.get(command.name, ()))
            yield CommandFact(command.name, origin, EVIDENCE_COMMANDSTATS, None, command.calls, senders=sent_by)
        for slow in view.slow_calls:
            yield CommandFact(
                slow.command,
                origin,
                EVIDENCE_SLOWLOG,
                slow.args,
                1,
                slow.duration_us,
                senders=(slow.client,) if slow.client else (),
            )
        if sample is not None:
            yield from monitor_calls(sample, origin)
        yield view

    def _monitored(
        self, wire: Wire, calls: _Calls, began: float
    ) -> tuple[float | None, MonitorSample, Snapshot | None]:
        """The window with a MONITOR sample: a first part without it (BASELINE_SHARE, the throughput MONITOR's
        cost is measured against), a snapshot, the sample until the window ends, and the rest of the window
        when the sample stopped early. Returns when it was cut by Ctrl-C (else None), the sample, and the
        snapshot between the parts (None when Ctrl-C came before it)."""
        duration = self.options.duration
        cut = self._wait(began, began + min(BASELINE_MAX, duration * BASELINE_SHARE))
        if cut is not None:
            return cut, MonitorSample(STOP_INTERRUPTED), None
        middle = take_snapshot(wire)
        calls.count("info", "time", "monitor")
        left = duration - (self._clock() - began)
        with self._trace() as trace:
            sample = sample_monitor(
                self.address,
                left,
                self.options.monitor_max_bytes,
                timeout=self.options.timeout,
                trace=trace,
                stop=self._stop,
            )
        if sample.stopped == STOP_INTERRUPTED:
            return self._clock() - began, sample, middle
        return self._wait(began, began + duration), sample, middle

    @contextlib.contextmanager
    def _trace(self) -> Iterator[TraceWriter | None]:
        """The trace file the sample writes (`--save-trace`), or None; what was written is noted."""
        path = self.options.save_trace
        if path is None:
            yield None
            return
        with trace_file(path, self._trace_header) as writer:
            yield writer
        self._trace_written = (display_bytes(os.fsencode(path), PATH_LIMIT), writer.written)

    def _queue_candidates(self, history: Sequence[SlowCall]) -> dict[bytes, str]:
        """The keys taken for queues before the window (see `queues`), with why; at most QUEUES_KEPT."""
        found: dict[bytes, str] = {}
        for key, reason in self.options.queues:
            found.setdefault(key, reason)
        for key, reason in queue_reads(history).items():
            found.setdefault(key, reason)
        return dict(list(found.items())[:QUEUES_KEPT])

    def _hot_candidates(
        self, wire: Wire, policy: str | None, dbs: Sequence[tuple[int, int]]
    ) -> tuple[Candidates | None, TrafficSourceInfo]:
        """The keys with the highest LFU counters before the window (None when the policy keeps no counter,
        or the walk is off), and the hot keys' source as the view names it."""
        if self.options.hot_keys_scan <= 0:
            return None, _source(SOURCE_OBJECT_FREQ, "not read (--hot-keys-scan 0)")
        if not is_lfu(policy):
            why = (
                f"maxmemory-policy is {policy or 'unknown'}: the server keeps access counters only under an LFU policy"
            )
            return None, _source(SOURCE_OBJECT_FREQ, why)
        found = walk_counters(wire, [db for db, _keys in dbs], self.options.hot_keys_scan)
        return found, _source(SOURCE_OBJECT_FREQ, found.error)

    def _wait(self, began: float, until: float) -> float | None:
        """Wait until the clock reads `until`; a Ctrl-C ends the window early: the seconds it lasted since
        `began`, else None."""
        try:
            while (left := until - self._clock()) > 0:
                self._sleep(min(left, 0.5))
        except KeyboardInterrupt:
            return self._clock() - began
        return None

    def _notes(self, view: TrafficView, cut: float | None) -> Iterator[Note]:
        if cut is not None:
            yield note("traffic-cut", seconds=round(cut, 1), asked=self.options.duration)
        if view.reset:
            yield note("traffic-reset")
        unset = view.latency_threshold_ms == 0  # the latency monitor is off: nothing was refused
        slots_off = any(s.name == SOURCE_SLOT_STATS and s.error == METRICS_OFF for s in view.sources)
        refused = tuple(
            f"{source.name}: {source.error}"
            for source in view.sources
            if source.error is not None
            and source.name != SOURCE_OBJECT_FREQ
            and not (source.name == SOURCE_LATENCY and unset)
            and source.name != SOURCE_SLOT_STATS  # a server before slot statistics: its sources line says so
        )
        if refused:
            yield note("traffic-refused", parts=refused)
        if slots_off:
            yield note("traffic-slot-stats-off")
        for source in view.sources:
            if source.name == SOURCE_OBJECT_FREQ and source.error is not None:
                yield note("traffic-no-hot-keys", reason=source.error)
        if view.clients_total > len(view.clients):
            yield note("traffic-clients-capped", kept=len(view.clients), total=view.clients_total)
        yield from self._monitor_notes(view)

    def _monitor_notes(self, view: TrafficView) -> Iterator[Note]:
        sample, cost = view.monitor, view.monitor_cost
        if sample is None or sample.stopped == STOP_REFUSED:
            return
        if cost is not None:
            yield note("traffic-monitor-cost", before=round(cost.ops_before), during=round(cost.ops_during),
                       drop=None if cost.drop is None else round(cost.drop, 3))  # fmt: skip
        if sample.stopped not in (STOP_DURATION, STOP_INTERRUPTED):
            yield note(
                "traffic-monitor-short",
                seconds=round(sample.seconds, 1),
                asked=round(cost.seconds_during if cost is not None else sample.seconds, 1),
                stopped=sample.stopped,
                error=sample.error,
            )
        if self._trace_written is not None:
            yield note("traffic-trace", path=self._trace_written[0], accesses=self._trace_written[1])


class _Calls:
    """The wire, counting what this tool sends inside the window (by commandstats name) and the error replies
    it is given (by error prefix), so that the window leaves them out."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.sent: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()

    def call(self, *args: str | int) -> object:
        reply = self.wire.call(*args)
        name = str(args[0]).lower()
        self.count(f"{name}|{str(args[1]).lower()}" if name in CONTAINERS and len(args) > 1 else name)
        if is_error(reply):
            self.errors[str(reply).split(" ", 1)[0]] += 1
        return reply

    def count(self, *names: str) -> None:
        self.sent.update(names)

    def reset(self) -> None:
        self.sent.clear()
        self.errors.clear()


def _settings(calls: _Calls) -> tuple[dict[str, tuple[int, int, int]], int | None, str | None]:
    """`client-output-buffer-limit` per class and `slowlog-log-slower-than` (µs), read with CONFIG GET; the
    server's defaults and the refusal when it is refused."""
    limits = dict(DEFAULT_OUTPUT_LIMITS)
    reply = calls.call("CONFIG", "GET", "client-output-buffer-limit")
    if is_error(reply) or not isinstance(reply, list) or len(reply) < 2:
        return limits, None, str(reply) if is_error(reply) else "no such setting"
    limits.update(parse_output_limits(bytes(reply[1]).decode("ascii", "replace")))
    threshold_reply = calls.call("CONFIG", "GET", "slowlog-log-slower-than")
    threshold = None
    if isinstance(threshold_reply, list) and len(threshold_reply) == 2:
        threshold = reply_int(threshold_reply[1])
    return limits, threshold, None


def parse_output_limits(text: str) -> dict[str, tuple[int, int, int]]:
    """`normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60` → class → (hard, soft, seconds)
    (`slave` is the replica class; sizes may carry units on old servers: `256mb`)."""
    words = text.split()
    limits: dict[str, tuple[int, int, int]] = {}
    for index in range(0, len(words) - 3, 4):
        name = "replica" if words[index] == "slave" else words[index]
        hard, soft = memory_bytes(words[index + 1].encode()), memory_bytes(words[index + 2].encode())
        seconds = strict_int(words[index + 3].encode())
        if hard is not None and soft is not None and seconds is not None:
            limits[name] = (hard, soft, seconds)
    return limits


def _lfu_settings(calls: _Calls) -> tuple[str | None, int, list[tuple[int, int]]]:
    """The eviction policy (CONFIG GET, else INFO memory), `lfu-log-factor` (the server's default 10 when
    CONFIG is refused) and the databases holding keys with their key counts (INFO keyspace)."""
    policy = _config_value(calls.call("CONFIG", "GET", "maxmemory-policy"))
    log_factor = reply_int(_config_value(calls.call("CONFIG", "GET", "lfu-log-factor"))) or DEFAULT_LFU_LOG_FACTOR
    memory = calls.call("INFO", "memory")
    if policy is None and isinstance(memory, bytes):
        policy = parse_sections(memory).get("memory", {}).get("maxmemory_policy")
    keyspace = calls.call("INFO", "keyspace")
    dbs: list[tuple[int, int]] = []
    if isinstance(keyspace, bytes):
        for name, value in parse_sections(keyspace).get("keyspace", {}).items():
            keys = reply_int(pairs(value).get("keys"))
            if name.startswith("db") and name[2:].isdigit() and keys:
                dbs.append((int(name[2:]), keys))
    return policy, log_factor, sorted(dbs) or [(0, 0)]


def _config_value(reply: object) -> str | None:
    if isinstance(reply, list) and len(reply) == 2 and isinstance(reply[1], bytes):
        return reply[1].decode("ascii", "replace")
    return None


def _refuse_sentinel(snapshot: Snapshot, wire: Wire, display: str) -> None:
    if snapshot.section("server").get("redis_mode") == "sentinel":
        raise sentinel_error(wire, display)


def _seconds(start: Snapshot, end: Snapshot, measured: float) -> float:
    """The window's length by the server's clock (TIME at each end), else as measured here."""
    if start.clock is not None and end.clock is not None and end.clock >= start.clock:
        return round(end.clock - start.clock, 3)
    return round(measured, 3)


def _cost(start: Snapshot, middle: Snapshot, end: Snapshot) -> MonitorCost | None:
    """Commands per second before the MONITOR sample and during it, by the server's clock; None when a clock
    or a counter is missing or went backwards."""
    points: list[tuple[float, int]] = []
    for snapshot in (start, middle, end):
        count, clock = snapshot.field_int("stats", "total_commands_processed"), snapshot.clock
        if count is None or clock is None:
            return None
        points.append((clock, count))
    (t0, c0), (t1, c1), (t2, c2) = points
    if c1 < c0 or c2 < c1 or t1 <= t0 or t2 <= t1:
        return None
    return MonitorCost(round((c1 - c0) / (t1 - t0), 1), round(t1 - t0, 3), round((c2 - c1) / (t2 - t1), 1),
                       round(t2 - t1, 3))  # fmt: skip


def _source(name: str, error: str | None) -> TrafficSourceInfo:
    return TrafficSourceInfo(name, BLIND_SPOTS[name], error)


def _described(display: str, snapshot: Snapshot) -> ServerFact:
    """The server as INFO described it in `snapshot`."""
    info = {**snapshot.section("server"), **snapshot.section("memory")}
    return ServerFact(Location(SOURCE_TRAFFIC, display), info=info)


def _trace_header(display: str, snapshot: Snapshot) -> TraceHeader:
    """What a trace file says of the server: its flavor and version, and its allocator when INFO names it
    without doubt (glibc; a jemalloc build does not say its size classes)."""
    described = _described(display, snapshot)
    server = f"{described.flavor}-{described.version}" if described.version != "?" else None
    allocator = "libc" if described.info.get("mem_allocator", "").startswith("libc") else None
    return TraceHeader(server, allocator)


def _summary(display: str, end: Snapshot) -> ServerSummary:
    """The report's header: the server as INFO described it at the end of the window."""
    described = _described(display, end)
    return ServerSummary(
        address=display,
        flavor=described.flavor,
        version=described.version,
        role=described.info.get("redis_mode"),
        used_memory=described.info_int("used_memory"),
        maxmemory=described.maxmemory or None,
        maxmemory_policy=described.maxmemory_policy,
    )
