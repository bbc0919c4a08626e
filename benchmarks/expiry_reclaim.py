"""How closely the expiry model follows a real Redis 7.0's active expire cycle when nothing reads the keys.

For each `--keys` size, `--repeat` times: a fresh Debian Redis 7.0 (/usr/bin/redis-server, persistence off, a free
127.0.0.1 port, started by tests/support/servers.py and stopped by its PID) is loaded with that many keys with a
TTL of an hour and `--probes` probes that all expire at one moment two seconds after the load; nothing reads them.
At each `--every` seconds after that moment, for `--seconds`, the server's `expired_keys` (the probes the cycle
reclaimed) is read and set beside the model's prediction for the same keys (`simulate.expiry`, the mean of
`--seeds` bucket placements, since the server's own placement is random too). The table gives, per size and
moment, the server's count and the prediction (medians over the runs), and each run's difference in points of the
probes (its server against its own prediction): median and min–max, and relative to the prediction. Target
(issue 21): within 5 points, or 20 %, at each minute of a 3-minute run with 100k–1M keys.

    .venv/bin/python benchmarks/expiry_reclaim.py [--keys 100000 1000000] [--probes 1000] [--seconds 180]
        [--every 60] [--repeat 3] [--seeds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support.servers: the project's way to run a real server

from tests.support.probes import probe_keyspace, reclaimed_probes  # noqa: E402
from tests.support.servers import start_server  # noqa: E402

from rediscipline.simulate.expiry import ExpirySettings, simulate_expiry  # noqa: E402


def measure(keys: int, probes: int, seconds: int, every: int) -> tuple[int, list[int]]:
    """The probes' deadline (Unix ms) and the server's expired_keys at each moment after it."""
    with start_server("redis70") as server:
        return reclaimed_probes(server.client(), keys, probes, range(every, seconds + 1, every))


def predict(keys: int, deadline: int, args: argparse.Namespace) -> list[float]:
    """The probes the model reclaims at each moment, the mean over `args.seeds` placements."""
    probes, seconds, every = args.probes, args.seconds, args.every
    volatile = probe_keyspace(keys, probes, deadline)
    totals = [0.0] * (seconds // every)
    for seed in range(args.seeds):
        outcome = simulate_expiry([volatile], deadline, seconds, every, ExpirySettings(seed=seed))
        at = {point.t: point.reclaimed for point in outcome.series}
        for index, moment in enumerate(range(every, seconds + 1, every)):
            totals[index] += at[float(moment)] / args.seeds
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--probes", type=int, default=1_000)
    parser.add_argument("--seconds", type=int, default=180)
    parser.add_argument("--every", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    print("| keys | after (s) | server | predicted | difference, points of the probes: median (min – max) | relative |")
    print("|---|---|---|---|---|---|")
    for keys in args.keys:
        runs = [measure(keys, args.probes, args.seconds, args.every) for _ in range(args.repeat)]
        predictions = [predict(keys, deadline, args) for deadline, _ in runs]
        for index, moment in enumerate(range(args.every, args.seconds + 1, args.every)):
            real = statistics.median(seen[index] for _deadline, seen in runs)
            expected = statistics.median(prediction[index] for prediction in predictions)
            points = [
                (seen[index] - prediction[index]) * 100 / args.probes
                for (_deadline, seen), prediction in zip(runs, predictions, strict=True)
            ]
            relative = (real - expected) / expected if expected else float("nan")
            print(
                f"| {keys:,} | {moment} | {real:,.0f} | {expected:,.1f} | {statistics.median(points):+.1f} "
                f"({min(points):+.1f} – {max(points):+.1f}) | {relative:+.0%} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
