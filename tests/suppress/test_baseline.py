"""The baseline file: write → load → filter, multiset matching, moved code, and one-line errors."""

from __future__ import annotations

import json
import os
import stat
from datetime import date
from pathlib import Path

import pytest

from rediscipline.settings.errors import ConfigError
from rediscipline.suppress.baseline import Baseline, BaselineEntry, load_baseline, write_baseline
from tests.suppress.helpers import finding

DAY = date(2025, 6, 1)


def test_round_trip_sorted_relative_and_exact(tmp_path: Path) -> None:
    findings = [
        finding("KEY005", f"{tmp_path}/src/b.py", 3, fingerprint="fp-b", message="键名过长"),
        finding("CMD001", "src/a.py", 9, fingerprint="fp-a2"),
        finding("CMD001", "src/a.py", 2, fingerprint="fp-a1"),
        finding("CFG001", None, None, fingerprint="fp-server"),
    ]
    target = tmp_path / "baseline.json"
    assert write_baseline(findings, target, root=str(tmp_path), created=DAY) == 4
    assert json.loads(target.read_text(encoding="utf-8")) == {
        "version": 1,
        "tool": "rediscipline",
        "created": "2025-06-01",
        "findings": [
            {"fingerprint": "fp-server", "rule": "CFG001", "code": "code", "path": None, "message": "message"},
            {"fingerprint": "fp-a1", "rule": "CMD001", "code": "code", "path": "src/a.py", "message": "message"},
            {"fingerprint": "fp-a2", "rule": "CMD001", "code": "code", "path": "src/a.py", "message": "message"},
            {"fingerprint": "fp-b", "rule": "KEY005", "code": "code", "path": "src/b.py", "message": "键名过长"},
        ],
    }
    assert "键名过长" in target.read_text(encoding="utf-8")  # readable, not \\u-escaped
    loaded = load_baseline(target)
    assert loaded.created == "2025-06-01" and loaded.path == str(target)
    assert loaded.entries[3] == BaselineEntry("fp-b", "KEY005", "code", "src/b.py", "键名过长")
    assert loaded.filter(findings) == ([], 4, 0)


def test_multiset_matching_and_fixed_count() -> None:
    baseline = Baseline("b.json", "", tuple(BaselineEntry(fp, "CMD001", "code", "a.py", "m") for fp in "xxyz"))
    findings = [finding("CMD001", line=n, fingerprint="x") for n in (1, 2, 3)] + [finding("CMD001", fingerprint="y")]
    new, matched, fixed = baseline.filter(findings)
    assert [f.location.line for f in new] == [3]  # two `x` were baselined: the third is new
    assert (matched, fixed) == (3, 1)  # `z` is no longer found


def test_a_moved_finding_still_matches(tmp_path: Path) -> None:
    """Code fingerprints do not contain the line: the same fingerprint forty lines lower is the same finding."""
    target = tmp_path / "b.json"
    write_baseline([finding("CMD001", "a.py", 10, fingerprint="same")], target, created=DAY)
    moved = finding("CMD001", "a.py", 50, fingerprint="same")
    assert load_baseline(target).filter([moved]) == ([], 1, 0)


def test_write_is_atomic_and_keeps_permissions(tmp_path: Path) -> None:
    target = tmp_path / "b.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_baseline([finding("CMD001")], target, created=DAY)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]  # no temporary file left behind
    fresh = tmp_path / "new.json"
    write_baseline([], fresh, created=DAY)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
    assert json.loads(fresh.read_text())["findings"] == []


def test_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "b.json"
    target.write_text("old")
    with pytest.raises(TypeError):
        write_baseline([finding("CMD001", fingerprint=object())], target, created=DAY)  # type: ignore[arg-type]
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]


def test_non_utf8_file_name_round_trips(tmp_path: Path) -> None:
    name = b"caf\xe9.py".decode("utf-8", "surrogateescape")
    target = tmp_path / "b.json"
    write_baseline([finding("CMD001", name, fingerprint="fp")], target, created=DAY)
    target.read_bytes().decode("utf-8")  # still valid UTF-8 on disk
    assert load_baseline(target).entries[0].path == name


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "not a rediscipline baseline (bad JSON at line 1 column 2: Expecting property name"),
        (b"\xff\xfe{}", "not a rediscipline baseline (not UTF-8 text)"),
        (b"[]", 'not a rediscipline baseline (no "tool": "rediscipline")'),
        (b'{"tool": "ruff", "version": 1}', 'not a rediscipline baseline (no "tool": "rediscipline")'),
        (b'{"tool": "rediscipline", "version": 2, "findings": []}', "baseline version 2 is not supported (expected 1)"),
        (b'{"tool": "rediscipline", "findings": []}', "baseline version null is not supported (expected 1)"),
        (b'{"tool": "rediscipline", "version": 1}', 'baseline has no "findings" list'),
        (b'{"tool": "rediscipline", "version": 1, "findings": [{"rule": "CMD001"}]}', "finding 1 has no fingerprint"),
        (b"[" * 100_000 + b"]" * 100_000, "not a rediscipline baseline"),
    ],
)
def test_corrupt_file_is_a_one_line_error_naming_it(tmp_path: Path, content: bytes, message: str) -> None:
    target = tmp_path / "baseline.json"
    target.write_bytes(content)
    with pytest.raises(ConfigError) as caught:
        load_baseline(target)
    text = str(caught.value)
    assert text.startswith(f"{target}: ") and message in text
    assert "\n" not in text


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.json: cannot read the baseline: No such file or directory$"):
        load_baseline(tmp_path / "missing.json")
