"""What one key costs the active expire cycle of a real Redis 7.0 to find and delete, for the expiry model's
`--delete-us` and `delete_us_per_kb` (`simulate.expiry.ExpirySettings`).

For each value size, `--repeat` times, alternating the sizes: a fresh Debian Redis 7.0 (/usr/bin/redis-server,
persistence off, a free 127.0.0.1 port, started by tests/support/servers.py and stopped by its PID) is loaded
with `--keys` keys with a TTL of an hour (fewer for big values: at most 1 GiB of them), then every key is
given the same deadline two seconds ahead (PEXPIREAT, pipelined), and nothing reads them. Once the server
holds none of them, its INFO `expire_cycle_cpu_milliseconds` and `expired_keys` since the deadline give the
µs the cycle spent per key (sampling it, deleting it, freeing its value: `lazyfree-lazy-expire no`).
Printed per size: the median and min–max of µs per key, and the slow cycles that hit their time limit.

    .venv/bin/python benchmarks/expiry_delete_cost.py [--keys 200000] [--sizes 50 4096 32768]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support.servers: the project's way to run a real server

from tests.support.servers import start_server  # noqa: E402

BATCH = 5_000
#: The longest a mass expiry is waited for (s), and the most value bytes loaded.
PATIENCE = 60
MAX_BYTES = 1 << 30


def measure(keys: int, size: int) -> tuple[float, int]:
    """µs of expire cycle per key expired, and the slow cycles that hit their time limit."""
    with start_server("redis70") as server:
        client = server.client()
        pipe = client.pipeline(transaction=False)
        value = b"v" * size
        for number in range(keys):
            pipe.set(b"k:%d" % number, value, ex=3600)
            if number % BATCH == BATCH - 1:
                pipe.execute()
        pipe.execute()
        deadline = int(time.time() * 1000) + 2000
        for number in range(keys):
            pipe.pexpireat(b"k:%d" % number, deadline)
            if number % BATCH == BATCH - 1:
                pipe.execute()
        pipe.execute()
        before = client.info("stats")
        waited = time.time()
        while client.dbsize() and time.time() - waited < PATIENCE:
            time.sleep(0.5)
        after = client.info("stats")
    expired = int(after["expired_keys"]) - int(before["expired_keys"])
    cpu_ms = int(after["expire_cycle_cpu_milliseconds"]) - int(before["expire_cycle_cpu_milliseconds"])
    capped = int(after["expired_time_cap_reached_count"]) - int(before["expired_time_cap_reached_count"])
    return cpu_ms * 1000 / max(expired, 1), capped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=200_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 4096, 32768])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs: dict[int, list[tuple[float, int]]] = {size: [] for size in args.sizes}
    for _ in range(args.repeat):
        for size in args.sizes:  # alternated: the machine's noise falls on every size alike
            runs[size].append(measure(min(args.keys, MAX_BYTES // size), size))
    print("| value bytes | keys | µs per key: median (min – max) | slow cycles at their limit: median |")
    print("|---|---|---|---|")
    for size, found in runs.items():
        costs = [cost for cost, _capped in found]
        capped = statistics.median(capped for _cost, capped in found)
        print(
            f"| {size:,} | {min(args.keys, MAX_BYTES // size):,} "
            f"| {statistics.median(costs):.2f} ({min(costs):.2f} – {max(costs):.2f}) "
            f"| {capped:.0f} |"
        )


if __name__ == "__main__":
    main()
