"""Baselines for key lists and dumps: `baseline create --keys/--scan` records today's findings, `keys` and
`scan` take `--baseline` and report only what is new; options of another kind of input are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli.conftest import Run
from tests.cli.test_scan_dumps import shard, write

KEYS = b"user:profile:id:1\nUser Name:1\nuser::1\n"


def _report(result: Any) -> dict[str, Any]:
    assert result.returncode in (0, 1), result.stderr.decode()
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_a_key_list_baseline_hides_known_patterns_only(run: Run, tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes(KEYS)
    created = run("baseline", "create", "--keys", "keys.txt", "--isolated", "--select", "KEY", "--output", "b.json")
    assert created.returncode == 0, created.stderr.decode()
    assert created.stderr.decode() == "rediscipline: wrote 3 finding(s) from 3 key(s) to b.json\n"
    entries = json.loads((tmp_path / "b.json").read_text())["findings"]
    assert [e["rule"] for e in entries] == ["KEY001", "KEY006", "KEY009"]
    again = run("keys", "keys.txt", "--isolated", "--select", "KEY", "--baseline", "b.json", "--format", "json")
    assert again.returncode == 0
    data = _report(again)
    assert data["findings"] == []
    assert data["notes"] == ["baseline b.json: 3 known finding(s) hidden, 0 no longer seen"]
    (tmp_path / "keys.txt").write_bytes(KEYS + b"User Name:2\nOrder:1\n")  # a known pattern again, and a new one
    newer = _report(
        run("keys", "keys.txt", "--isolated", "--select", "KEY", "--baseline", "b.json", "--format", "json")
    )
    assert {(f["rule"], f["pattern"], f["count"]) for f in newer["findings"]} == {("KEY006", "Order:*", 1)}


def test_a_dump_baseline(run: Run, tmp_path: Path) -> None:
    write(tmp_path / "dump.rdb", shard(1))
    created = run("baseline", "create", "--scan", "dump.rdb", "--isolated", "--output", "b.json")
    assert created.returncode == 0, created.stderr.decode()
    recorded = json.loads((tmp_path / "b.json").read_text())["findings"]
    assert recorded and all(entry["path"] == "dump.rdb" for entry in recorded)
    data = _report(run("scan", "dump.rdb", "--isolated", "--baseline", "b.json", "--format", "json"))
    assert data["findings"] == []
    assert f"baseline b.json: {len(recorded)} known finding(s) hidden, 0 no longer seen" in data["notes"]


def test_options_of_another_input_are_refused(run: Run, tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes(KEYS)
    cases = {
        ("--keys", "keys.txt", "--deep"): "--deep does not apply to --keys",
        ("--keys", "keys.txt", "--exclude", "tests/**"): "--exclude does not apply to --keys",
        ("src", "--input-format", "jsonl"): "--input-format does not apply to code",
        ("--scan", "dump.rdb", "--input-format", "jsonl", "--no-gitignore"): (
            "--no-gitignore, --input-format do not apply to --scan"
        ),
        ("--keys", "--scan", "keys.txt"): "give --keys or --scan, not both",
    }
    for args, message in cases.items():
        result = run("baseline", "create", *args, "--isolated")
        assert result.returncode == 2, args
        assert result.stderr.decode() == f"rediscipline: error: {message}\n", args
