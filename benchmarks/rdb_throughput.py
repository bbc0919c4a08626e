"""Throughput and peak RSS of the offline RDB audit against redis-check-rdb and rdb-py, on the same dumps.

The dumps come from benchmarks/rdb_datasets.py (built with the local Redis 7.0 on first use, then cached in
`--dir`): a element-heavy ~240 MB, b key-heavy ~400 MB / 2.8 M keys, c hashtable-heavy ~75 MB. For each
dump, in one run, every command below runs `--repeat` times, alternating (one round = each command once), so
a slow phase of this shared machine hits all of them alike; the page cache is warmed first:

  redis-check-rdb   `redis-check-rdb FILE`: the C reference (decodes every object)
  rdb-py            `python -c 'print(sum(1 for item in rdb.RdbDecoder(FILE)))'`: the Rust parser, iterating
  ours parse        `python -c 'print(sum(1 for key in open_rdb(FILE).keys()))'`: our parser alone, CRC verified
  ours scan         `rediscipline scan FILE --isolated --select ALL --format json --output F --exit-zero`:
                    the full audit, every rule on (rules an RDB cannot show are listed as not checkable)
  ours no-verify    the same scan with `--no-verify` (no CRC-64)
  ours parse/scan (pure)  the same with `REDISCIPLINE_PURE=1`: the pure-Python core, beside the compiled one

Every command is a fresh process (interpreter start-up included, ~50 ms; without PYTHONDONTWRITEBYTECODE, as
an installed tool runs, the probe run writing the .pyc files) with stdout discarded; peak RSS is
GNU `/usr/bin/time -f %M` of that process (psutil polling without GNU time): run_measured() of
scan_throughput.py. Reported per command: the best (lowest) wall time of the runs and, in brackets, the
median; MB/s = file bytes / 10^6 / best seconds; keys/s = keys the server held / best seconds; the speed
ratios against redis-check-rdb and rdb-py from the best times; peak RSS = the highest of the runs.

Targets (reported, not asserted), for "ours scan": >= 1.0 x redis-check-rdb on a, >= 1.0 x on c, >= 0.8 x on
b, faster than rdb-py on all three, peak RSS <= 150 MB. `--rss-curve b2,b10` also builds b2 and b10 (b at twice
and ten times the size, ~800 MB and ~4 GB) and prints the scan's peak RSS on b and each: it must stay flat.

`--jobs-scaling a,c` scans those dumps together, as one report, with `--jobs 1` and with `--jobs N` (N = the
CPU count; each dump read and judged in a worker of its own), alternating, and prints the speed-up and whether
both reports hold the same findings and summary. Target: it scales to the cores (with 2 dumps on 2 cores, the
time of the larger dump alone plus the pool's start, well under the sum of both).

Our rows are skipped, with the reason, when `rediscipline scan F.rdb` fails on the small `probe` dump (run
first); rdb-py is skipped when not installed.

    .venv/bin/python benchmarks/rdb_throughput.py [--dir ~/.cache/rediscipline-bench] [--datasets a,b,c]
        [--repeat 3] [--tools check-rdb,rdb-py,parse,scan,no-verify,parse-pure,scan-pure] [--scan-args '...']
        [--rss-curve b2,b10] [--jobs-scaling a,c]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from rdb_datasets import DEFAULT_DIR, Dataset, ensure
from scan_throughput import Run, installed_env, mark, parse_count, rediscipline_argv, run_measured
from timing import gnu_time

TARGET_VS_CHECK = {"a": 1.0, "b": 0.8, "c": 1.0}
TARGET_RSS_MB = 150.0
FLAT_GROWTH = 1.25  # a bigger dump's peak RSS / b's at most this: "flat" with some allocator noise
CHUNK = 16 << 20

# One line each, so that the printed commands can be pasted; both print the count (checked on the probe dump).
RDBPY_CODE = "import sys, rdb; print(sum(1 for item in rdb.RdbDecoder(sys.argv[1])))"
PARSE_CODE = (
    "import sys; from rediscipline.sources.rdb.parser import open_rdb; "
    "dump = open_rdb(sys.argv[1]); print(sum(1 for key in dump.keys())); dump.close()"
)


@dataclass(frozen=True)
class Tool:
    """One measured command; `argv(path, out)` builds it for a dump (out: where a scan writes its report)."""

    name: str  # as in --tools
    label: str  # as printed
    kind: str  # "ref" or "ours"

    def argv(self, path: Path, out: Path, scan_args: Sequence[str]) -> list[str]:
        if self.name == "check-rdb":
            return [redis_check_rdb() or "redis-check-rdb", str(path)]
        if self.name == "rdb-py":
            return [sys.executable, "-c", RDBPY_CODE, str(path)]
        pure = ["env", "REDISCIPLINE_PURE=1"] if self.name.endswith("-pure") else []
        if self.name.startswith("parse"):
            return [*pure, sys.executable, "-c", PARSE_CODE, str(path)]
        scan = [*pure, *rediscipline_argv(), "scan", str(path), "--isolated", "--select", "ALL", *scan_args]
        scan += ["--format", "json", "--output", str(out), "--exit-zero"]
        return [*scan, "--no-verify"] if self.name == "no-verify" else scan


TOOLS = {
    t.name: t
    for t in (
        Tool("check-rdb", "redis-check-rdb", "ref"),
        Tool("rdb-py", "rdb-py", "ref"),
        Tool("parse", "ours parse", "ours"),
        Tool("scan", "ours scan", "ours"),
        Tool("no-verify", "ours no-verify", "ours"),
        Tool("parse-pure", "ours parse (pure)", "ours"),
        Tool("scan-pure", "ours scan (pure)", "ours"),
    )
}


def redis_check_rdb() -> str | None:
    found = shutil.which("redis-check-rdb")
    return found or ("/usr/bin/redis-check-rdb" if os.path.exists("/usr/bin/redis-check-rdb") else None)


# ---- which tools work here -----------------------------------------------------------------------------------


def report_keys(path: Path) -> int | None:
    """Keys a JSON scan report says it read, or None when it is unreadable."""
    try:
        return int(json.loads(path.read_text())["summary"]["keys"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def availability(tool: Tool, probe: Dataset, scan_args: Sequence[str]) -> str | None:
    """None when `tool` runs correctly on the small probe dump, else why it is skipped."""
    if tool.name == "check-rdb":
        return None if redis_check_rdb() else "redis-check-rdb not found (apt-get install redis-server)"
    if tool.name == "rdb-py":
        return None if importlib.util.find_spec("rdb") else "rdb-py not installed (.venv/bin/pip install rdb-py)"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        argv = tool.argv(probe.path, out, scan_args)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False, env=installed_env())
        except subprocess.TimeoutExpired:
            return f"no result on the probe dump within 120 s: {shlex.join(argv)}"
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            return f"fails on the probe dump (exit {done.returncode}): {lines[-1] if lines else ''}"
        if tool.name.startswith("parse") and done.stdout.strip() != str(probe.keys):
            return f"counts {done.stdout.strip()} keys in the probe dump, the server held {probe.keys}"
        if not tool.name.startswith("parse") and report_keys(out) != probe.keys:
            return f"its report has {report_keys(out)} keys for the probe dump, the server held {probe.keys}"
    return None


# ---- measuring -----------------------------------------------------------------------------------------------


def warm(path: Path) -> None:
    """Read the file once so every command finds it in the page cache."""
    with path.open("rb", buffering=0) as handle:
        while handle.read(CHUNK):
            pass


@dataclass
class Row:
    """The runs of one tool on one dump."""

    dataset: Dataset
    tool: Tool
    runs: list[Run]
    argv: list[str]

    @property
    def ok(self) -> list[Run]:
        return [r for r in self.runs if r.returncode == 0]

    @property
    def best(self) -> float | None:
        return min(r.wall for r in self.ok) if self.ok else None

    @property
    def median(self) -> float | None:
        return statistics.median(r.wall for r in self.ok) if self.ok else None

    @property
    def rss(self) -> float | None:
        return max(r.rss_mb for r in self.ok) if self.ok else None


def measure_dataset(
    dataset: Dataset, tools: Sequence[Tool], repeat: int, timer: str | None, scan_args: Sequence[str]
) -> list[Row]:
    print(f"\n{dataset.summary()}", flush=True)
    warm(dataset.path)
    out = report_path(dataset)
    rows = [Row(dataset, tool, [], tool.argv(dataset.path, out, scan_args)) for tool in tools]
    for i in range(repeat):
        for row in rows:
            run = run_measured(row.tool.label, row.argv, timer)
            row.runs.append(run)
            failed = "" if run.returncode == 0 else f"  FAILED (exit {run.returncode}): {run.stderr[-500:]}"
            mbs = dataset.mb / run.wall
            print(
                f"  round {i + 1}/{repeat}  {row.tool.label:<16} {run.wall:7.2f} s {mbs:7.1f} MB/s"
                f" {run.rss_mb:7.1f} MB{failed}",
                flush=True,
            )
            if row.tool.kind == "ours" and not row.tool.name.startswith("parse") and run.returncode == 0:
                keys = report_keys(out)
                if keys != dataset.keys:
                    print(f"    note: the report counts {keys} keys, the server held {dataset.keys:,}")
    return rows


def report_path(dataset: Dataset) -> Path:
    """Where our scan writes its JSON report: next to the dump, so the last one can be read afterwards."""
    return dataset.path.with_name(f"{dataset.name}.report.json")


# ---- report --------------------------------------------------------------------------------------------------


def ratio(base: float | None, other: float | None) -> float | None:
    """How many times faster `other` is than `base` (wall times: base / other)."""
    return base / other if base and other else None


def fmt(value: float | None, spec: str, width: int) -> str:
    return f"{value:{width}{spec}}" if value is not None else f"{'-':>{width}}"


def print_table(rows: list[Row], repeat: int) -> None:
    header = (
        f"{'dump':<5} {'MB':>6} {'keys':>10}  {'tool':<16} {'best s':>7} {'(median)':>9} {'MB/s':>7} {'keys/s':>10}"
        f" {'x check':>8} {'x rdb-py':>8} {'RSS MB':>7}"
    )
    print(f"\n==== best of {repeat} runs (median in brackets); MB = 10^6 bytes; page cache warm ====")
    print(header)
    print("-" * len(header))
    for name in dict.fromkeys(r.dataset.name for r in rows):
        group = [r for r in rows if r.dataset.name == name]
        check = next((r.best for r in group if r.tool.name == "check-rdb"), None)
        rdbpy = next((r.best for r in group if r.tool.name == "rdb-py"), None)
        for i, row in enumerate(group):
            d = row.dataset
            lead = f"{d.name:<5} {d.mb:6.1f} {d.keys:>10,}" if i == 0 else f"{'':<5} {'':>6} {'':>10}"
            median = f"({row.median:.2f})" if row.median is not None else "-"
            mbs = d.mb / row.best if row.best else None
            keys = d.keys / row.best if row.best else None
            print(
                f"{lead}  {row.tool.label:<16} {fmt(row.best, '.2f', 7)} {median:>9} {fmt(mbs, '.1f', 7)}"
                f" {fmt(keys, ',.0f', 10)} {fmt(ratio(check, row.best), '.2f', 8)}"
                f" {fmt(ratio(rdbpy, row.best), '.2f', 8)} {fmt(row.rss, '.1f', 7)}"
            )


def print_targets(rows: list[Row], curve: list[Row]) -> bool:
    """The verdict per dump for `ours scan`; returns whether every measured target was met."""
    print("\n==== targets (ours scan, best-of times) ====")
    all_ok = True
    for name in dict.fromkeys(r.dataset.name for r in rows):
        group = {r.tool.name: r for r in rows if r.dataset.name == name}
        ours, check, rdbpy = group.get("scan"), group.get("check-rdb"), group.get("rdb-py")
        if ours is None or ours.best is None:
            print(f"{name}: ours scan not measured")
            continue
        parts = []
        want = TARGET_VS_CHECK.get(name)
        vs_check = ratio(check.best if check else None, ours.best)
        if want is not None and vs_check is not None:
            ok = vs_check >= want
            all_ok &= ok
            parts.append(f"{vs_check:.2f} x redis-check-rdb (target >= {want}): {mark(ok)}")
        vs_rdbpy = ratio(rdbpy.best if rdbpy else None, ours.best)
        if vs_rdbpy is not None:
            ok = vs_rdbpy > 1.0
            all_ok &= ok
            parts.append(f"{vs_rdbpy:.2f} x rdb-py (target > 1): {mark(ok)}")
        if ours.rss is not None:
            ok = ours.rss <= TARGET_RSS_MB
            all_ok &= ok
            parts.append(f"peak RSS {ours.rss:.1f} MB (target <= {TARGET_RSS_MB:.0f}): {mark(ok)}")
        print(f"{name}: " + "; ".join(parts))
    if len(curve) >= 2 and all(r.rss for r in curve):
        small = curve[0]
        assert small.rss
        for large in curve[1:]:
            assert large.rss
            growth = large.rss / small.rss
            ok = large.rss <= TARGET_RSS_MB and growth <= FLAT_GROWTH
            all_ok &= ok
            print(
                f"RSS curve: {small.dataset.name} {small.dataset.mb:.0f} MB -> {small.rss:.1f} MB RSS,"
                f" {large.dataset.name} {large.dataset.mb:.0f} MB -> {large.rss:.1f} MB RSS (x{growth:.2f};"
                f" target flat, <= x{FLAT_GROWTH} and <= {TARGET_RSS_MB:.0f} MB): {mark(ok)}"
            )
    return all_ok


# ---- --jobs scaling -------------------------------------------------------------------------------------------


def report_content(path: Path) -> object:
    """A JSON report without how it ran (the command line, the time it took): what two runs over the same
    dumps share."""
    try:
        report = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    report.pop("run", None)
    report.get("summary", {}).pop("elapsed_seconds", None)
    return report


def measure_jobs(datasets: Sequence[Dataset], repeat: int, timer: str | None, scan_args: Sequence[str]) -> bool:
    """`--jobs 1` against `--jobs <CPUs>` on the dumps together; whether it scaled with the same report."""
    cpus = os.cpu_count() or 1
    names = "+".join(d.name for d in datasets)
    print(f"\n==== --jobs scaling: {names} ({sum(d.mb for d in datasets):.0f} MB) in one scan, {cpus} CPUs ====")
    for dataset in datasets:
        warm(dataset.path)
    folder = datasets[0].path.parent
    outs = {jobs: folder / f"jobs-{jobs}.report.json" for jobs in (1, cpus)}
    argvs = {
        jobs: [*rediscipline_argv(), "scan", *(str(d.path) for d in datasets), "--jobs", str(jobs), "--isolated",
               "--select", "ALL", *scan_args, "--format", "json", "--output", str(out), "--exit-zero"]
        for jobs, out in outs.items()
    }  # fmt: skip
    runs: dict[int, list[float]] = {jobs: [] for jobs in argvs}
    for i in range(repeat):
        for jobs, argv in argvs.items():
            run = run_measured(f"--jobs {jobs}", argv, timer)
            if run.returncode != 0:
                print(f"  --jobs {jobs} FAILED (exit {run.returncode}): {run.stderr[-500:]}")
                return False
            runs[jobs].append(run.wall)
            print(f"  round {i + 1}/{repeat}  --jobs {jobs:<3} {run.wall:7.2f} s {run.rss_mb:7.1f} MB", flush=True)
    for jobs, walls in runs.items():
        print(
            f"  --jobs {jobs:<3} best {min(walls):.2f} s, median {statistics.median(walls):.2f} s"
            f" (min-max {min(walls):.2f}-{max(walls):.2f})"
        )
    same = report_content(outs[1]) == report_content(outs[cpus]) and report_content(outs[1]) is not None
    speedup = min(runs[1]) / min(runs[cpus])
    ok = same and (cpus == 1 or speedup > 1.2)
    print(f"  speed-up {speedup:.2f}x (best of each); same report: {'yes' if same else 'NO'}: {mark(ok)}")
    print(f"  command: {shlex.join(argvs[cpus])}")
    return ok


# ---- main ----------------------------------------------------------------------------------------------------


def parse_list(known: Sequence[str]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        names = [p.strip().lower() for p in text.split(",") if p.strip()]
        unknown = [n for n in names if n not in known]
        if unknown or not names:
            raise argparse.ArgumentTypeError(f"choose from {', '.join(known)}")
        return names

    return parse


def _terminate(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="RDB parse/audit throughput vs redis-check-rdb and rdb-py.")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"dump cache (default {DEFAULT_DIR})")
    parser.add_argument("--datasets", type=parse_list(("a", "b", "c")), default=["a", "b", "c"], help="e.g. a,c")
    parser.add_argument("--repeat", type=parse_count, default=3, help="runs of each command, alternating (3)")
    parser.add_argument(
        "--tools", type=parse_list(tuple(TOOLS)), default=list(TOOLS), help=f"subset of {','.join(TOOLS)}"
    )
    parser.add_argument("--scan-args", type=str.split, default=[], help="extra options for rediscipline scan")
    parser.add_argument(
        "--rss-curve",
        type=parse_list(("b2", "b10")),
        default=[],
        help="b2 (~800 MB) and/or b10 (~4 GB): build them and compare the scan's peak RSS with b's",
    )
    parser.add_argument(
        "--jobs-scaling",
        type=parse_list(("a", "b", "c")),
        default=[],
        help="e.g. a,c: scan those dumps together with --jobs 1 and --jobs <CPUs>, alternating",
    )
    args = parser.parse_args(argv)

    timer = gnu_time()
    print(f"python {sys.version.split()[0]} at {sys.executable}; {os.cpu_count()} CPUs; load {os.getloadavg()}")
    print(f"peak RSS via: {timer + ' -f %M' if timer else 'psutil polling every 20 ms (GNU time missing)'}")
    signal.signal(signal.SIGTERM, _terminate)
    folder = args.dir.expanduser()
    rows: list[Row] = []
    curve: list[Row] = []
    try:
        probe = ensure("probe", folder)
        datasets = [ensure(name, folder) for name in args.datasets]
        tools: list[Tool] = []
        for name in args.tools:
            reason = availability(TOOLS[name], probe, args.scan_args)
            if reason:
                print(f"skipping {TOOLS[name].label}: {reason}")
            else:
                tools.append(TOOLS[name])
        for dataset in datasets:
            rows += measure_dataset(dataset, tools, args.repeat, timer, args.scan_args)
        if args.rss_curve:
            scan = [t for t in tools if t.name == "scan"]
            if not scan:
                print("\nRSS curve skipped: ours scan is not available")
            else:
                b = next((r for r in rows if r.dataset.name == "b" and r.tool.name == "scan"), None)
                if b is None:
                    b = measure_dataset(ensure("b", folder), scan, 1, timer, args.scan_args)[0]
                curve = [b] + [
                    measure_dataset(ensure(name, folder), scan, 1, timer, args.scan_args)[0] for name in args.rss_curve
                ]
        if args.jobs_scaling:
            measure_jobs([ensure(name, folder) for name in args.jobs_scaling], args.repeat, timer, args.scan_args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130

    print_table(rows, args.repeat)
    print_targets(rows, curve)
    print("\ncommands (stdout to /dev/null; FILE = the dump, REPORT = <dir>/<dump>.report.json):")
    seen: set[str] = set()
    for row in rows + curve:
        if row.tool.name not in seen:
            seen.add(row.tool.name)
            text = shlex.join(row.argv).replace(str(report_path(row.dataset)), "REPORT")
            text = text.replace(str(row.dataset.path), "FILE")
            print(f"  {row.tool.label:<16} {text}")
    failed = any(r.returncode for row in rows + curve for r in row.runs)
    return 1 if failed else 0  # a missed target is reported, not an error


if __name__ == "__main__":
    sys.exit(main())
