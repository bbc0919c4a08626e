"""Parity: the seeded keyspace scanned live, then saved and scanned as a dump, gives the same findings.

For every rule both sources can check, on every installed server kind, the findings must agree on rule,
code, severity, pattern and key count. Rules that read something only one side has are compared apart:
`memory` (MEMORY USAGE live, the model offline) must agree on which patterns fire, and idle time only where
the server writes it into the dump (an LRU policy).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.live.conftest import ScanResult, name_of, run_scan, scan_dataset, summarize
from tests.support.dataset import Manifest
from tests.support.servers import ServerProcess

#: Rules whose verdict hangs on a value the two sources measure differently; compared by pattern only.
MEASURED_APART = {"VAL003"}  # the memory of a collection
#: Rules that need the idle time, which a dump carries only under an LRU policy (the test servers run noeviction).
LIVE_ONLY_HERE = {"TTL004"}


def _comparable(findings: list[dict[str, Any]], rdb_rules: set[str]) -> list[dict[str, Any]]:
    return [f for f in findings if f["rule"] in rdb_rules and f.get("pattern") is not None]


def _key(finding: dict[str, Any], exact: bool) -> tuple[Any, ...]:
    base = (finding["rule"], finding["code"], name_of(finding, "pattern"))
    return (*base, finding["severity"], finding["count"]) if exact else base


@pytest.fixture(scope="session")
def saved_dump(server: ServerProcess, dataset: Manifest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dataset saved by the server itself (SAVE), copied out of its working directory."""
    with server.client() as client:
        client.save()
        directory = client.config_get("dir")["dir"]
        filename = client.config_get("dbfilename")["dbfilename"]
    target = tmp_path_factory.mktemp("dump") / "dump.rdb"
    shutil.copy(Path(directory) / filename, target)
    return target


def test_dump_findings_equal_live_findings(
    server: ServerProcess, dataset: Manifest, saved_dump: Path, tmp_path: Path
) -> None:
    live: ScanResult = scan_dataset(server, dataset, cwd=tmp_path)
    offline = run_scan(str(saved_dump), cwd=tmp_path, env={"COLUMNS": "200"})
    assert live.returncode in (0, 1), live.describe()
    assert offline.returncode in (0, 1), offline.describe()
    metas = {**live.report["rules"], **offline.report["rules"]}
    rdb_rules = {rule for rule, meta in metas.items() if {"rdb", "live"} <= set(meta["where"])} - LIVE_ONLY_HERE
    live_findings = _comparable(live.findings, rdb_rules)
    dump_findings = _comparable(offline.findings, rdb_rules)
    assert live_findings, "the seeded dataset must produce key findings"

    exact_live = sorted(_key(f, True) for f in live_findings if f["rule"] not in MEASURED_APART)
    exact_dump = sorted(_key(f, True) for f in dump_findings if f["rule"] not in MEASURED_APART)
    assert exact_dump == exact_live, (
        f"live:\n{summarize([f for f in live_findings if f['rule'] not in MEASURED_APART])}\n"
        f"dump:\n{summarize([f for f in dump_findings if f['rule'] not in MEASURED_APART])}"
    )
    apart_live = sorted(_key(f, False) for f in live_findings if f["rule"] in MEASURED_APART)
    apart_dump = sorted(_key(f, False) for f in dump_findings if f["rule"] in MEASURED_APART)
    assert apart_dump == apart_live


def test_dump_keyspace_equals_live_keyspace(
    server: ServerProcess, dataset: Manifest, saved_dump: Path, tmp_path: Path
) -> None:
    """Same keys, types, lengths and TTL coverage; memory within the model's stated error."""
    live = scan_dataset(server, dataset, cwd=tmp_path).report["keyspace"]
    offline = run_scan(str(saved_dump), cwd=tmp_path).report["keyspace"]
    assert offline["keys"] == live["keys"]
    assert offline["with_ttl"] == live["with_ttl"]
    assert offline["memory_model"]
    assert live["memory_model"] is None
    by_type_live = {t["type"]: (t["keys"], t["elements"], t["with_ttl"]) for t in live["by_type"]}
    by_type_dump = {t["type"]: (t["keys"], t["elements"], t["with_ttl"]) for t in offline["by_type"]}
    assert by_type_dump == by_type_live
    assert 0.8 <= offline["memory"] / live["memory"] <= 1.25


def test_dump_patterns_equal_live_patterns(
    server: ServerProcess, dataset: Manifest, saved_dump: Path, tmp_path: Path
) -> None:
    """One inference: the same patterns, with the same keys, types, TTL counts and libraries."""

    def rows(report: dict[str, Any]) -> list[tuple[Any, ...]]:
        items = report["patterns"]["items"]
        return sorted(
            (name_of(item, "pattern"), item["keys"], sorted(item["types"].items()), item["with_ttl"], item["library"])
            for item in items
        )

    live = scan_dataset(server, dataset, cwd=tmp_path).report
    offline = run_scan(str(saved_dump), cwd=tmp_path).report
    assert rows(offline) == rows(live)
    assert live["patterns"]["count"] == len(live["patterns"]["items"]) and not live["patterns"]["capped"]
