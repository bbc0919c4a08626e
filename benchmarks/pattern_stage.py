"""Per-key cost of the pattern stage, this tree against an earlier commit, in the same run.

The pattern stage is what every key of a scan, a dump or a key list goes through before any value is read:
pattern inference (`model.keypattern.infer_parts`) and the engine's name path (`Engine.feed_name`: the skeleton
memo, inference, the verdict memo, the pattern table) with the default rules. Two key mixes are measured:

  app        the mix of `keys_throughput.py` (~50 application patterns, numeric ids mostly, ~5% violating)
  library    keys in the shapes libraries write: UUIDs of any case, hex digests, base64 and base64url tokens,
             ULIDs, e-mail and IP addresses, ISO timestamps, dotted module paths, query strings

Each (version, mix) runs in a fresh interpreter pinned to one core (`taskset -c 0` when available) that
imports `rediscipline` from that version's sources: the commit's are extracted with `git archive`. Versions
alternate, each measured `--repeat` times; the table shows the median and min–max of ns per key.

    .venv/bin/python benchmarks/pattern_stage.py [--base REF] [--keys 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from keys_throughput import generate
from versions import measure, sources_of, spread

ROOT = Path(__file__).resolve().parent.parent

MEASURE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from rediscipline.model.keypattern import infer_parts
from rediscipline.engine.runner import Engine
from rediscipline.api import settings_for
from rediscipline.settings.loader import Overrides
keys = open(sys.argv[2], "rb").read().split(b"\n")[:-1]
started = time.perf_counter()
for key in keys:
    infer_parts(key)
inference = time.perf_counter() - started
engine = Engine(settings_for(Overrides(isolated=True)).rules)
started = time.perf_counter()
for key in keys:
    engine.feed_name(key)
engine.finish()
stage = time.perf_counter() - started
print(json.dumps({"inference": inference / len(keys) * 1e9, "stage": stage / len(keys) * 1e9}))
"""


def library_keys(path: Path, count: int, seed: int) -> None:
    """Keys in shapes libraries write, with fresh ids (no key of a real keyspace is copied)."""
    rng = random.Random(seed)
    bits = rng.getrandbits
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    def token(length: int, extra: str) -> str:
        chars = alphabet + extra
        return "".join(chars[rng.randrange(len(chars))] for _ in range(length))

    def uuid() -> str:
        h = f"{bits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    makers = [
        lambda: f"jobs:job:{uuid()}",
        lambda: f"task-meta-{uuid().upper()}",
        lambda: f"worker:job:{bits(128):032x}",
        lambda: f":1:views.cache.page.GET.{bits(128):032x}.{bits(128):032x}.en-us.UTC",
        lambda: f"cache_prefix_{token(16, '+/')}{token(6, '+/')}",
        lambda: f"session:{token(43, '-_')}",
        lambda: (
            f"limit/{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}/10/1/minute"
        ),
        lambda: f"limit/user{rng.randrange(10**6)}@example.com/10/1/minute",
        lambda: f"app.models.Customer:01{token(24, '').upper()}",
        lambda: f"events:{2024 + rng.randrange(2)}-0{1 + rng.randrange(9)}-1{rng.randrange(10)}T10:00:00Z",
        lambda: f"view//search?q={token(6, '')}&page={rng.randrange(100)}",
        lambda: f"object:sha:{bits(160):040x}",
    ]
    with path.open("w") as out:
        for _ in range(count):
            out.write(makers[rng.randrange(len(makers))]() + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the commit to compare with (default HEAD)")
    parser.add_argument("--keys", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        mixes = {"app": folder / "app.txt", "library": folder / "library.txt"}
        generate(mixes["app"], args.keys, seed=args.keys)
        library_keys(mixes["library"], args.keys, seed=args.keys)
        versions = {f"base {args.base}": sources_of(args.base, folder), "this tree": ROOT / "src"}
        results: dict[tuple[str, str], list[dict[str, float]]] = {}
        for _round in range(args.repeat):
            for mix, keys in mixes.items():
                for label, sources in versions.items():
                    results.setdefault((mix, label), []).append(measure(MEASURE, sources, str(keys)))
        print(f"{'mix':8} {'version':16} {'inference ns/key':>28} {'pattern stage ns/key':>28}")
        for (mix, label), runs in results.items():
            cells = [spread([run[field] for run in runs], 0) for field in ("inference", "stage")]
            print(f"{mix:8} {label:16} {cells[0]:>28} {cells[1]:>28}")


if __name__ == "__main__":
    main()
