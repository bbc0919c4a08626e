"""Reports for the `diff` tests, written by the real tool: `rediscipline keys` on key lists, and the cluster and
fleet shapes (docs/json-report.md) built around real reports.

`KEY_LISTS` is a pair of key lists that differ by seeded changes; `SEEDED` is what `diff` must say of them.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: A long key (KEY005, the same in both lists: an unchanged finding) and a short clean prefix.
LONG_KEY = "cart:items:" + "x" * 130 + ":1"

#: Before: 20 clean profiles, two camelCase keys, one key with a space, five clean orders, the long key.
OLD_KEYS = (
    [f"user:profile:{i}" for i in range(1, 21)]
    + ["UserName:1", "UserName:2", "foo bar:1"]
    + [f"order:status:{i}" for i in range(1, 6)]
    + [LONG_KEY]
)
#: After: 30 more profiles (growth), three more camelCase keys (worsened), the key with a space gone (fixed),
#: three keys with an upper-case segment (new), the orders and the long key as they were.
NEW_KEYS = (
    [f"user:profile:{i}" for i in range(1, 51)]
    + [f"UserName:{i}" for i in range(1, 6)]
    + [f"AID:{i}:player" for i in range(1, 4)]
    + [f"order:status:{i}" for i in range(1, 6)]
    + [LONG_KEY]
)


def cli_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "REDISCIPLINE_DEBUG")}


def rediscipline(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """`python -m rediscipline ARGS` in `cwd` (a folder without a convention file)."""
    return subprocess.run(
        [sys.executable, "-m", "rediscipline", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=cli_env(),
        timeout=300,
        check=False,
    )


def keys_report(folder: Path, name: str, keys: Sequence[str | bytes], *args: str) -> Path:
    """`rediscipline keys` on `keys` (one per line) as a JSON report in `folder/name`."""
    listing = folder / f"{name}.txt"
    listing.write_bytes(b"".join((k if isinstance(k, bytes) else k.encode()) + b"\n" for k in keys))
    path = folder / name
    done = rediscipline("keys", listing.name, "--isolated", "--format", "json", "--output", name, *args, cwd=folder)
    assert done.returncode in (0, 1), done.stderr.decode()
    return path


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def with_shards(report: dict[str, Any], shards: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A real report in the shape of a cluster report: the same, with a top-level `shards` list."""
    document = copy.deepcopy(report)
    document["shards"] = list(shards)
    return document


def target(name: str, report: dict[str, Any] | None, error: str | None = None, **tags: str) -> dict[str, Any]:
    """One target of a fleet report: scanned (`report`) or failed (`error`)."""
    return {
        "name": name,
        "tags": tags,
        "inputs": [f"redis://{name}:6379"],
        "status": "ok" if report is not None else "error",
        "error": error,
        "report": report,
    }


def fleet(*targets: dict[str, Any]) -> dict[str, Any]:
    return {"schema": "rediscipline.fleet", "schema_version": 1, "targets": list(targets)}
