"""The element probe is bounded in bytes: on collections of a few huge members it reads at most about one
element (never all of them), and above the cap none, while VAL008 still reports the big elements.

Measured from the server's side: INFO stats `total_net_output_bytes` before and after a scan of one key.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from rediscipline.sources.live.probes import ELEMENT_BUDGET, ELEMENT_CAP
from tests.live.conftest import run_scan
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

MB = 1 << 20
#: What the scan's own replies (INFO all, CONFIG GET *, SLOWLOG ...) may add to the element bytes.
OVERHEAD = 1 * MB


def _element(size: int, index: int) -> bytes:
    return b"%08d" % index + b"e" * (size - 8)


def _fill(client: redis.Redis, kind: str, name: bytes, count: int, size: int) -> None:
    elements = [_element(size, i) for i in range(count)]
    if kind == "set":
        client.sadd(name, *elements)
    elif kind == "zset":
        client.zadd(name, {e: i for i, e in enumerate(elements)})
    elif kind == "hash":
        client.hset(name, mapping={b"f%d" % i: e for i, e in enumerate(elements)})
    else:
        client.rpush(name, *elements)


@pytest.fixture(scope="module")
def huge() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            for kind in ("set", "zset", "hash", "list"):
                _fill(client, kind, b"big:%s" % kind.encode(), 8, 4 * MB)  # 8 x 4 MB: above the budget, below the cap
                _fill(client, kind, b"huge:%s" % kind.encode(), 3, 12 * MB)  # average above the cap: not read
        yield server


def _output_bytes(server: ServerProcess) -> int:
    with server.client() as client:
        return int(client.info("stats")["total_net_output_bytes"])


def _scan_one(server: ServerProcess, name: str, tmp_path: Path) -> tuple[int, dict[str, object]]:
    before = _output_bytes(server)
    result = run_scan(server.url, "--match", name, "--select", "VAL008", cwd=tmp_path, timeout=120)
    moved = _output_bytes(server) - before
    assert result.returncode == 1, result.describe()
    findings = [f for f in result.findings if f["rule"] == "VAL008"]
    assert len(findings) == 1, findings
    return moved, findings[0]


def test_constants_are_what_the_test_assumes() -> None:
    assert ELEMENT_BUDGET < 4 * MB <= ELEMENT_CAP < 12 * MB


@pytest.mark.parametrize("kind", ["set", "zset", "hash", "list"])
def test_big_members_cost_one_element_not_all(huge: ServerProcess, tmp_path: Path, kind: str) -> None:
    moved, finding = _scan_one(huge, f"big:{kind}", tmp_path)
    # at most one 4 MB element (hash: field names, then HSTRLEN; no value moves); 8 would be 32 MB
    assert moved < 4 * MB + OVERHEAD, moved
    if kind != "hash":
        assert moved >= 4 * MB, moved  # and it did read one
    assert finding["worst"] == 4 * MB
    assert finding["count"] == 1


@pytest.mark.parametrize("kind", ["set", "zset", "hash", "list"])
def test_elements_above_the_cap_are_not_read(huge: ServerProcess, tmp_path: Path, kind: str) -> None:
    moved, finding = _scan_one(huge, f"huge:{kind}", tmp_path)
    assert moved < OVERHEAD, moved
    # the average by MEMORY USAGE (allocator size classes included), a lower bound of the largest element
    assert isinstance(finding["worst"], int) and 12 * MB <= finding["worst"] < 16 * MB
    result = run_scan(huge.url, "--match", f"huge:{kind}", "--select", "VAL008", cwd=tmp_path, timeout=120)
    note = next(n for n in result.report["notes"] if "too big to read" in n)
    assert note.startswith("1 collections hold elements too big to read (average above 8 MB)")


def test_the_seeded_big_field_among_small_ones_is_still_found(tmp_path: Path) -> None:
    """A small collection is read whole as before: one 20 KB field among ten small ones."""
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            client.hset(b"doc:1", mapping={b"f%d" % i: b"x" * 10 for i in range(10)} | {b"big": b"y" * 20_000})
            client.sadd(b"tags:1", *[b"t%d" % i for i in range(10)], b"z" * 20_000)
        result = run_scan(server.url, "--select", "VAL008", cwd=tmp_path, timeout=120)
    worst = {f["pattern"]: f["worst"] for f in result.findings}
    assert worst == {"doc:*": 20_000, "tags:*": 20_000}
