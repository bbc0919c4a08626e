"""Fixtures for the live-source tests: real servers of every installed kind, the seeded dataset, the scan CLI.

- `server`: one session-wide server per installed kind (ids redis70, valkey91, redis82, redis62); `dataset`
  fills it with the seeded keys and gives the Manifest. pytest groups tests per kind: each starts once.
- `redis70` / `redis70_dataset`: the Debian Redis 7.0 server alone (password, errors, examples).
- `kind`: the kind names alone, for tests that start and stop their own servers.

A kind that is not installed is skipped with the reason, except `redis70` and `valkey91` under CI (CI=true),
which fail: CI must test against them.

The tests run on the core this checkout uses (`core`: the compiled per-key stages of the scan,
`sources.live._pipeline`, always under CI; else the pure-Python ones), and on both with
REDISCIPLINE_TEST_BOTH_CORES=1 (`tests.support.cores.one_core_fixture`), the scans run through the CLI included
(`cli_env` passes REDISCIPLINE_PURE on). The suite takes minutes of real servers per core, so CI holds the cores
equal with `tests/core/test_live_parity.py` instead: every type and encoding, refused probes, unreadable and
vanishing keys, on Redis 7.0 and Valkey 9.1, byte-identical reports.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from rediscipline.compiled import PURE_VARIABLE
from rediscipline.sources.live.pipeline import TWIN
from tests.support.cores import one_core_fixture
from tests.support.dataset import Manifest, populate, reset_idle
from tests.support.kinds import require_kind
from tests.support.servers import KINDS, ServerProcess, start_server

#: Test servers keep the default config; the dataset is small so a scan takes about a second.
SCALE = 8_000

core = one_core_fixture(TWIN)


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    require_kind(name)
    return name


def serve(kind: str) -> Iterator[ServerProcess]:
    """A server of `kind` for a fixture to yield (skipped when not installed), stopped by its PID after."""
    require_kind(kind)
    server = start_server(kind)
    try:
        yield server
    finally:
        server.stop()


def _fill(server: ServerProcess) -> Manifest:
    with server.client() as client:
        return populate(client, SCALE)


@pytest.fixture(scope="session", params=KINDS)
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    """A server of each installed kind, started once per session (empty until `dataset` is used)."""
    yield from serve(request.param)


@pytest.fixture(scope="session")
def dataset(server: ServerProcess) -> Manifest:
    """`server` filled with the seeded dataset (SCALE clean keys); the ground truth."""
    return _fill(server)


@pytest.fixture(scope="session")
def redis70() -> Iterator[ServerProcess]:
    yield from serve("redis70")


@pytest.fixture(scope="session")
def redis70_dataset(redis70: ServerProcess) -> Manifest:
    return _fill(redis70)


def connect(server: ServerProcess, db: int = 0, **kwargs: Any) -> redis.Redis:
    """A redis-py client on `server` that keeps bytes (decode_responses=False)."""
    return server.client(db=db, **kwargs)


# ---- running the CLI -----------------------------------------------------------------------------------------


@dataclass
class ScanResult:
    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.stdout)
        return data

    @property
    def findings(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.report["findings"]
        return found

    def describe(self) -> str:
        return f"exit {self.returncode}\nstderr: {self.stderr.decode(errors='replace')[-2000:]}"


def cli_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a CLI run: this one's, without what would change the run (NO_COLOR, REDIS_URL, our own
    variables) but the core the test runs on (REDISCIPLINE_PURE)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "REDIS_URL") and ("REDISCIPLINE" not in k or k == PURE_VARIABLE)
    }
    env.update(extra or {})
    return env


def scan_command(url: str, *args: str, fmt: str = "json") -> list[str]:
    return [sys.executable, "-m", "rediscipline", "scan", url, "--format", fmt, "--isolated", *args]


def run_scan(
    url: str, *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300, fmt: str = "json"
) -> ScanResult:
    """Run `python -m rediscipline scan URL --format json --isolated ARGS` in `cwd` (no convention file there)."""
    result = subprocess.run(
        scan_command(url, *args, fmt=fmt),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=cwd,
        env=cli_env(env),
        timeout=timeout,
        check=False,
    )
    return ScanResult(result.returncode, result.stdout, result.stderr)


def scan_dataset(
    server: ServerProcess, manifest: Manifest, *args: str, cwd: Path, url: str | None = None, **kwargs: Any
) -> ScanResult:
    """Scan a filled server after making its idle seeds idle again (an earlier scan may have touched them)."""
    with server.client() as client:
        reset_idle(client, manifest)
    return run_scan(url or server.url, *args, cwd=cwd, **kwargs)


# ---- reading the JSON report -----------------------------------------------------------------------------------


def name_of(obj: dict[str, Any], field: str) -> bytes:
    """The exact bytes of a `key` / `pattern` field (its `*_b64` twin when not UTF-8)."""
    encoded = obj.get(f"{field}_b64")
    if encoded is not None:
        return base64.b64decode(encoded)
    value = obj.get(field)
    return value.encode("utf-8") if isinstance(value, str) else b""


def example_keys(finding: dict[str, Any]) -> list[bytes]:
    return [name_of(example, "key") for example in finding.get("examples", [])]


def one_error_line(stderr: bytes) -> str:
    """The single non-empty line a failed run must print (no traceback)."""
    text = stderr.decode(errors="replace")
    assert "Traceback" not in text, text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {text!r}"
    return lines[0]


def summarize(findings: Sequence[dict[str, Any]]) -> str:
    """Findings one per line, for assertion messages."""
    rows = []
    for f in findings:
        pattern = name_of(f, "pattern")[:60]
        rows.append(f"  {f['rule']} {f['code']} {f['severity']} count={f['count']} pattern={pattern!r}")
    return "\n".join(rows)
