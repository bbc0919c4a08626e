"""Per-key cost of the keyspace summary (`KeyspaceCollector.add`), this tree against an earlier commit.

`add` is on the path every key of a scan or a dump takes once its fields are probed. The facts are a dump-like
mix, built the same way for every version (seeded): types mostly strings, memory spread over 32 B – 1 MB
(log-uniform), half the keys without a TTL and the others due within minutes to 60 days, 50 patterns.

Each version runs in a fresh interpreter pinned to one core (`taskset -c 0` when available) that imports
`rediscipline` from that version's sources (the commit's are extracted with `git archive`). Versions
alternate, each measured `--repeat` times; the table shows the median and min–max of ns per key for `add`,
and of ms for the one `finish` of the run.

    .venv/bin/python benchmarks/keyspace_add.py [--base REF] [--keys 500000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from versions import measure, sources_of, spread

ROOT = Path(__file__).resolve().parent.parent

MEASURE = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from rediscipline.engine.keyspace import KeyspaceCollector
from rediscipline.model.facts import KeyFact
from rediscipline.model.location import Location

count = int(sys.argv[2])
rng = random.Random(count)
origin = Location("rdb", "bench.rdb", db=0)
types = ["string"] * 6 + ["hash", "hash", "set", "zset", "list"]
encodings = {"string": "raw", "hash": "listpack", "set": "intset", "zset": "listpack", "list": "quicklist"}
patterns = [b"app%d:item:*" % index for index in range(50)]
facts = []
for index in range(count):
    kind = types[rng.randrange(len(types))]
    pattern = patterns[rng.randrange(len(patterns))]
    memory = int(2 ** rng.uniform(5, 20))
    draw = rng.random()
    ttl = -1 if draw < 0.5 else rng.randrange(86_400_000 * 3) if draw < 0.9 else rng.randrange(86_400_000 * 60)
    name = pattern[:-1] + b"%d" % index
    facts.append((KeyFact(name, origin, 0, kind, ttl, memory, memory // 16, encodings[kind]), pattern))
collector = KeyspaceCollector()
collector.note_fields(facts[0][0])
add = collector.add
started = time.perf_counter()
for fact, pattern in facts:
    add(fact, None, pattern)
added = time.perf_counter() - started
started = time.perf_counter()
collector.finish()
finished = time.perf_counter() - started
print(json.dumps({"add": added / count * 1e9, "finish": finished * 1e3}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the commit to compare with (default HEAD)")
    parser.add_argument("--keys", type=int, default=500_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        versions = {f"base {args.base}": sources_of(args.base, Path(tmp)), "this tree": ROOT / "src"}
        results: dict[str, list[dict[str, float]]] = {}
        for _round in range(args.repeat):
            for label, sources in versions.items():
                results.setdefault(label, []).append(measure(MEASURE, sources, str(args.keys)))
        print(f"{'version':16} {'add ns/key':>22} {'finish ms':>22}")
        for label, runs in results.items():
            cells = [spread([run[field] for run in runs], 1) for field in ("add", "finish")]
            print(f"{label:16} {cells[0]:>22} {cells[1]:>22}")


if __name__ == "__main__":
    main()
