"""A namespace's `ttl-min` and `ttl-max` are checked on what a server and its dump show (TTL003): a key given
7.2 seconds where the namespace declares ten minutes is too short, a 30-day key where it allows a day too long.
On a key list, which shows no TTL, the option is reported as not checked."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live.conftest import cli_env
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

CONVENTIONS = """
[namespaces."session:*"]
ttl-min = "10m"
ttl-max = "24h"
"""


@pytest.fixture(scope="module")
def sessions() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            client.set(b"session:token:id:42", b"t", px=7200)  # milliseconds meant as seconds
            client.set(b"session:user:uid:1", b"u", ex=30 * 86400)  # 30 days
            client.set(b"session:user:uid:2", b"u", ex=3600)
            client.set(b"session:cart:uid:1", b"c", ex=3600)  # inside the range
        yield server


def _scan(target: str, cwd: Path, *args: str) -> dict[str, Any]:
    (cwd / "rediscipline.toml").write_text(CONVENTIONS, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "rediscipline", *args, target, "--format", "json", "--select", "TTL003"],
        capture_output=True,
        cwd=cwd,
        env=cli_env(),
        timeout=120,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr.decode()
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _findings(data: dict[str, Any]) -> set[tuple[str, str, int]]:
    return {(f["code"], f["pattern"], f["count"]) for f in data["findings"]}


EXPECTED = {("too-short", "session:token:id:*", 1), ("too-long", "session:user:uid:*", 1)}


def test_ttl_min_and_max_on_a_live_server(sessions: ServerProcess, tmp_path: Path) -> None:
    assert _findings(_scan(sessions.url, tmp_path, "scan")) == EXPECTED


def test_ttl_min_and_max_on_its_dump(sessions: ServerProcess, tmp_path: Path) -> None:
    with sessions.client() as client:
        client.save()
    dump = tmp_path / "dump.rdb"
    dump.write_bytes((sessions.workdir / "dump.rdb").read_bytes())
    assert _findings(_scan(str(dump), tmp_path, "scan")) == EXPECTED


def test_a_key_list_says_the_ttl_options_were_not_checked(tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes(b"session:token:id:42\n")
    data = _scan("keys.txt", tmp_path, "keys")
    assert data["findings"] == []
    unchecked = [n for n in data["notes"] if n.startswith("namespace session:*")]
    assert unchecked == [
        f"namespace session:* sets `{option}`, checked only by TTL003, which cannot run on this input: it was not "
        "checked"
        for option in ("ttl-min", "ttl-max")
    ]
