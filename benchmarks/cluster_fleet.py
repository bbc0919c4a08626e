"""Cluster scan, merge overhead and fleet concurrency of `rediscipline scan`, each against its baseline, in one run.

Three parts, each on real Debian Redis 7.0 servers (/usr/bin/redis-server, persistence off, free 127.0.0.1 ports,
started by the test suite's fixtures and stopped by their PID, also on errors, Ctrl-C and SIGTERM):

cluster   A 3-master cluster (no replicas) loaded with `--keys` keys of the mix of `scan_throughput.py` (~70%
          strings, hashes, sets, sorted sets, lists; ~20% with a TTL), each written to the master of its hash
          slot (`redis.crc.key_slot`) through `redis-cli --pipe`. Measured `--repeat` times, the order rotated
          each round so that a slow phase of the machine hits all of them:
            cluster  `rediscipline scan redis://MASTER0 --isolated --format json --output F --exit-zero`: the
                     whole cluster from one address (default executor: a local process pool, --concurrency 4)
            nodes    the same scan of each master alone (`--no-cluster`), one after another: the sum of 3
            memkeys  `redis-cli -p PORT --memkeys` on each master, stdout to /dev/null: the sum of 3
          The cluster report's `summary.keys` and its shards' keys must match DBSIZE of the masters.
merge     16 engines configured as the driver configures them (`api.parts.EngineSpec`, the default preset's
          live rules, cluster shards) are each fed 100,000 synthetic `KeyFact`s with probed type, TTL, memory
          and length (the key families of `keys_throughput.py`; a fifth of each part's keys under families of
          its own): the production time. Then a fresh engine merges the 16 partials and finishes the run (merge
          time). The facts are made before the clock starts. Also shown: how long unpickling the partials
          takes, as the coordinator does with what worker processes send back.
fleet     20 lone servers of `--fleet-keys` keys each, scanned as one fleet
          (`rediscipline scan URL1 ... URL20 --isolated --format json --output F --exit-zero`) with the
          default concurrency (4) and with `--concurrency 8`, against `--executor inline` (the 20 targets one
          after another in one process) and 20 single scans one after another (the sum of their wall times).

What each run records (the table shows medians of wall time and CPU, and the largest peaks):

  CPU s     CPU seconds of the command's processes: its own (exact: from itself, or GNU time) plus those of
            every other process of its session (the process pool's fork server and workers), read from
            /proc every 0.1 s (what a process does in its last 0.1 s is missed)
  servers   CPU seconds the measured servers used during the run (/proc/PID/stat)
  busy      the share of the machine's CPU time that was busy during the run, anyone's processes included:
            near 100% means the run waited for CPU and concurrency could not help
  own MB    peak RSS of the rediscipline process itself (the cluster scan's coordinator): every rediscipline
            command runs through a few-line wrapper (`python -c`) that calls the CLI entry point and writes
            `getrusage(RUSAGE_SELF)` (peak RSS and CPU time) at exit, so start-up costs the same for all
  workers   the largest peak RSS (VmHWM) of the session's other processes: the pool's workers
  %M MB     GNU `time -f %M`: the process and the children it waited for. The pool's workers are children of
            the fork server, which is not waited for, so for a pooled run this is the coordinator's peak too

Targets (reported, not asserted): cluster <= 1.1 x nodes and <= 0.8 x memkeys (wall time, medians); the
coordinator's peak RSS <= 200 MB on the cluster scan; merge + finish <= 5% of the production time; the fleet
<= 0.5 x the targets one after another. The table shows medians and min–max; `--json FILE` writes them all.

    .venv/bin/python benchmarks/cluster_fleet.py [--keys 1000000] [--repeat 3] [--pin] [--json FILE]
        [--only cluster,merge,fleet] [--fleet 20] [--fleet-keys 20000] [--parts 16] [--part-keys 100000]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import pickle
import random
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support: the test suite's servers

from keys_throughput import CLEAN, VIOLATING, id_makers
from redis.crc import key_slot
from scan_throughput import BATCH, MIX, add_key, parse_count
from tests.support.servers import HOST, ServerProcess, binary_path, start_server
from tests.support.topologies import SLOTS, Cluster, start_cluster
from timing import gnu_time

KIND = "redis70"  # Debian's redis-server 7.0
DEFAULT_KEYS = 1_000_000
MASTERS = 3
FLEET, FLEET_KEYS = 20, 20_000
PARTS, PART_KEYS = 16, 100_000
OWN_FAMILIES = 0.2  # the share of a merge part's keys under families no other part has
NODE_TIMEOUT_MS = 30_000  # a node busy loading or being scanned on a shared machine is not flagged as failing
SERVER_CPU, CLIENT_CPU = 0, 1  # --pin
POLL_SECONDS = 0.1  # how often the processes of a measured command are looked at (CPU time, peak RSS)
TICKS = os.sysconf("SC_CLK_TCK")
PARTS_ALL = ("cluster", "merge", "fleet")

TARGET_VS_NODES = 1.1
TARGET_VS_MEMKEYS = 0.8
TARGET_RSS_MB = 200.0
TARGET_MERGE_SHARE = 0.05
TARGET_FLEET = 0.5

# Runs the CLI in this interpreter and, at exit, writes this process's own peak RSS (KiB on Linux) and CPU
# seconds to argv[1].
WRAPPER = (
    "import atexit, resource, sys\n"
    "out = sys.argv.pop(1)\n"
    "def report():\n"
    "    usage = resource.getrusage(resource.RUSAGE_SELF)\n"
    "    open(out, 'w').write(f'{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}')\n"
    "atexit.register(report)\n"
    "sys.argv[0] = 'rediscipline'\n"
    "from rediscipline.cli.entry import main\n"
    "main()\n"
)


# ---- measured commands ---------------------------------------------------------------------------------------


@dataclass
class Run:
    """One measured command, or a sequence of them (times and CPU summed, peaks the largest)."""

    wall: float
    own_mb: float  # the rediscipline process alone, from inside it (nan for other commands)
    helpers_mb: float  # the largest peak of the other processes of its session: the pool's workers
    tree_mb: float  # GNU time %M: the process and the children it waited for
    client_cpu: float  # CPU seconds of every process of the command's session
    server_cpu: float  # CPU seconds of the servers during the run
    busy: float  # the share of the machine's CPU time that was busy (anyone's processes)
    failed: str = ""  # why the command failed; empty when it did not

    @staticmethod
    def total(runs: Sequence[Run]) -> Run:
        wall = sum(r.wall for r in runs)
        return Run(
            wall,
            max((r.own_mb for r in runs), default=math.nan),
            max((r.helpers_mb for r in runs), default=math.nan),
            max((r.tree_mb for r in runs), default=math.nan),
            sum(r.client_cpu for r in runs),
            sum(r.server_cpu for r in runs),
            sum(r.busy * r.wall for r in runs) / wall if wall else math.nan,
            "; ".join(r.failed for r in runs if r.failed),
        )


def peak_and_cpu(path: Path) -> tuple[float, float]:
    """(peak RSS in MB, CPU seconds) from a file of `KIB SECONDS [SECONDS]`; nan for what it lacks."""
    try:
        values = [float(v) for v in path.read_text().split()]
    except (OSError, ValueError):
        return math.nan, math.nan
    return (values[0] / 1024, sum(values[1:])) if len(values) > 1 else (math.nan, math.nan)


def proc_stat(pid: int | str) -> tuple[int, int, int] | None:
    """(parent pid, session id, user + system CPU ticks) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), int(fields[3]), int(fields[11]) + int(fields[12])


def peak_kib(pid: int) -> int:
    """VmHWM of a process: the kernel's high-water mark of its resident set (kB); 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the machine since boot, every CPU together (/proc/stat)."""
    with open("/proc/stat", "rb") as fh:
        values = [int(v) for v in fh.readline().split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    total = sum(values[:8])  # without guest time, which `user` already counts
    return total - idle, total


class SessionWatch(threading.Thread):
    """Polls /proc every POLL_SECONDS for the processes of one session (the measured command and everything
    it started, the process pool's fork server and workers included): the CPU time each used and each one's
    peak RSS, as last seen. What a process does in its last poll interval is missed."""

    def __init__(self, session: int) -> None:
        super().__init__(daemon=True)
        self.session = session
        self.cpu: dict[int, int] = {}
        self.peak: dict[int, int] = {}
        self.parent: dict[int, int] = {}
        self.done = threading.Event()

    def run(self) -> None:
        while True:
            self.poll()
            if self.done.wait(POLL_SECONDS):
                return

    def poll(self) -> None:
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            stat = proc_stat(entry.name)
            if stat is None or stat[1] != self.session:
                continue
            pid = int(entry.name)
            self.parent[pid], _, self.cpu[pid] = stat
            self.peak[pid] = max(self.peak.get(pid, 0), peak_kib(pid))

    def stop(self) -> None:
        self.done.set()
        self.join()


@dataclass
class Runner:
    timer: str | None  # GNU time, or None: no %M
    client_pin: tuple[str, ...]  # taskset prefix for --pin
    servers: list[int] = field(default_factory=list)  # the PIDs of the servers being measured

    def rediscipline(self, args: Sequence[str]) -> list[str]:
        """argv of `rediscipline ARGS` through the RSS wrapper; `{rss}` is replaced by the report's path."""
        return [sys.executable, "-c", WRAPPER, "{rss}", *args]

    def run(self, argv: Sequence[str]) -> Run:
        """Run argv in a session of its own (an interrupt ends all of it), stdout to /dev/null."""
        with tempfile.TemporaryDirectory(prefix="rediscipline-bench-rss-") as tmp:
            own, tree = Path(tmp) / "own", Path(tmp) / "tree"
            command = [str(own) if arg == "{rss}" else arg for arg in argv]
            wrapped = [*self.client_pin, *command]
            if self.timer:
                wrapped = [self.timer, "-f", "%M %U %S", "-o", str(tree), *wrapped]
            servers = self.server_ticks()
            machine = machine_ticks()
            started = time.perf_counter()
            proc = subprocess.Popen(
                wrapped, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                start_new_session=True,
            )  # fmt: skip
            watch = SessionWatch(proc.pid)
            watch.start()
            try:
                _, err = proc.communicate()
            except BaseException:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait()
                raise
            finally:
                watch.stop()
            wall = time.perf_counter() - started
            busy, total = (after - before for after, before in zip(machine_ticks(), machine, strict=True))
            server_cpu = (self.server_ticks() - servers) / TICKS
            failed = "" if proc.returncode == 0 else f"exit {proc.returncode}: {err.decode('utf-8', 'replace')[-600:]}"
            # The command's own process: GNU time's child (taskset execs what it runs), else the one started here.
            # Its CPU time comes from itself (the wrapper) or GNU time, exact; the others' from the watch.
            main = next((pid for pid, parent in watch.parent.items() if parent == proc.pid), proc.pid)
            helpers = [pid for pid in watch.peak if pid not in (proc.pid, main)]
            own_mb, own_cpu = peak_and_cpu(own)
            tree_mb, tree_cpu = peak_and_cpu(tree)
            main_cpu = next((v for v in (own_cpu, tree_cpu) if not math.isnan(v)), watch.cpu.get(main, 0) / TICKS)
            return Run(
                wall,
                own_mb,
                max(watch.peak[pid] for pid in helpers) / 1024 if helpers else math.nan,
                tree_mb,
                main_cpu + sum(watch.cpu[pid] for pid in helpers) / TICKS,
                server_cpu,
                busy / total if total else math.nan,
                failed,
            )

    def server_ticks(self) -> int:
        return sum(stat[2] for stat in map(proc_stat, self.servers) if stat is not None)


@dataclass
class Series:
    """The runs of one phase across the rounds."""

    label: str
    runs: list[Run] = field(default_factory=list)

    @property
    def walls(self) -> list[float]:
        return [r.wall for r in self.runs if not r.failed]

    def summary(self) -> dict[str, Any]:
        walls = self.walls
        ok = [r for r in self.runs if not r.failed]

        def peak(values: Iterator[float]) -> float | None:
            known = [v for v in values if not math.isnan(v)]
            return round(max(known), 1) if known else None

        def median(values: list[float], digits: int) -> float | None:
            return round(statistics.median(values), digits) if values else None

        return {
            "runs": len(self.runs),
            "failed": sum(1 for r in self.runs if r.failed),
            "wall_s": [round(r.wall, 3) for r in self.runs],
            "median_s": median(walls, 3),
            "min_s": round(min(walls), 3) if walls else None,
            "max_s": round(max(walls), 3) if walls else None,
            "client_cpu_s": median([r.client_cpu for r in ok], 2),
            "server_cpu_s": median([r.server_cpu for r in ok], 2),
            "machine_busy": median([r.busy for r in ok], 3),
            "own_rss_mb_max": peak(r.own_mb for r in self.runs),
            "helpers_rss_mb_max": peak(r.helpers_mb for r in self.runs),
            "tree_rss_mb_max": peak(r.tree_mb for r in self.runs),
        }


def ratio(top: Series, bottom: Series, target: float) -> dict[str, Any]:
    """Median over median, with the range of the per-round ratios (rounds where both ran)."""
    if not top.walls or not bottom.walls:
        return {"median": None, "min": None, "max": None, "target": target, "met": None}
    value = statistics.median(top.walls) / statistics.median(bottom.walls)
    rounds = [a.wall / b.wall for a, b in zip(top.runs, bottom.runs, strict=False) if not a.failed and not b.failed]
    return {
        "median": round(value, 3),
        "min": round(min(rounds), 3),
        "max": round(max(rounds), 3),
        "target": target,
        "met": value <= target,
    }


def show(label: str, run: Run) -> None:
    cpu = f"  CPU {run.client_cpu:6.2f} s + servers {run.server_cpu:5.2f} s, machine {run.busy:4.0%} busy"
    own = "" if math.isnan(run.own_mb) else f"  own {run.own_mb:5.1f} MB"
    helpers = "" if math.isnan(run.helpers_mb) else f"  workers {run.helpers_mb:5.1f} MB"
    status = f"  FAILED {run.failed}" if run.failed else ""
    print(f"  {label:<20} {run.wall:7.2f} s{cpu}{own}{helpers}{status}", flush=True)


def rounds(repeat: int, phases: dict[str, Callable[[], Run]], series: dict[str, Series]) -> None:
    """Every phase once per round, the order rotated each round."""
    names = list(phases)
    for index in range(repeat):
        print(f"round {index + 1}/{repeat}", flush=True)
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            run = phases[name]()
            series[name].runs.append(run)
            show(name, run)


# ---- loading -------------------------------------------------------------------------------------------------


class Resp:
    """Commands as the RESP byte stream `redis-cli --pipe` reads; `add_key` queues on it as on a pipeline."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def execute_command(self, *args: object) -> None:
        out = [b"*%d\r\n" % len(args)]
        for arg in args:
            data = arg if isinstance(arg, bytes) else str(arg).encode()  # str(float) is its repr, as redis-py sends
            out.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self.chunks.append(b"".join(out))

    def take(self) -> bytes:
        data = b"".join(self.chunks)
        self.chunks.clear()
        return data


class PipeLoader:
    """A `redis-cli --pipe` writing what it is given to one server; `finish` checks it reported no errors."""

    def __init__(self, redis_cli: str, port: int) -> None:
        self.port = port
        self.proc = subprocess.Popen(
            [redis_cli, "-h", HOST, "-p", str(port), "--pipe"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)

    def finish(self) -> None:
        out, _ = self.proc.communicate()
        text = out.decode("utf-8", "replace")
        if self.proc.returncode != 0 or "errors: 0," not in text:
            raise RuntimeError(f"redis-cli --pipe to port {self.port} failed:\n{text[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def load(redis_cli: str, ports: Sequence[int], route: Callable[[bytes], int], start: int, stop: int) -> float:
    """Write the keys with serial numbers [start, stop) of the mix of `scan_throughput.py` (the same keys and
    values it writes), each to the server `route(key)` names; returns the seconds taken."""
    started = time.perf_counter()
    weights = [w for w, _, _ in MIX]
    loaders = {port: PipeLoader(redis_cli, port) for port in ports}
    buffers = {port: Resp() for port in ports}
    try:
        for batch in range(start, stop, BATCH):
            rng = random.Random(batch)  # as scan_throughput.load: seeded by the batch's first serial
            end = min(batch + BATCH, stop)
            kinds = rng.choices(MIX, weights=weights, k=end - batch)
            for serial, (_, template, kind) in zip(range(batch, end), kinds, strict=True):
                add_key(buffers[route(template.format(serial).encode())], rng, serial, template, kind)
            for port, buffer in buffers.items():
                loaders[port].write(buffer.take())
        for loader in loaders.values():
            loader.finish()
    finally:
        for loader in loaders.values():
            loader.stop()
    return time.perf_counter() - started


def dbsize(server: ServerProcess) -> int:
    with server.client() as client:
        return int(client.dbsize())


def used_memory(servers: Sequence[ServerProcess]) -> str:
    total = 0
    for server in servers:
        with server.client() as client:
            total += int(client.info("memory")["used_memory"])
    return f"{total / 2**20:,.0f} MB"


def pin_servers(servers: Sequence[ServerProcess], pin: bool) -> None:
    if pin:
        for server in servers:
            os.sched_setaffinity(server.pid, {SERVER_CPU})


# ---- part 1: the cluster -------------------------------------------------------------------------------------


def cluster_part(args: argparse.Namespace, runner: Runner, redis_cli: str, out: dict[str, Any]) -> None:
    print(f"\n== cluster: {MASTERS} masters, {args.keys:,} keys ==", flush=True)
    cluster: Cluster | None = None
    workdir = Path(tempfile.mkdtemp(prefix="rediscipline-bench-cluster-"))
    try:
        cluster = start_cluster(MASTERS, 0, KIND, node_timeout_ms=NODE_TIMEOUT_MS, timeout=120)
        masters = cluster.masters
        pin_servers(masters, args.pin)
        runner.servers = [m.pid for m in masters]
        owner = [0] * SLOTS
        for shard in cluster.shards:
            for low, high in shard.slots:
                owner[low : high + 1] = [shard.master.port] * (high - low + 1)
        ports = [m.port for m in masters]
        seconds = load(redis_cli, ports, lambda key: owner[key_slot(key)], 0, args.keys)
        sizes = {m.port: dbsize(m) for m in masters}
        print(
            f"loaded {sum(sizes.values()):,} keys in {seconds:.1f} s ({args.keys / seconds:,.0f} keys/s):"
            f" {', '.join(f'{port}: {n:,}' for port, n in sizes.items())}; servers use {used_memory(masters)}",
            flush=True,
        )
        if sum(sizes.values()) != args.keys:
            raise RuntimeError(f"the masters hold {sum(sizes.values()):,} keys, not {args.keys:,}")

        common = ["--isolated", *args.scan_args, "--format", "json", "--exit-zero"]
        report = workdir / "cluster.json"

        def node_report(port: int) -> Path:
            return workdir / f"{port}.json"

        url = f"redis://{HOST}:{ports[0]}"
        cluster_argv = runner.rediscipline(["scan", url, *common, "--output", str(report)])
        node_argvs = [
            runner.rediscipline(
                ["scan", f"redis://{HOST}:{p}", "--no-cluster", *common, "--output", str(node_report(p))]
            )
            for p in ports
        ]
        memkeys_argvs = [[redis_cli, "-h", HOST, "-p", str(p), "--memkeys"] for p in ports]
        phases = {
            "cluster": lambda: runner.run(cluster_argv),
            "nodes (sum of 3)": lambda: Run.total([runner.run(argv) for argv in node_argvs]),
            "memkeys (sum of 3)": lambda: Run.total([runner.run(argv) for argv in memkeys_argvs]),
        }
        series = {name: Series(name) for name in phases}
        rounds(args.repeat, phases, series)

        checks = {
            "cluster": check_cluster_report(report, sizes),
            "nodes": check_node_reports([node_report(p) for p in ports], sizes),
        }
        for name, text in checks.items():
            print(f"  check {name}: {text}")
        cluster_s, nodes_s, memkeys_s = series.values()
        out["cluster"] = {
            "masters": MASTERS,
            "keys": args.keys,
            "keys_per_master": {str(port): n for port, n in sizes.items()},
            "load_s": round(seconds, 1),
            "phases": {name: s.summary() for name, s in series.items()},
            "cluster_vs_nodes": ratio(cluster_s, nodes_s, TARGET_VS_NODES),
            "cluster_vs_memkeys": ratio(cluster_s, memkeys_s, TARGET_VS_MEMKEYS),
            "coordinator_rss_mb": cluster_s.summary()["own_rss_mb_max"],
            "coordinator_rss_target_mb": TARGET_RSS_MB,
            "checks": checks,
            "commands": {
                "cluster": shlex.join(shown(cluster_argv)),
                "node": shlex.join(shown(node_argvs[0])),
                "memkeys": shlex.join(memkeys_argvs[0]) + " > /dev/null",
            },
        }
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def shown(argv: Sequence[str]) -> list[str]:
    """The command as a user types it: `rediscipline ...` for the wrapper."""
    if len(argv) > 3 and argv[1] == "-c" and argv[2] == WRAPPER:
        return ["rediscipline", *argv[4:]]
    return list(argv)


def check_cluster_report(path: Path, sizes: dict[int, int]) -> str:
    """`ok` when the report counts every key, and each shard the keys of its master; else what differs."""
    try:
        report = json.loads(path.read_text())
        keys = report["summary"]["keys"]
        shards = {int(str(s["address"]).rsplit(":", 1)[1]): s["keys"] for s in report.get("shards") or []}
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        return f"unreadable report ({exc})"
    if keys != sum(sizes.values()):
        return f"MISMATCH: summary.keys {keys:,}, the masters hold {sum(sizes.values()):,}"
    if shards != sizes:
        return f"MISMATCH: shards {shards}, DBSIZE {sizes}"
    return f"ok (summary.keys {keys:,}; {len(shards)} shards, each its master's DBSIZE)"


def check_node_reports(paths: Sequence[Path], sizes: dict[int, int]) -> str:
    try:
        keys = [json.loads(path.read_text())["summary"]["keys"] for path in paths]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"unreadable report ({exc})"
    if keys != list(sizes.values()):
        return f"MISMATCH: {keys} against DBSIZE {list(sizes.values())}"
    return f"ok ({' + '.join(f'{n:,}' for n in keys)} keys)"


# ---- part 2: merging partial results -------------------------------------------------------------------------


def type_of(template: str) -> str:
    """The type a key family of `keys_throughput.py` plausibly holds, from its name."""
    for words, kind in (
        (("zset", "leaderboard", "geo"), "zset"),
        (("list", "messages", "feed", "queue", "thread"), "list"),
        (("set:", "followers", "members", "claimed"), "set"),
        (("hash", "items", "settings", "meta"), "hash"),
        (("stream",), "stream"),
    ):
        if any(word in template for word in words):
            return kind
    return "string"


APPS = ("billing", "search", "ads", "mail", "media", "risk", "crm", "iot", "ledger", "maps", "push", "sso")


def part_facts(part: int, count: int) -> list[Any]:
    """`count` key facts of one part: the families of `keys_throughput.py` with fresh ids (the part's seed),
    and OWN_FAMILIES of them under families of the part's own (its app name and part number in front)."""
    from rediscipline.model.facts import KeyFact
    from rediscipline.model.location import SOURCE_LIVE, Location

    rng = random.Random(part)
    ids = id_makers(rng)
    table = CLEAN + VIOLATING
    weights = [w for w, _, _ in table]
    families = [(template, [ids[kind] for kind in kinds], type_of(template)) for _, template, kinds in table]
    app = f"{APPS[part % len(APPS)]}{part}"
    own = [(f"{app}:{template}", makers, kind) for template, makers, kind in families[: len(CLEAN)]]
    origin = Location(SOURCE_LIVE, f"10.0.{part}.1:6379", db=0)
    facts = []
    for index in rng.choices(range(len(families)), weights=weights, k=count):
        template, makers, kind = own[index] if index < len(own) and rng.random() < OWN_FAMILIES else families[index]
        name = template.format(*[make() for make in makers]).encode("utf-8", "surrogateescape")
        ttl = -1 if rng.random() >= 0.2 else rng.choice((3600, 86_400, 604_800)) * 1000 + rng.randrange(3_600_000)
        length = rng.randint(20, 500) if kind == "string" else rng.randint(2, 30)
        per_item = 1 if kind == "string" else rng.randint(8, 40)
        memory = 40 + len(name) + length * per_item + rng.randrange(32)
        facts.append(KeyFact(name, origin, 0, kind, ttl, memory, length))
    return facts


def merge_round(spec: Any, parts: int, part_keys: int) -> dict[str, float]:
    from rediscipline.model.location import SOURCE_LIVE

    produce = unpickle = 0.0
    partials = []
    pickled = 0
    for part in range(1, parts + 1):
        facts = part_facts(part, part_keys)
        started = time.perf_counter()
        engine = spec.engine(part, sharded=True)
        engine.consume(facts)
        partial = engine.partial()
        produce += time.perf_counter() - started
        del facts, engine
        data = pickle.dumps(partial, protocol=pickle.HIGHEST_PROTOCOL)
        pickled += len(data)
        started = time.perf_counter()
        partials.append(pickle.loads(data))
        unpickle += time.perf_counter() - started
    started = time.perf_counter()
    engine = spec.engine(0)
    for partial in partials:
        engine.merge(partial)
    merged = time.perf_counter()
    result = engine.finish(SOURCE_LIVE)
    finished = time.perf_counter()
    if result.stats.keys != parts * part_keys:
        raise RuntimeError(f"the merged engine counts {result.stats.keys:,} keys, not {parts * part_keys:,}")
    return {
        "produce_s": produce,
        "merge_s": merged - started,
        "finish_s": finished - merged,
        "unpickle_s": unpickle,
        "pickled_mb": pickled / 2**20,
        "patterns": result.stats.patterns,
        "findings": len(result.findings),
    }


def engine_spec() -> Any:
    """The engines' configuration as the driver builds it for `scan redis://... --isolated` (api.driver.run)."""
    from rediscipline.api import settings_for
    from rediscipline.api.parts import EngineSpec
    from rediscipline.engine.libraries import LibraryPolicy, default_catalog
    from rediscipline.model.location import SOURCE_LIVE
    from rediscipline.rules import default_registry
    from rediscipline.settings.loader import Overrides

    registry = default_registry()
    settings = settings_for(Overrides(isolated=True), registry)
    checkable = tuple(r for r in settings.rules if SOURCE_LIVE in r.rule.meta.where)
    return EngineSpec(
        checkable,
        tuple(settings.namespaces),
        dict(settings.key_ignores),
        settings.pattern_cap,
        False,
        {cls.meta.id: cls.meta for cls in registry},
        frozenset(r.id for r in settings.rules),
        LibraryPolicy(default_catalog(None), settings.library_keys, settings.library_modes),
    )


def merge_part(args: argparse.Namespace, out: dict[str, Any]) -> None:
    print(f"\n== merge: {args.parts} partials of {args.part_keys:,} keys ==", flush=True)
    spec = engine_spec()
    print(f"  {len(spec.rules)} live rules; each part's facts are made before its clock starts", flush=True)
    results = []
    for index in range(args.repeat):
        gc.collect()
        result = merge_round(spec, args.parts, args.part_keys)
        results.append(result)
        share = (result["merge_s"] + result["finish_s"]) / result["produce_s"]
        print(
            f"  round {index + 1}/{args.repeat}: produce {result['produce_s']:6.2f} s  merge {result['merge_s']:6.3f} s"
            f"  finish {result['finish_s']:6.3f} s  ({share:.1%})  unpickle {result['unpickle_s']:6.3f} s"
            f" of {result['pickled_mb']:.1f} MB",
            flush=True,
        )

    def stat(name: str) -> dict[str, float]:
        values = [r[name] for r in results]
        return {
            "median": round(statistics.median(values), 4),
            "min": round(min(values), 4),
            "max": round(max(values), 4),
        }

    shares = [(r["merge_s"] + r["finish_s"]) / r["produce_s"] for r in results]
    merge_only = [r["merge_s"] / r["produce_s"] for r in results]
    median_share = statistics.median(shares)
    out["merge"] = {
        "parts": args.parts,
        "keys_per_part": args.part_keys,
        "rules": len(spec.rules),
        "produce_s": stat("produce_s"),
        "merge_s": stat("merge_s"),
        "finish_s": stat("finish_s"),
        "unpickle_s": stat("unpickle_s"),
        "pickled_mb": stat("pickled_mb"),
        "merge_finish_share": {
            "median": round(median_share, 4),
            "min": round(min(shares), 4),
            "max": round(max(shares), 4),
            "target": TARGET_MERGE_SHARE,
            "met": median_share <= TARGET_MERGE_SHARE,
        },
        "merge_only_share": {"median": round(statistics.median(merge_only), 4)},
        "merged_patterns": results[-1]["patterns"],
        "merged_findings": results[-1]["findings"],
    }


# ---- part 3: a fleet -----------------------------------------------------------------------------------------


def fleet_part(args: argparse.Namespace, runner: Runner, redis_cli: str, out: dict[str, Any]) -> None:
    print(f"\n== fleet: {args.fleet} servers of {args.fleet_keys:,} keys ==", flush=True)
    servers: list[ServerProcess] = []
    workdir = Path(tempfile.mkdtemp(prefix="rediscipline-bench-fleet-"))
    try:
        started = time.perf_counter()
        for index in range(args.fleet):
            servers.append(start_server(KIND))
            port = servers[-1].port
            first = index * args.fleet_keys
            load(redis_cli, [port], lambda _key, port=port: port, first, first + args.fleet_keys)
        pin_servers(servers, args.pin)
        runner.servers = [server.pid for server in servers]
        sizes = [dbsize(server) for server in servers]
        print(
            f"started and loaded in {time.perf_counter() - started:.1f} s: {sum(sizes):,} keys;"
            f" servers use {used_memory(servers)}",
            flush=True,
        )
        if sizes != [args.fleet_keys] * args.fleet:
            raise RuntimeError(f"the servers hold {sizes} keys, not {args.fleet_keys:,} each")

        urls = [f"redis://{HOST}:{server.port}" for server in servers]
        common = ["--isolated", *args.scan_args, "--format", "json", "--exit-zero"]
        report = workdir / "fleet.json"
        fleet = runner.rediscipline(["scan", *urls, *common, "--output", str(report)])
        fleet8 = [*fleet, "--concurrency", "8"]
        inline = [*fleet, "--executor", "inline"]
        singles = [runner.rediscipline(["scan", url, *common, "--output", str(workdir / "one.json")]) for url in urls]
        phases = {
            "fleet": lambda: runner.run(fleet),
            "fleet -c 8": lambda: runner.run(fleet8),
            "fleet inline": lambda: runner.run(inline),
            f"{args.fleet} singles (sum)": lambda: Run.total([runner.run(argv) for argv in singles]),
        }
        series = {name: Series(name) for name in phases}
        rounds(args.repeat, phases, series)
        check = check_fleet_report(report, args.fleet, args.fleet_keys)
        print(f"  check fleet: {check}")
        fleet_s, fleet8_s, inline_s, singles_s = series.values()
        out["fleet"] = {
            "servers": args.fleet,
            "keys_per_server": args.fleet_keys,
            "phases": {name: s.summary() for name, s in series.items()},
            "fleet_vs_singles": ratio(fleet_s, singles_s, TARGET_FLEET),
            "fleet_vs_inline": ratio(fleet_s, inline_s, TARGET_FLEET),
            "fleet8_vs_singles": ratio(fleet8_s, singles_s, TARGET_FLEET),
            "fleet8_vs_inline": ratio(fleet8_s, inline_s, TARGET_FLEET),
            "check": check,
            "commands": {
                "fleet": shlex.join(shown(fleet)).replace(" ".join(urls[1:-1]), "..."),
                "single": shlex.join(shown(singles[0])),
            },
        }
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def check_fleet_report(path: Path, targets: int, keys: int) -> str:
    try:
        report = json.loads(path.read_text())
        rows = report["targets"]
        counts = [row["keys"] for row in rows]
        failed = report["summary"]["failed"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"unreadable report ({exc})"
    if len(rows) != targets or failed or counts != [keys] * targets:
        return f"MISMATCH: {len(rows)} targets, {failed} failed, keys {counts}"
    return f"ok ({targets} targets of {keys:,} keys, none failed)"


# ---- report --------------------------------------------------------------------------------------------------


def mark(met: bool | None) -> str:
    return "n/a" if met is None else "ok" if met else "MISSED"


def fmt_ratio(r: dict[str, Any]) -> str:
    if r.get("median") is None:
        return "n/a"
    return f"{r['median']:.2f} ({r['min']:.2f}–{r['max']:.2f})  target <= {r['target']}: {mark(r['met'])}"


def print_phases(phases: dict[str, dict[str, Any]]) -> None:
    """Medians of wall time, CPU seconds and machine use; the largest peaks (MB) of any run."""
    header = (
        f"  {'phase':<20} {'runs':>4} {'wall s':>7} {'min–max s':>12} {'CPU s':>7} {'servers':>7} {'busy':>5}"
        f" {'own MB':>7} {'workers':>7} {'%M MB':>6}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))

    def cell(value: float | None, form: str) -> str:
        return "-" if value is None else format(value, form)

    for name, s in phases.items():
        spread = f"{s['min_s']:.2f}–{s['max_s']:.2f}" if s["min_s"] is not None else "-"
        failed = f"  ({s['failed']} failed)" if s["failed"] else ""
        print(
            f"  {name:<20} {s['runs']:>4} {cell(s['median_s'], '.2f'):>7} {spread:>12}"
            f" {cell(s['client_cpu_s'], '.2f'):>7} {cell(s['server_cpu_s'], '.2f'):>7}"
            f" {cell(s['machine_busy'], '.0%'):>5} {cell(s['own_rss_mb_max'], '.1f'):>7}"
            f" {cell(s['helpers_rss_mb_max'], '.1f'):>7} {cell(s['tree_rss_mb_max'], '.1f'):>6}{failed}"
        )


def print_summary(out: dict[str, Any]) -> None:
    print("\n==== summary (medians; in brackets the range of the per-round ratios) ====")
    if "cluster" in out:
        c = out["cluster"]
        print(f"cluster: {c['masters']} masters, {c['keys']:,} keys")
        print_phases(c["phases"])
        print(f"  cluster / nodes     {fmt_ratio(c['cluster_vs_nodes'])}")
        print(f"  cluster / memkeys   {fmt_ratio(c['cluster_vs_memkeys'])}")
        rss = c["coordinator_rss_mb"]
        met = None if rss is None else rss <= TARGET_RSS_MB
        print(f"  coordinator peak RSS {rss} MB  target <= {TARGET_RSS_MB:.0f} MB: {mark(met)}")
        for name, text in c["checks"].items():
            print(f"  check {name}: {text}")
    if "merge" in out:
        m = out["merge"]
        print(f"merge: {m['parts']} partials of {m['keys_per_part']:,} keys, {m['rules']} rules")
        for name in ("produce_s", "merge_s", "finish_s", "unpickle_s"):
            v = m[name]
            print(f"  {name[:-2]:<10} {v['median']:8.3f} s ({v['min']:.3f}–{v['max']:.3f})")
        share = m["merge_finish_share"]
        print(
            f"  (merge + finish) / produce {share['median']:.2%} ({share['min']:.2%}–{share['max']:.2%})"
            f"  target <= {TARGET_MERGE_SHARE:.0%}: {mark(share['met'])};"
            f" merge alone {m['merge_only_share']['median']:.2%}"
        )
    if "fleet" in out:
        f = out["fleet"]
        print(f"fleet: {f['servers']} servers of {f['keys_per_server']:,} keys")
        print_phases(f["phases"])
        print(f"  fleet / singles      {fmt_ratio(f['fleet_vs_singles'])}")
        print(f"  fleet / inline       {fmt_ratio(f['fleet_vs_inline'])}")
        print(f"  fleet -c 8 / singles {fmt_ratio(f['fleet8_vs_singles'])}")
        print(f"  fleet -c 8 / inline  {fmt_ratio(f['fleet8_vs_inline'])}")
        print(f"  check fleet: {f['check']}")
    print("commands:")
    for part in ("cluster", "fleet"):
        for name, command in out.get(part, {}).get("commands", {}).items():
            print(f"  {part}/{name}: {command}")


# ---- main ----------------------------------------------------------------------------------------------------


def parse_parts(text: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = set(chosen) - set(PARTS_ALL)
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"choose among {', '.join(PARTS_ALL)}")
    return chosen


def pinning(wanted: bool) -> tuple[tuple[str, ...], str]:
    if not wanted:
        return (), "off (--pin: servers on CPU 0, rediscipline and redis-cli on CPU 1)"
    taskset = shutil.which("taskset")
    cpus = os.sched_getaffinity(0)
    if not taskset or not {SERVER_CPU, CLIENT_CPU} <= cpus:
        raise SystemExit(f"--pin needs taskset and CPUs {SERVER_CPU} and {CLIENT_CPU} (CPUs here: {sorted(cpus)})")
    text = f"servers on CPU {SERVER_CPU}, rediscipline and redis-cli on CPU {CLIENT_CPU}"
    return (taskset, "-c", str(CLIENT_CPU)), text


def _terminate(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # unwind through the `finally` blocks that stop the servers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cluster scan, merge overhead and fleet concurrency of rediscipline.")
    parser.add_argument("--keys", type=parse_count, default=DEFAULT_KEYS, help="keys in the cluster (default 1M)")
    parser.add_argument("--repeat", type=parse_count, default=3, help="runs of each phase, alternating (default 3)")
    parser.add_argument("--fleet", type=parse_count, default=FLEET, help=f"servers in the fleet (default {FLEET})")
    parser.add_argument("--fleet-keys", type=parse_count, default=FLEET_KEYS, help="keys per fleet server")
    parser.add_argument("--parts", type=parse_count, default=PARTS, help=f"partials merged (default {PARTS})")
    parser.add_argument("--part-keys", type=parse_count, default=PART_KEYS, help="keys per partial")
    parser.add_argument("--only", type=parse_parts, default=PARTS_ALL, help="cluster,merge,fleet (default: all)")
    parser.add_argument("--scan-args", type=str.split, default=[], help="extra options for every rediscipline scan")
    parser.add_argument("--pin", action="store_true", help="taskset: servers on CPU 0, the clients on CPU 1")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    if args.repeat < 3:
        print(f"note: --repeat {args.repeat}: a median of fewer than 3 runs says little", file=sys.stderr)

    redis_cli = shutil.which("redis-cli") or "/usr/bin/redis-cli"
    if binary_path(KIND) is None or not os.path.exists(redis_cli):
        print("needs Debian's redis-server and redis-cli: apt-get install redis-server", file=sys.stderr)
        return 2
    client_pin, pin_text = pinning(args.pin)
    timer = gnu_time()
    runner = Runner(timer, client_pin)
    machine = {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "loadavg_start": [round(x, 2) for x in os.getloadavg()],
        "pinning": pin_text,
        "tree_rss": f"{timer} -f %M" if timer else None,
    }
    print(f"python {machine['python']} at {sys.executable}; {machine['cpus']} CPUs; load {machine['loadavg_start']}")
    print(f"pinning: {pin_text}")
    print(f"peak RSS: own = getrusage(RUSAGE_SELF) of the rediscipline process at exit; tree = {timer or 'n/a'} -f %M")

    signal.signal(signal.SIGTERM, _terminate)
    out: dict[str, Any] = {"machine": machine}
    try:
        if "cluster" in args.only:
            cluster_part(args, runner, redis_cli, out)
        if "merge" in args.only:
            merge_part(args, out)
        if "fleet" in args.only:
            fleet_part(args, runner, redis_cli, out)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    machine["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print_summary(out)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
        print(f"figures written to {args.json}")
    failed = any(
        phase["failed"] for part in ("cluster", "fleet") for phase in out.get(part, {}).get("phases", {}).values()
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
