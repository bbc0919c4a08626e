"""Speed, server impact and memory of `rediscipline scan` against `redis-cli --memkeys`, on a live server.

One run starts a throwaway Debian `redis-server` (/usr/bin/redis-server) on a free 127.0.0.1 port with
persistence off, loads N keys of mixed types through pipelines, then measures side by side:

  memkeys        `redis-cli -p PORT --memkeys`, stdout to /dev/null: the reference walker (SCAN + MEMORY USAGE)
  scan           `rediscipline scan redis://127.0.0.1:PORT --isolated --format json --output F --exit-zero`
                 (every rule of the default preset; --isolated so no convention file of the checkout counts)

each `--repeat` times, alternating, so a slow phase of the machine hits both. While the idle server (5 s) and
each run are measured, a separate process (multiprocessing, so the scanner's CPU use does not slow the probe
itself) sends one GET per millisecond on its own connection and times each with perf_counter: p50/p99/max show
what an application would feel during the audit. Peak RSS comes from GNU `/usr/bin/time -f %M`, else from
psutil polling. `--rss-curve` then grows the keyspace (1M, then 5M keys by default) and scans once per size to
show that the scanner's memory stays flat.

The key mix: ~70% strings of 20-500 B, then hashes (3-20 fields), sets, sorted sets and small lists, named
after the conventions (`biz:type:id_name:id`); ~20% carry a TTL of 1 h, 1 d or 7 d plus up to 10% jitter, so
nothing expires during the run. Everything is deterministic for a given key count.

Targets (reported, not asserted): scan/memkeys wall time <= 0.6 (best and median), the scanner's CPU <= 5 us
per key (user + system of the scan process, median), GET p99 during scan <= 1 ms, scan peak RSS <= 150 MB and
flat from 1M to 5M keys. `--pure-too` also runs the scan on the pure-Python core (REDISCIPLINE_PURE=1). The
server is stopped by its PID at the end, also on errors and Ctrl-C.

    .venv/bin/python benchmarks/scan_throughput.py [--keys 1000000] [--repeat N] [--pin] [--pure-too]
        [--scan-args '--select ALL'] [--rss-curve [SIZES]]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import random
import resource
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType
from typing import Any

import redis
from timing import gnu_time

REDIS_SERVER = Path("/usr/bin/redis-server")
HOST = "127.0.0.1"
DEFAULT_KEYS = 1_000_000
RSS_CURVE = "1000000,5000000"
BATCH = 10_000
IDLE_SECONDS = 5.0
GET_INTERVAL = 0.001  # one GET per millisecond
PROBE_KEY = b"bench:probe:string:id:0"
SERVER_CPU, CLIENT_CPU = 0, 1  # --pin

TARGET_RATIO = 0.6
TARGET_CPU_US = 5.0  # scanner CPU per key
TARGET_P99_MS = 1.0
TARGET_RSS_MB = 150.0

# (share, key template, type): the share of strings is ~70%; ids are the serial number of the key.
MIX: list[tuple[float, str, str]] = [
    (30, "user:profile:uid:{}", "string"),
    (20, "cache:product:sku:{}", "string"),
    (20, "session:token:sid:{}", "string"),
    (12, "order:items:order_id:{}", "hash"),
    (7, "user:followers:uid:{}", "set"),
    (6, "leaderboard:score:game_id:{}", "zset"),
    (5, "chat:messages:room_id:{}", "list"),
]
TTL_SHARE = 0.20
TTL_BASES = (3600, 86_400, 604_800)
BLOB = random.Random(0).randbytes(1 << 16).hex().encode()  # values are slices of this, cheap to make


# ---- the server ----------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A private redis-server; `stop()` ends it by its PID and removes its directory."""

    argv: list[str]
    port: int
    workdir: Path
    proc: subprocess.Popen[bytes]

    @classmethod
    def start(cls, pin: Sequence[str]) -> Server:
        workdir = Path(tempfile.mkdtemp(prefix="rediscipline-bench-scan-"))
        port = free_port()
        argv = [*pin, str(REDIS_SERVER), "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
        argv += ["--dir", str(workdir), "--logfile", str(workdir / "redis.log"), "--daemonize", "no"]
        # Own session: Ctrl-C does not reach it, `stop()` ends it once measuring has stopped.
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        server = cls(argv, port, workdir, proc)
        deadline = time.monotonic() + 10
        while True:
            try:
                with server.client() as client:
                    client.ping()
                return server
            except redis.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log = server.log_tail()
                    server.stop()
                    raise RuntimeError(f"redis-server did not start on port {port}:\n{log}") from None
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}"

    def client(self) -> redis.Redis:
        return redis.Redis(host=HOST, port=self.port, socket_timeout=30)

    def log_tail(self) -> str:
        log = self.workdir / "redis.log"
        return "\n".join(log.read_text(errors="replace").splitlines()[-20:]) if log.exists() else ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


# ---- loading -------------------------------------------------------------------------------------------------


def add_key(pipe: Any, rng: random.Random, serial: int, template: str, kind: str) -> None:
    """Queue one key with its value (and maybe a TTL) on the pipeline."""
    key = template.format(serial)
    ttl = None
    if rng.random() < TTL_SHARE:
        base = rng.choice(TTL_BASES)
        ttl = base + rng.randrange(base // 10 + 1)
    if kind == "string":
        size = rng.randint(20, 500)
        start = rng.randrange(len(BLOB) - size)
        pipe.execute_command("SET", key, BLOB[start : start + size], *(("EX", ttl) if ttl else ()))
        return
    if kind == "hash":
        values = [BLOB[i * 13 : i * 13 + rng.randint(4, 40)] for i in range(rng.randint(3, 20))]
        pipe.execute_command("HSET", key, *[x for i, value in enumerate(values) for x in (f"f{i}", value)])
    elif kind == "set":
        pipe.execute_command("SADD", key, *[rng.randrange(10_000_000) for _ in range(rng.randint(3, 30))])
    elif kind == "zset":
        members = {f"m{rng.randrange(1_000_000)}": rng.random() * 1000 for _ in range(rng.randint(3, 30))}
        pipe.execute_command("ZADD", key, *[x for m, s in members.items() for x in (s, m)])
    else:
        pipe.execute_command("RPUSH", key, *[BLOB[i * 7 : i * 7 + 24] for i in range(rng.randint(2, 20))])
    if ttl:
        pipe.execute_command("EXPIRE", key, ttl)


def load(server: Server, start: int, stop: int) -> float:
    """Write keys with serial numbers [start, stop) in pipelines of BATCH keys; returns the seconds taken."""
    weights = [w for w, _, _ in MIX]
    started = time.perf_counter()
    with server.client() as client:
        if start == 0:
            client.set(PROBE_KEY, b"x" * 64)
        for batch in range(start, stop, BATCH):
            rng = random.Random(batch)  # seeded by the batch's first serial: the same loads give the same keys
            pipe = client.pipeline(transaction=False)
            end = min(batch + BATCH, stop)
            kinds = rng.choices(MIX, weights=weights, k=end - batch)
            for serial, (_, template, kind) in zip(range(batch, end), kinds, strict=True):
                add_key(pipe, rng, serial, template, kind)
            pipe.execute()
    return time.perf_counter() - started


# ---- the latency probe ---------------------------------------------------------------------------------------


def probe_main(port: int, cpu: int | None, ready: Any, stop: Any, out: Connection) -> None:
    """Child process: GET PROBE_KEY once per GET_INTERVAL until `stop`, then send the latencies (s) and errors.

    A GET that overruns its slot is not followed by a burst: the next one waits for the next free slot.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent stops us
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    client = redis.Redis(host=HOST, port=port, socket_timeout=5)
    for _ in range(50):
        client.get(PROBE_KEY)  # connect and warm up outside the measurement
    ready.set()
    samples: list[float] = []
    errors = 0
    clock = time.perf_counter
    next_at = clock()
    while not stop.is_set():
        t0 = clock()
        try:
            client.get(PROBE_KEY)
            samples.append(clock() - t0)
        except redis.RedisError:
            errors += 1
        next_at += GET_INTERVAL
        now = clock()
        if next_at < now:
            next_at = now + GET_INTERVAL - (now - next_at) % GET_INTERVAL
        time.sleep(next_at - now)
    client.close()
    out.send((samples, errors))
    out.close()


class Probe:
    """Runs probe_main in a spawned process for the duration of a `with` block."""

    def __init__(self, port: int, cpu: int | None) -> None:
        ctx = mp.get_context("spawn")
        self.ready = ctx.Event()
        self.stop = ctx.Event()
        self.receiver, sender = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=probe_main, args=(port, cpu, self.ready, self.stop, sender), daemon=True)
        self.samples: list[float] = []
        self.errors = 0

    def __enter__(self) -> Probe:
        self.proc.start()
        if not self.ready.wait(timeout=30):
            self.kill()
            raise RuntimeError("the latency probe did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if exc[0] is None and self.receiver.poll(timeout=30):
            self.samples, self.errors = self.receiver.recv()
        self.kill()

    def kill(self) -> None:
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()


@dataclass
class Latency:
    samples: list[float] = field(default_factory=list)
    errors: int = 0

    def add(self, probe: Probe) -> None:
        self.samples += probe.samples
        self.errors += probe.errors

    def quantile_ms(self, q: float) -> float:
        if not self.samples:
            return math.nan
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] * 1000


# ---- measured commands ---------------------------------------------------------------------------------------


def poll_rss(pid: int, done: threading.Event, peak: list[int]) -> None:
    """Fallback without GNU time: the highest RSS (bytes) psutil sees every 20 ms."""
    try:
        import psutil  # type: ignore[import-untyped]
    except ImportError:
        return
    try:
        proc = psutil.Process(pid)
        while not done.is_set():
            peak[0] = max(peak[0], proc.memory_info().rss)
            done.wait(0.02)
    except psutil.Error:
        pass


@dataclass
class Run:
    label: str
    wall: float
    rss_mb: float
    returncode: int
    stderr: str
    cpu: float = math.nan  # user + system seconds of the process and its children


def installed_env() -> dict[str, str]:
    """This process's environment without PYTHONDONTWRITEBYTECODE (see run_measured)."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run_measured(
    label: str, argv: Sequence[str], timer: str | None, *, stdout: Path | None = None, cwd: Path | None = None
) -> Run:
    """Run argv in its own process group, so an interrupt can end all of it by its id.

    Its standard output is discarded, or written to `stdout` when the caller reads the report; `cwd` is
    the folder it runs in. It runs without PYTHONDONTWRITEBYTECODE, as an installed tool does: `pip install`
    compiles the .pyc files, while a shell that sets the variable would make every measured run of a checkout
    recompile all its sources (~0.1 s); the first run writes them.
    """
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        report = Path(tmp) / "rss"
        wrapped = [timer, "-f", "%M", "-o", str(report), *argv] if timer else list(argv)
        sink = stack.enter_context(stdout.open("wb")) if stdout is not None else subprocess.DEVNULL
        peak = [0]
        done = threading.Event()
        started = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.Popen(
            wrapped,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=installed_env(),
            start_new_session=True,
        )
        poller = None
        if not timer:
            poller = threading.Thread(target=poll_rss, args=(proc.pid, done, peak), daemon=True)
            poller.start()
        try:
            _, err = proc.communicate()
        except BaseException:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            raise
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        done.set()
        if poller:
            poller.join()
        if timer:
            lines = report.read_text().split() if report.exists() else []
            rss_mb = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else math.nan
        else:
            rss_mb = peak[0] / 2**20 if peak[0] else math.nan
    return Run(label, wall, rss_mb, proc.returncode, err.decode("utf-8", "replace"), cpu)


@dataclass(frozen=True)
class Setup:
    timer: str | None  # GNU time, or None for psutil polling
    port: int
    probe_cpu: int | None  # --pin


def measure(label: str, argv: Sequence[str], setup: Setup, lat: Latency) -> Run:
    """One run of argv with the GET probe running alongside; its latencies go to `lat`."""
    with Probe(setup.port, setup.probe_cpu) as probe:
        run = run_measured(label, argv, setup.timer)
    lat.add(probe)
    status = "" if run.returncode == 0 else f"  FAILED (exit {run.returncode}):\n{run.stderr[-2000:]}"
    print(f"  {label:<8} {run.wall:8.2f} s  {run.rss_mb:7.1f} MB  {len(probe.samples):>7,} GETs{status}", flush=True)
    return run


def scan_summary(path: Path) -> str:
    try:
        report = json.loads(path.read_text())
        summary = report["summary"]
        return (
            f"{summary['keys']:,} keys scanned, {report['run']['rules_enabled']} rules, {summary['findings']} findings"
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"unreadable report ({exc})"


# ---- report --------------------------------------------------------------------------------------------------


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def fmt_ms(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def best(runs: list[Run], label: str) -> Run | None:
    ok = [r for r in runs if r.label == label and r.returncode == 0]
    if not ok:
        return None
    fastest = min(ok, key=lambda r: r.wall)
    return Run(label, fastest.wall, max(r.rss_mb for r in ok), 0, "")


def print_table(keys: int, runs: list[Run], latency: dict[str, Latency]) -> None:
    header = (
        f"{'phase':<8} {'runs':>4} {'best wall s':>11} {'keys/s':>10} {'peak RSS MB':>11}"
        f" {'GET p50 ms':>10} {'p99 ms':>8} {'max ms':>8} {'GETs':>8} {'errors':>6}"
    )
    print()
    print(header)
    print("-" * len(header))
    for label, lat in latency.items():
        b = best(runs, label)
        n = str(sum(1 for r in runs if r.label == label)) if label != "idle" else "-"
        wall = f"{b.wall:>11.2f} {keys / b.wall:>10,.0f} {b.rss_mb:>11.1f}" if b else f"{'-':>11} {'-':>10} {'-':>11}"
        print(
            f"{label:<8} {n:>4} {wall} {fmt_ms(lat.quantile_ms(0.5)):>10} {fmt_ms(lat.quantile_ms(0.99)):>8}"
            f" {fmt_ms(lat.quantile_ms(1.0)):>8} {len(lat.samples):>8,} {lat.errors:>6}"
        )


# ---- main ----------------------------------------------------------------------------------------------------


def parse_count(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from exc
    if value <= 0:
        raise argparse.ArgumentTypeError("wants a positive integer")
    return value


def parse_sizes(text: str) -> list[int]:
    return sorted({parse_count(part) for part in text.split(",") if part.strip()})


def pinning(wanted: bool) -> tuple[list[str], list[str], int | None, str]:
    """(server prefix, client prefix, probe CPU, description) for --pin; unpinned when taskset or CPU 1 is missing."""
    if not wanted:
        return [], [], None, "off (--pin to put the server on CPU 0, the clients on CPU 1)"
    taskset = shutil.which("taskset")
    cpus = os.sched_getaffinity(0)
    if not taskset or not {SERVER_CPU, CLIENT_CPU} <= cpus:
        return [], [], None, f"unavailable (taskset: {taskset or 'missing'}, CPUs {sorted(cpus)}), unpinned"
    server, client = [taskset, "-c", str(SERVER_CPU)], [taskset, "-c", str(CLIENT_CPU)]
    # The GET probe shares the server's CPU, not the tool's: it measures how long the *server* makes other
    # clients wait. Sharing the CPU of a busy tool would measure the probe's own scheduling delay instead.
    return server, client, SERVER_CPU, f"server and GET probe on CPU {SERVER_CPU}, memkeys/scan on CPU {CLIENT_CPU}"


def rediscipline_argv() -> list[str]:
    script = Path(sys.executable).parent / "rediscipline"
    return [str(script)] if script.exists() else [sys.executable, "-m", "rediscipline"]


def _terminate(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # unwind through the `finally` that stops the server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Wall time, GET latency and RSS of `rediscipline scan` vs memkeys.")
    parser.add_argument("--keys", type=parse_count, default=DEFAULT_KEYS, help="keys to load (default 1,000,000)")
    parser.add_argument("--repeat", type=parse_count, default=1, help="runs of each command, alternating")
    parser.add_argument(
        "--scan-args", type=str.split, default=[], help="extra options for rediscipline scan, e.g. '--batch 50'"
    )
    parser.add_argument(
        "--pure-too", action="store_true", help="also run the scan on the pure-Python core (REDISCIPLINE_PURE=1)"
    )
    parser.add_argument(
        "--pin", action="store_true", help="taskset: server and GET probe on CPU 0, memkeys/scan on CPU 1"
    )
    parser.add_argument(
        "--rss-curve",
        nargs="?",
        const=RSS_CURVE,
        type=parse_sizes,
        metavar="SIZES",
        help=f"then grow the keyspace to each size and record the scan's peak RSS (default {RSS_CURVE})",
    )
    args = parser.parse_args(argv)

    redis_cli = shutil.which("redis-cli") or "/usr/bin/redis-cli"
    if not REDIS_SERVER.exists() or not os.path.exists(redis_cli):
        print("needs Debian's redis-server and redis-cli: apt-get install redis-server", file=sys.stderr)
        return 2
    server_pin, client_pin, probe_cpu, pin_text = pinning(args.pin)
    timer = gnu_time()
    print(f"python {sys.version.split()[0]} at {sys.executable}; {os.cpu_count()} CPUs; load {os.getloadavg()}")
    print(f"pinning: {pin_text}")
    print(f"peak RSS via: {timer + ' -f %M' if timer else 'psutil polling every 20 ms (GNU time missing)'}")

    signal.signal(signal.SIGTERM, _terminate)
    server: Server | None = None
    runs: list[Run] = []
    latency = {"idle": Latency(), "memkeys": Latency(), "scan": Latency()}
    if args.pure_too:
        latency["pure"] = Latency()
    curve: list[tuple[int, Run]] = []
    commands: list[list[str]] = []
    try:
        server = Server.start(server_pin)
        with server.client() as client:
            version = client.info("server")["redis_version"]
        print(f"server: redis {version} pid {server.proc.pid} at {server.url}")
        seconds = load(server, 0, args.keys)
        with server.client() as client:
            dbsize, used = client.dbsize(), client.info("memory")["used_memory_human"]
        print(f"loaded {dbsize:,} keys in {seconds:.1f} s ({args.keys / seconds:,.0f} keys/s), server uses {used}")

        output = server.workdir / "scan.json"
        memkeys = [*client_pin, redis_cli, "-h", HOST, "-p", str(server.port), "--memkeys"]
        scan = [
            *client_pin,
            *rediscipline_argv(),
            "scan",
            server.url,
            "--isolated",
            *args.scan_args,
            "--format",
            "json",
        ]
        scan += ["--output", str(output), "--exit-zero"]
        pure = ["env", "REDISCIPLINE_PURE=1", *scan] if args.pure_too else []
        commands = [server.argv, memkeys, scan, *([pure] if pure else [])]
        setup = Setup(timer, server.port, probe_cpu)

        print(f"\nidle: {IDLE_SECONDS:.0f} s of GETs", flush=True)
        with Probe(server.port, probe_cpu) as probe:
            time.sleep(IDLE_SECONDS)
        latency["idle"].add(probe)
        for i in range(args.repeat):
            print(f"round {i + 1}/{args.repeat}")
            runs.append(measure("memkeys", memkeys, setup, latency["memkeys"]))
            runs.append(measure("scan", scan, setup, latency["scan"]))
            if pure:
                runs.append(measure("pure", pure, setup, latency["pure"]))
        print(f"  scan report: {scan_summary(output)}")

        if args.rss_curve:
            curve.append((dbsize, best(runs, "scan") or runs[-1]))
            loaded = args.keys
            for size in (n for n in args.rss_curve if n > loaded):
                seconds, loaded = load(server, loaded, size), size
                with server.client() as client:
                    dbsize, used = client.dbsize(), client.info("memory")["used_memory_human"]
                print(f"\ngrew to {dbsize:,} keys in {seconds:.1f} s, server uses {used}")
                curve.append((dbsize, run_measured("scan", scan, timer)))
                print(f"  scan {curve[-1][1].wall:8.2f} s  {curve[-1][1].rss_mb:7.1f} MB; {scan_summary(output)}")
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        if server is not None:
            server.stop()

    print_table(args.keys, runs, latency)
    print_summary(args.keys, runs, latency, curve, commands, probe_cpu=probe_cpu)
    return 1 if any(r.returncode for r in runs) or any(r.returncode for _, r in curve) else 0


def print_summary(
    keys: int,
    runs: list[Run],
    latency: dict[str, Latency],
    curve: list[tuple[int, Run]],
    commands: list[list[str]],
    *,
    probe_cpu: int | None,
) -> None:
    memkeys, scan = best(runs, "memkeys"), best(runs, "scan")
    print(f"\n==== summary: {keys:,} keys ====")
    for label in ("memkeys", "scan", "pure"):
        walls = sorted(r.wall for r in runs if r.label == label and r.returncode == 0)
        cpus = sorted(r.cpu for r in runs if r.label == label and r.returncode == 0)
        if walls:
            per_key = [cpu / keys * 1e6 for cpu in cpus]
            print(
                f"{label:<11} wall median {statistics.median(walls):.2f} s ({walls[0]:.2f}-{walls[-1]:.2f}),"
                f" CPU median {statistics.median(cpus):.2f} s = {statistics.median(per_key):.2f} us/key"
                f" ({per_key[0]:.2f}-{per_key[-1]:.2f})"
            )
    if memkeys and scan:
        ratio = scan.wall / memkeys.wall
        medians = [
            statistics.median(r.wall for r in runs if r.label == label and r.returncode == 0)
            for label in ("scan", "memkeys")
        ]
        print(
            f"wall time   scan {scan.wall:.2f} s / memkeys {memkeys.wall:.2f} s = {ratio:.2f} best,"
            f" {medians[0] / medians[1]:.2f} median  (target <= {TARGET_RATIO}): {mark(ratio <= TARGET_RATIO)}"
        )
        cpu_us = statistics.median(r.cpu for r in runs if r.label == "scan" and r.returncode == 0) / keys * 1e6
        print(f"scan CPU    {cpu_us:.2f} us/key  (target <= {TARGET_CPU_US}): {mark(cpu_us <= TARGET_CPU_US)}")
    p99 = {label: lat.quantile_ms(0.99) for label, lat in latency.items()}
    print(
        f"GET p99     during scan {fmt_ms(p99['scan'])} ms  (target <= {TARGET_P99_MS} ms):"
        f" {mark(p99['scan'] <= TARGET_P99_MS)}; idle {fmt_ms(p99['idle'])} ms, during memkeys"
        f" {fmt_ms(p99['memkeys'])} ms"
    )
    if scan:
        ok = mark(scan.rss_mb <= TARGET_RSS_MB)
        print(f"peak RSS    scan {scan.rss_mb:.1f} MB  (target <= {TARGET_RSS_MB:.0f} MB): {ok}")
    if len(curve) > 1:
        points = ", ".join(f"{n:,} keys {r.rss_mb:.1f} MB" for n, r in curve)
        top = max(r.rss_mb for _, r in curve)
        growth = curve[-1][1].rss_mb / curve[0][1].rss_mb
        print(
            f"RSS curve   {points} (x{growth:.2f}; target flat and <= {TARGET_RSS_MB:.0f} MB):"
            f" {mark(top <= TARGET_RSS_MB and growth <= 1.25)}"
        )
    print("commands:")
    for name, argv in zip(("server", "memkeys", "scan", "pure"), commands, strict=False):
        print(f"  {name:<8} {shlex.join(argv)}{'  > /dev/null' if name != 'server' else ''}")
    where = f"pinned to CPU {probe_cpu}" if probe_cpu is not None else "unpinned"
    print(f"  {'probe':<8} GET {PROBE_KEY.decode()} every {GET_INTERVAL * 1000:g} ms, own connection, process {where}")


if __name__ == "__main__":
    sys.exit(main())
