"""Throughput and memory of `rediscipline keys` against the floors of the machine and of Python.

For each size it generates (deterministically) a key file with a realistic mix (~50 key patterns with
numeric, uuid, hex and date ids, ~5% violating keys of various kinds, a few long keys), then measures in
the same run, side by side:

  wc -l          the I/O floor of the machine
  python-iter    `python -c` iterating the file's lines in binary: the I/O floor of Python
  rediscipline   `python -m rediscipline keys FILE --format json --output /dev/null --exit-zero`

Every command runs pinned to one core (`taskset -c 0`, when available) as a fresh child of a tiny wrapper,
GNU `/usr/bin/time -f %M` (Debian package `time`) or else a python fork/`os.wait4` wrapper, so that its peak
RSS is that child's alone: ru_maxrss is a high-water mark, so deltas of RUSAGE_CHILDREN would not do, and a
child spawned straight from this (bigger) process would inherit its high-water mark across exec. Wall time
includes interpreter start-up; keys/s is lines ÷ wall seconds.

Targets (reported, not asserted): >= 300,000 keys/s on one core, peak RSS <= 150 MB and flat from 1M to 5M.

    .venv/bin/python benchmarks/keys_throughput.py [--sizes 1000000,5000000] [--keep DIR] [--repeat N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from timing import gnu_time

GENERATOR_VERSION = 1  # bump when the mix changes, so that --keep does not reuse stale files
CHUNK = 100_000
TARGET_KEYS_PER_S = 300_000
TARGET_RSS_MB = 150.0

PY_ITERATE = "import sys\nn = 0\nwith open(sys.argv[1], 'rb') as f:\n    for _ in f:\n        n += 1\nprint(n)\n"

# (weight in % of the file, template, id kinds): `{}` in the template takes one generated id per kind.
# Templates are text; lone surrogates (\udcXX) become raw, invalid UTF-8 bytes through `surrogateescape`.
CLEAN: list[tuple[float, str, tuple[str, ...]]] = [
    (9, "user:profile:id:{}", ("uid",)),
    (4, "user:settings:id:{}", ("uid",)),
    (3, "user:followers:set:uid:{}", ("uid",)),
    (3, "user:feed:list:uid:{}", ("uid",)),
    (7, "order:status:order_id:{}", ("order",)),
    (4, "order:items:hash:order_id:{}", ("order",)),
    (1, "order:summary:date:{}", ("date",)),
    (4, "chat:messages:list:room_id:{}", ("room",)),
    (2, "chat:members:set:room_id:{}", ("room",)),
    (1, "leaderboard:score:zset:game_id:{}", ("small",)),
    (6, "session:token:uid:{}:ts:{}", ("hex48", "epoch")),
    (5, "cache:product:detail:sku:{}", ("sku",)),
    (4, "cache:page:render:hash:{}", ("hex128",)),
    (3, "cart:items:hash:uid:{}", ("uid",)),
    (3, "inventory:stock:sku:{}", ("sku",)),
    (3, "payment:txn:uuid:{}", ("uuid",)),
    (2, "device:push_token:device_id:{}", ("uuid",)),
    (3, "rate_limit:api:uid:{}:minute:{}", ("uid", "minute")),
    (0.2, "lock:job:name:{}:{}", ("word", "small")),
    (0.01, "queue:email:pending", ()),
    (0.2, "stream:events:shard:{}", ("shard",)),
    (0.05, "geo:stores:city:{}", ("city",)),
    (0.01, "feature:flags:env:{}", ("env",)),
    (3, "notification:unread:count:uid:{}", ("uid",)),
    (2, "video_info#olympic#{}#{}", ("dashed", "small")),
    (2, "uid#{}#{}", ("uid", "small")),
    (2, "search:history:list:uid:{}", ("uid",)),
    (1.5, "coupon:claimed:set:coupon_id:{}", ("small",)),
    (2, "object:meta:oid:{}", ("hex96",)),
    (2, "analytics:pv:date:{}:page_id:{}", ("date", "small")),
    (2, "auth:refresh_token:jti:{}", ("uuid",)),
    (2, "article:likes:count:article_id:{}", ("article",)),
    (2, "comment:thread:list:article_id:{}", ("article",)),
    (2, "recommend:items:zset:uid:{}", ("uid",)),
    (1, "captcha:code:phone_hash:{}", ("hex64",)),
]
VIOLATING: list[tuple[float, str, tuple[str, ...]]] = [
    (0.6, "User:Profile:Id:{}", ("uid",)),
    (0.5, "orderStatusOrderId{}", ("small",)),
    (0.5, "user-profile:{}", ("uid",)),
    (0.4, "user profile:{}", ("uid",)),
    (0.3, "用户:资料:id:{}", ("uid",)),
    (0.2, "cache:page:*:{}", ("small",)),
    (0.3, "user::profile:{}", ("uid",)),
    (0.3, "order:status:{}:", ("order",)),
    (0.5, "usr:prf:id:{}", ("uid",)),
    (0.3, "reply.to:{}", ("article",)),
    (0.2, "img:thumb:\udcff\udcfe{}", ("small",)),
    (0.3, "order:summary:date:{}", ("dashed",)),
    (0.3, "rank:{{global}}:user:{}", ("uid",)),
    (0.05, "user:profile\t:id:{}", ("uid",)),
    (0.02, "\x1b[31malert\x1b[0m:user:{}", ("uid",)),
    (
        0.01,
        "cache:query:" + "select_id_name_email_from_users_where_status_active_and_created_after_" * 3 + "{}",
        ("small",),
    ),
]


def id_makers(rng: random.Random) -> dict[str, Callable[[], object]]:
    r = rng.randrange
    bits = rng.getrandbits
    day0 = dt.date(2023, 1, 1)
    dates = [day0 + dt.timedelta(days=d) for d in range(730)]
    compact = [d.strftime("%Y%m%d") for d in dates]
    dashed = [d.strftime("%Y-%m-%d") for d in dates]
    words = ["alpha", "billing", "checkout", "digest", "export", "feed", "geo", "import", "mailer", "reindex"]
    cities = ["beijing", "berlin", "lagos", "lima", "mumbai", "osaka", "paris", "sydney", "toronto"]

    def uuid() -> str:
        h = f"{bits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    return {
        "uid": lambda: r(1, 20_000_000),
        "order": lambda: r(10_000_000, 99_999_999),
        "room": lambda: r(1, 500_000),
        "sku": lambda: r(100_000, 9_999_999),
        "article": lambda: r(1, 3_000_000),
        "small": lambda: r(1, 100_000),
        "shard": lambda: r(64),
        "epoch": lambda: r(1_690_000_000, 1_735_000_000),
        "minute": lambda: r(28_166_666, 28_916_666),
        "date": lambda: compact[r(len(compact))],
        "dashed": lambda: dashed[r(len(dashed))],
        "hex48": lambda: f"{bits(48):012x}",
        "hex64": lambda: f"{bits(64):016x}",
        "hex96": lambda: f"{bits(96):024x}",
        "hex128": lambda: f"{bits(128):032x}",
        "uuid": uuid,
        "word": lambda: words[r(len(words))],
        "city": lambda: cities[r(len(cities))],
        "env": lambda: ("prod", "staging", "dev")[r(3)],
    }


def generate(path: Path, lines: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = id_makers(rng)
    table = CLEAN + VIOLATING
    weights = [w for w, _, _ in table]
    patterns = [(template, [ids[kind] for kind in kinds]) for _, template, kinds in table]
    indices = range(len(patterns))
    tmp = path.with_suffix(".partial")
    with open(tmp, "wb") as fh:
        left = lines
        while left:
            n = min(CHUNK, left)
            chunk = []
            for i in rng.choices(indices, weights=weights, k=n):
                template, makers = patterns[i]
                chunk.append(template.format(*[make() for make in makers]))
            fh.write("\n".join(chunk).encode("utf-8", "surrogateescape"))
            fh.write(b"\n")
            left -= n
    tmp.replace(path)


def key_file(directory: Path, lines: int) -> Path:
    path = directory / f"keys-{lines}-v{GENERATOR_VERSION}.txt"
    if path.exists():
        print(f"  reusing {path}")
        return path
    started = time.perf_counter()
    generate(path, lines, seed=lines)
    size_mb = path.stat().st_size / 1e6
    print(f"  generated {path} ({size_mb:.0f} MB) in {time.perf_counter() - started:.1f}s")
    return path


# ---- measuring -----------------------------------------------------------------------------------------------


@dataclass
class Run:
    label: str
    lines: int
    wall: float
    cpu: float
    rss_mb: float
    returncode: int
    stderr: str

    @property
    def keys_per_s(self) -> float:
        return self.lines / self.wall if self.wall else 0.0

    @property
    def keys_per_cpu_s(self) -> float:
        """Less noisy than keys/s on a busy machine: wall > cpu means the pinned core was shared."""
        return self.lines / self.cpu if self.cpu else 0.0


# Fallback when GNU time is missing: fork, exec, and report the child's own rusage and wall time.
RUSAGE_WRAPPER = """\
import os, sys, time
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - started
kb = ru.ru_maxrss // 1024 if sys.platform == "darwin" else ru.ru_maxrss
with open(sys.argv[1], "w") as out:
    out.write(f"{kb} {ru.ru_utime} {ru.ru_stime} {wall}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def measure(label: str, argv: Sequence[str], lines: int, repeat: int, timer: str | None) -> Run:
    """Run argv `repeat` times, each as a fresh child of a small wrapper that reports that child's rusage.

    The wrapper matters: Linux counts the RSS a child had before exec (subprocess's vfork shares this big
    process's memory) into its ru_maxrss. Keeps the fastest wall time and the highest RSS.
    """
    best: Run | None = None
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "rusage"
            if timer:
                wrapped = [timer, "-f", "%M %U %S", "-o", str(report), *argv]
            else:
                wrapped = [sys.executable, "-c", RUSAGE_WRAPPER, str(report), *argv]
            started = time.perf_counter()
            proc = subprocess.run(
                wrapped, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
            )
            wall = time.perf_counter() - started
            lines_out = report.read_text().splitlines() if report.exists() else []
            fields = lines_out[-1].split() if lines_out else []  # GNU time may prefix "Command exited..."
        if len(fields) < 3:
            fields = ["0", "0", "0"]
        if len(fields) > 3:
            wall = float(fields[3])  # the python wrapper's own timing excludes its start-up
        stderr = proc.stderr.decode("utf-8", "replace")
        run = Run(
            label, lines, wall, float(fields[1]) + float(fields[2]), int(fields[0]) / 1024, proc.returncode, stderr
        )
        if run.returncode:
            return run
        if best is None or run.wall < best.wall:
            run.rss_mb = max(run.rss_mb, best.rss_mb if best else 0.0)
            best = run
        else:
            best.rss_mb = max(best.rss_mb, run.rss_mb)
    assert best is not None
    return best


def pin_prefix() -> list[str]:
    taskset = shutil.which("taskset")
    if taskset and subprocess.run([taskset, "-c", "0", "true"], capture_output=True, check=False).returncode == 0:
        return [taskset, "-c", "0"]
    return []


def rediscipline_available() -> bool:
    probe = subprocess.run([sys.executable, "-m", "rediscipline", "--help"], capture_output=True, check=False)
    return probe.returncode == 0


# ---- report --------------------------------------------------------------------------------------------------


def print_table(runs: list[Run]) -> None:
    header = (
        f"{'lines':>10}  {'command':<13} {'wall s':>8} {'keys/s':>12} {'cpu s':>8} {'keys/cpu-s':>12}"
        f" {'peak RSS MB':>12}"
    )
    print()
    print(header)
    print("-" * len(header))
    for run in runs:
        status = "" if run.returncode == 0 else f"  FAILED (exit {run.returncode})"
        print(
            f"{run.lines:>10,}  {run.label:<13} {run.wall:>8.2f} {run.keys_per_s:>12,.0f} {run.cpu:>8.2f}"
            f" {run.keys_per_cpu_s:>12,.0f}"
            f" {run.rss_mb:>12.1f}{status}"
        )


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def print_summary(runs: list[Run], sizes: list[int]) -> None:
    by = {(r.label, r.lines): r for r in runs}
    tool = [by[("rediscipline", n)] for n in sizes if ("rediscipline", n) in by]
    if not tool:
        return
    print()
    for run in tool:
        floor = by[("python-iter", run.lines)]
        ratio = run.keys_per_s / floor.keys_per_s if floor.keys_per_s else 0.0
        print(
            f"{run.lines:>10,} keys: rediscipline {run.keys_per_s:,.0f} keys/s = {ratio:.1%} of python-iter;"
            f" target >= {TARGET_KEYS_PER_S:,} keys/s: {mark(run.keys_per_s >= TARGET_KEYS_PER_S)};"
            f" peak RSS {run.rss_mb:.1f} MB (target <= {TARGET_RSS_MB:.0f}): {mark(run.rss_mb <= TARGET_RSS_MB)}"
        )
    if len(tool) > 1:
        first, last = tool[0], tool[-1]
        growth = last.rss_mb / first.rss_mb if first.rss_mb else 0.0
        print(
            f"RSS {first.lines:,} -> {last.lines:,} keys: {first.rss_mb:.1f} MB -> {last.rss_mb:.1f} MB"
            f" (x{growth:.2f}; flat means <= x1.25: {mark(growth <= 1.25)})"
        )


# ---- main ----------------------------------------------------------------------------------------------------


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--sizes wants comma-separated integers: {exc}") from exc
    if not sizes or any(n <= 0 for n in sizes):
        raise argparse.ArgumentTypeError("--sizes wants positive integers")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Throughput and peak RSS of `rediscipline keys` vs the floors.")
    parser.add_argument("--sizes", type=parse_sizes, default=[1_000_000, 5_000_000], help="comma-separated")
    parser.add_argument("--keep", type=Path, help="generate key files into DIR, keep them and reuse them next time")
    parser.add_argument("--repeat", type=int, default=1, help="runs per command; the fastest wall time counts")
    args = parser.parse_args(argv)

    pin = pin_prefix()
    timer = gnu_time()
    have_tool = rediscipline_available()
    print(f"python {sys.version.split()[0]} at {sys.executable}")
    print(f"pinning: {' '.join(pin) if pin else 'unavailable (taskset missing), unpinned'}")
    print(f"rusage via: {timer + ' -f %M' if timer else 'python fork/wait4 wrapper (GNU time missing)'}")
    if not have_tool:
        print("rediscipline CLI not available (`python -m rediscipline --help` failed): measuring the floors only")

    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        workdir = args.keep
    else:
        workdir = Path(tempfile.mkdtemp(prefix="rediscipline-bench-"))
    wc = shutil.which("wc")
    runs: list[Run] = []
    try:
        for lines in args.sizes:
            print(f"\n{lines:,} keys")
            path = key_file(workdir, lines)
            commands: list[tuple[str, list[str]]] = []
            if wc:
                commands.append(("wc -l", [*pin, wc, "-l", str(path)]))
            commands.append(("python-iter", [*pin, sys.executable, "-c", PY_ITERATE, str(path)]))
            if have_tool:
                tool = [sys.executable, "-m", "rediscipline", "keys", str(path)]
                commands.append(
                    ("rediscipline", [*pin, *tool, "--format", "json", "--output", "/dev/null", "--exit-zero"])
                )
            for label, cmd in commands:
                run = measure(label, cmd, lines, args.repeat, timer)
                print(f"  {label:<13} {run.wall:6.2f}s  {run.rss_mb:7.1f} MB")
                if run.returncode:
                    print(f"  {label} failed with exit {run.returncode}:\n{run.stderr[-2000:]}")
                runs.append(run)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)

    print_table(runs)
    print_summary(runs, args.sizes)
    return 1 if any(run.returncode for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
