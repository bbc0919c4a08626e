"""bullmq (node): jobs, a Worker that completes and fails jobs, delays, priorities, flows and a repeatable job.

The workload is bullmq_workload.cjs, run with /usr/bin/node against bullmq installed by npm into a directory
outside the repository (`--node-dir`, version `--bullmq`); node is waited for and has closed its workers and
queues when it exits.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from queue_common import Family, Server, family

LIBRARIES = ("bullmq",)
HERE = Path(__file__).resolve().parent
NODE = "/usr/bin/node"

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"prefix": "bull", "queues": ("emails", "images", "reports"), "jobs": 420, "remove_on_complete": 0},
    "b": {
        "prefix": "shop",
        "queues": ("notifications", "thumbnails", "exports"),
        "jobs": 460,
        "remove_on_complete": 200,
    },
}

_installed: dict[str, Path] = {}

JOB_ID = r"[0-9]+|invoice-[0-9]{7}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
SCHEDULED = r"repeat:(?:nightly-cleanup|hourly-sync|[0-9a-f]{32}):[0-9]{13}"


def prepare(cli: Any) -> dict[str, Any]:
    """npm-install the requested bullmq (and ioredis, its optional client since 6.x) into the node directory once."""
    if not cli.bullmq or not cli.node_dir:
        raise RuntimeError("no --bullmq VERSION and --node-dir DIR given")
    node_dir = Path(cli.node_dir).resolve()
    manifest = node_dir / "node_modules" / "bullmq" / "package.json"
    ioredis = node_dir / "node_modules" / "ioredis"
    if not manifest.exists() or not ioredis.exists() or json.loads(manifest.read_text())["version"] != cli.bullmq:
        node_dir.mkdir(parents=True, exist_ok=True)
        if not (node_dir / "package.json").exists():
            (node_dir / "package.json").write_text('{"name": "library-keyspace-bullmq", "private": true}\n')
        command = ["npm", "install", "--no-audit", "--no-fund", f"bullmq@{cli.bullmq}", "ioredis"]
        subprocess.run(command, cwd=node_dir, check=True, capture_output=True)
    _installed["node_dir"] = node_dir
    return {}


def VERSIONS() -> dict[str, str]:
    manifest = _installed["node_dir"] / "node_modules" / "bullmq" / "package.json"
    return {"bullmq": str(json.loads(manifest.read_text())["version"])}


def families(options: dict[str, Any]) -> list[Family]:
    prefix = options["prefix"]
    rows = []
    for queue in options["queues"]:
        q = rf"{prefix}:{queue}"
        rows += [
            family("bullmq", f"bullmq job {queue}", rf"{q}:(?:{JOB_ID}|{SCHEDULED})"),
            family("bullmq", f"bullmq job logs {queue}", rf"{q}:(?:{JOB_ID}|{SCHEDULED}):logs"),
            family("bullmq", f"bullmq job lock {queue}", rf"{q}:(?:{JOB_ID}):lock"),
            family("bullmq", f"bullmq job dependencies {queue}", rf"{q}:(?:{JOB_ID}):(?:dependencies|processed)"),
            family(
                "bullmq", f"bullmq job scheduler {queue}", rf"{q}:repeat:(?:nightly-cleanup|hourly-sync|[0-9a-f]{{32}})"
            ),
        ]
        for state in ("wait", "active", "paused", "completed", "failed", "delayed", "prioritized", "waiting-children"):
            rows.append(family("bullmq", f"bullmq {state} {queue}", rf"{q}:{state}"))
        for part in ("meta", "id", "events", "marker", "pc", "stalled-check", "stalled", "repeat", "limiter", "de"):
            rows.append(family("bullmq", f"bullmq {part} {queue}", rf"{q}:{part}"))
    return rows


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    config = {
        "port": server.port,
        "db": db,
        "prefix": options["prefix"],
        "queues": list(options["queues"]),
        "jobs": options["jobs"],
        "seed": rng.getrandbits(32),
        "removeOnComplete": options["remove_on_complete"] or False,
    }
    env = {"NODE_PATH": str(_installed["node_dir"] / "node_modules"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [NODE, str(HERE / "bullmq_workload.cjs"), json.dumps(config)],
        env=env,
        capture_output=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"node exited {done.returncode}: {done.stderr.decode(errors='replace')[-800:]}")
