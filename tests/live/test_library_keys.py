"""Keys written by real libraries, replayed on a real server, scanned live and from the server's own dump.

The corpus (`tests/data/library_keys/*.tsv`) holds what real task queues, caches, session stores and rate
limiters wrote: name, type and TTL. Each key is written again with its type and TTL, so a scan sees the names,
types and expiries the libraries left. One inference and one catalog: the live scan and the dump give the same
patterns and the same libraries, no application key is attributed, a queue meant to persist is no missing-TTL
finding, and findings on library keys carry the library's own setting.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts
from rediscipline.redis_meta.libraries import FAMILIES
from tests.live.conftest import ScanResult, name_of, run_scan
from tests.support.library_corpus import APPLICATION, CORPUS, Row, load
from tests.support.servers import ServerProcess, start_server

BY_ID = {family.id: family for family in FAMILIES}


def _pattern(key: bytes) -> bytes:
    return KeyTemplate(infer_parts(key)).pattern


def _write(server: ServerProcess, rows: list[Row]) -> None:
    with server.client() as client:
        pipe = client.pipeline(transaction=False)
        for index, row in enumerate(rows):
            key = row.key
            if row.type == "string":
                pipe.set(key, b"v")
            elif row.type == "list":
                pipe.rpush(key, b"v")
            elif row.type == "set":
                pipe.sadd(key, b"v")
            elif row.type == "zset":
                pipe.zadd(key, {b"v": 1})
            elif row.type == "hash":
                pipe.hset(key, b"f", b"v")
            elif row.type == "stream":
                pipe.xadd(key, {b"f": b"v"})
            else:
                continue
            if row.ttl_ms > 0:
                pipe.pexpire(key, max(row.ttl_ms, 600_000))  # still there when the scan and the dump read it
            if index % 500 == 499:
                pipe.execute()
        pipe.execute()


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[Row], ScanResult, ScanResult]]:
    rows = [row for path in sorted(CORPUS.glob("*.tsv")) for row in load(path) if row.type != "ReJSON-RL"]
    server = start_server("redis70")
    try:
        _write(server, rows)
        cwd = tmp_path_factory.mktemp("scan")
        live = run_scan(server.url, "--select", "KEY,TTL001,VAL", cwd=cwd)
        with server.client() as client:
            client.save()
            directory = client.config_get("dir")["dir"]
            filename = client.config_get("dbfilename")["dbfilename"]
        dump = cwd / "dump.rdb"
        shutil.copy(Path(directory) / filename, dump)
        offline = run_scan(str(dump), "--select", "KEY,TTL001,VAL", cwd=cwd)
        yield rows, live, offline
    finally:
        server.stop()


def _rows(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    items = report["patterns"]["items"]
    return sorted(
        (name_of(i, "pattern"), i["keys"], sorted(i["types"].items()), (i["library"] or {}).get("family"))
        for i in items
    )


def test_live_and_dump_see_the_same_patterns_and_libraries(replayed: tuple[list[Row], ScanResult, ScanResult]) -> None:
    rows, live, offline = replayed
    assert live.returncode in (0, 1), live.describe()
    assert offline.returncode in (0, 1), offline.describe()
    assert _rows(offline.report) == _rows(live.report)
    assert live.report["keyspace"]["keys"] == len(rows)


def test_findings_on_library_keys_follow_the_library(replayed: tuple[list[Row], ScanResult, ScanResult]) -> None:
    _corpus, live, _offline = replayed
    attributed = [f for f in live.findings if f.get("library")]
    assert attributed, "library keys break some rule"
    for finding in attributed:
        family = BY_ID[finding["library"]["family"]]
        if not family.type_required:  # a shape of the library's own: its format and its lifetime are the library's
            assert not (finding["rule"] == "TTL001" and family.persists), finding  # a queue is meant to persist
            assert finding["rule"] not in {"KEY006", "KEY007", "KEY009", "KEY010"}, finding
        if family.setting:
            assert family.setting in finding["library"]["advice"] or family.setting == finding["library"]["setting"]


def test_no_application_key_is_attributed(replayed: tuple[list[Row], ScanResult, ScanResult]) -> None:
    rows, live, _offline = replayed
    attributed = {name_of(i, "pattern") for i in live.report["patterns"]["items"] if i["library"] is not None}
    leaked = [row.key for row in rows if row.library == APPLICATION and _pattern(row.key) in attributed]
    assert not leaked[:5]
    assert len(attributed) > 50
