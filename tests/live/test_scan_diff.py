"""`rediscipline diff` of two scans of a real Redis 7.0, before and after seeded changes: exactly those changes.

The server is this module's own (the changes would spoil the shared dataset). CFG002 is left out of both
scans: it judges the share of memory under a TTL, which any write moves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live.conftest import run_scan
from tests.support.diff_reports import rediscipline
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

SCAN_ARGS = ("--ignore", "CFG002")


@pytest.fixture
def server() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70") as started:
        yield started


def _fill(server: ServerProcess) -> None:
    """Clean sessions (TTLs spread over hours), 30 profiles without TTL, 5 camelCase keys, one big hash."""
    with server.client() as client, client.pipeline(transaction=False) as pipe:
        for i in range(100):
            pipe.set(f"session:token:{i}", "x" * 40, ex=3_600 + 97 * i)
        for i in range(30):
            pipe.hset(f"user:profile:{i}", mapping={"name": "n", "age": "1"})
        for i in range(5):
            pipe.set(f"UserCache:{i}", "v")
        pipe.hset("stats:daily:big", mapping={f"f{j}": "v" for j in range(6_000)})
        pipe.execute()


def _change(server: ServerProcess) -> None:
    """The seeded changes: the camelCase keys gone, 60 more profiles, four new camelCase keys, the hash doubled."""
    with server.client() as client, client.pipeline(transaction=False) as pipe:
        pipe.delete(*(f"UserCache:{i}" for i in range(5)))
        for i in range(30, 90):
            pipe.hset(f"user:profile:{i}", mapping={"name": "n", "age": "1"})
        for i in range(4):
            pipe.set(f"OrderCache:{i}", "v")
        pipe.hset("stats:daily:big", mapping={f"g{j}": "v" for j in range(6_000)})
        pipe.execute()


def _scan(server: ServerProcess, folder: Path, name: str) -> dict[str, Any]:
    done = run_scan(server.url, *SCAN_ARGS, cwd=folder)
    assert done.returncode == 1, done.describe()
    (folder / name).write_bytes(done.stdout)
    return done.report


def _memory(report: dict[str, Any], pattern: str) -> int:
    row = next(item for item in report["patterns"]["items"] if item["pattern"] == pattern)
    memory: int = row["memory"]
    return memory


def test_two_scans_around_seeded_changes(server: ServerProcess, tmp_path: Path) -> None:
    _fill(server)
    old = _scan(server, tmp_path, "before.json")
    _change(server)
    new = _scan(server, tmp_path, "after.json")

    done = rediscipline("diff", "before.json", "after.json", "--format", "json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr.decode()
    diff = json.loads(done.stdout)["report"]
    rows = [
        (
            c["change"],
            c["rule"],
            c["code"],
            c.get("pattern"),
            c["old"] and c["old"]["count"],
            c["new"] and c["new"]["count"],
        )
        for c in diff["changes"]
    ]
    assert rows == [
        ("new", "KEY007", "camel-case", "OrderCache:*", None, 4),
        ("new", "TTL001", "missing", "OrderCache:*", None, 4),
        ("worsened", "TTL001", "missing", "user:profile:*", 30, 90),
        ("worsened", "VAL002", "over-limit", "stats:daily:big", 1, 1),
        ("fixed", "KEY007", "camel-case", "UserCache:*", 5, None),
        ("fixed", "TTL001", "missing", "UserCache:*", 5, None),
    ]
    worse = next(c for c in diff["changes"] if c["rule"] == "VAL002")
    assert (worse["old"]["worst"], worse["new"]["worst"]) == (6_000, 12_000)
    unchanged = len(old["findings"]) - 4  # the server's settings and users, the big hash without TTL
    assert unchanged == len(new["findings"]) - 4 == 14
    assert diff["findings"] == {"new": 2, "worsened": 2, "fixed": 2, "improved": 0, "unchanged": unchanged}
    assert diff["summary"]["keys"] == {"old": 136, "new": 195, "change": 59}
    memory = diff["summary"]["memory"]
    assert (memory["old"], memory["new"]) == (old["keyspace"]["memory"], new["keyspace"]["memory"])
    patterns = diff["patterns"]
    assert (patterns["added"], patterns["removed"]) == (1, 1)
    assert [(row["pattern"], row["keys"]["old"], row["keys"]["new"]) for row in patterns["keys_grew"]] == [
        ("user:profile:*", 30, 90),
        ("OrderCache:*", 0, 4),
    ]
    grown = {
        name: _memory(new, name) - (_memory(old, name) if name != "OrderCache:*" else 0)
        for name in ("stats:daily:big", "user:profile:*", "OrderCache:*")
    }
    assert [(row["pattern"], row["memory"]["change"]) for row in patterns["memory_grew"]] == sorted(
        grown.items(), key=lambda item: -item[1]
    )
    assert diff["notes"] == []

    text = rediscipline("diff", "before.json", "after.json", cwd=tmp_path).stdout.decode()
    assert "Findings: 2 new · 2 worsened · 2 fixed · 0 improved" in text
    assert "    ▲ stats:daily:big  1 key  worst 6,000 → 12,000  " in text
    assert "Key patterns that grew most in memory (top 10)" in text
    assert text.endswith("4 new or worsened findings at or above warning\n")
