"""Two versions of the package measured side by side: a commit's sources, and a measurement run in a process of
its own pinned to one core (`taskset`), so the versions alternate and a slow phase of the machine hits both."""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tarfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sources_of(ref: str, into: Path) -> Path:
    """The `src` folder of commit `ref`, extracted under `into`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], capture_output=True, check=True)
    target = into / "base"
    target.mkdir()
    tar_path = into / "src.tar"
    tar_path.write_bytes(archive.stdout)
    with tarfile.open(tar_path) as tar:
        tar.extractall(target, filter="data")
    return target / "src"


def measure(code: str, sources: Path, *args: str) -> dict[str, float]:
    """Run `code` (a script that puts `sources` first on sys.path and prints one JSON object) on one core."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    done = subprocess.run(
        [*pin, sys.executable, "-c", code, str(sources), *args], capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def spread(values: Sequence[float], digits: int) -> str:
    """`median (min–max)` of the runs, `digits` after the point."""
    return f"{statistics.median(values):7.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"
