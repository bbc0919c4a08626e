"""Reports stay small when key names are huge: 22 keys of 1 MB upper-case and camelCase names, in a key list
(`rediscipline keys`) and on a real server (`rediscipline scan`).

Every message, pattern and example shown is bounded (`model.display`); in JSON the exact bytes of a cut
example key are written once, base64, in `long_names`, and examples point at them with `key_ref`. So the
text report is a few KB, and the JSON report is the exact bytes of the example keys once each (4/3 for
base64) plus a bounded overhead, instead of every name several times over in messages, patterns and examples.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.live.conftest import cli_env, run_scan
from tests.support.kinds import require_kind
from tests.support.servers import start_server

MB = 1 << 20
UPPER = [b"user:" + b"A" * MB + b"%d" % i for i in range(11)]
CAMEL = [b"user:" + b"abCd" * (MB // 4) + b"%d" % i for i in range(11)]
KEYS = UPPER + CAMEL
TEXT_BOUND = 64 * 1024
#: Everything in the JSON report but the exact bytes in `long_names`: a fixed size whatever the keys hold (the
#: rules that fired with their cited sentences in both languages, the keyspace summary with its expiry timeline
#: of 2,160 counts, the server's section), about 70 KB for this scan.
OVERHEAD_BOUND = 96 * 1024
#: SARIF logs carry the full documentation of every rule that fired (a live scan fires server rules too).
BOUND = {"text": TEXT_BOUND, "github": TEXT_BOUND, "sarif": 256 * 1024}


def _keys_cli(path: Path, fmt: str, cwd: Path) -> bytes:
    result = subprocess.run(
        [sys.executable, "-m", "rediscipline", "keys", str(path), "--format", fmt, "--isolated"],
        capture_output=True,
        cwd=cwd,
        env=cli_env(),
        timeout=300,
        check=False,
    )
    assert result.returncode == 1, result.stderr.decode(errors="replace")[-2000:]
    return result.stdout


def _check_json(raw: bytes) -> dict[str, Any]:
    """The JSON report of the 22 keys: bounded fields, each example key's exact bytes once, recoverable."""
    data: dict[str, Any] = json.loads(raw)
    table = [base64.b64decode(entry["b64"]) for entry in data["long_names"]]
    assert all(len(name) == entry["length"] for name, entry in zip(table, data["long_names"], strict=True))
    assert set(table) <= set(KEYS) and len(set(table)) == len(table)
    exact = sum(len(entry["b64"]) for entry in data["long_names"])
    assert len(raw) - exact < OVERHEAD_BOUND, f"{len(raw):,} bytes, {exact:,} of them exact names"
    for name in table:
        assert raw.count(base64.b64encode(name)) == 1
    keyed = [f for f in data["findings"] if f.get("pattern") is not None]
    assert {f["rule"] for f in keyed} >= {"KEY005", "KEY006", "KEY007"}
    for finding in keyed:
        assert len(finding["message"]) < 1024 and len(finding["pattern"]) < 250
        assert finding["pattern_length"] > MB
        for example in finding["examples"]:
            assert example["key_length"] == len(table[example["key_ref"]])
            assert table[example["key_ref"]] in KEYS  # the exact bytes of the example, from `long_names`
            assert example["key"].endswith(f"…({example['key_length']:,} bytes)")
    camel = next(f for f in keyed if f["rule"] == "KEY007")
    assert camel["message"].startswith("camelCase in the key name: `abCdabCd")
    # The word (the trailing digit is a variable part) is quoted cut, with its length; its fix is the head's.
    assert f"…({MB:,} bytes)` (→ `ab_cdab_cd" in camel["message"]
    return data


def test_key_list(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"".join(key + b"\n" for key in KEYS))
    text = _keys_cli(path, "text", tmp_path)
    assert len(text) < TEXT_BOUND, f"{len(text):,} bytes of text"
    assert b"user:" + b"A" * 195 + "…(1,048,582 bytes)".encode() in text  # a name is cut and shows its length
    data = _check_json(_keys_cli(path, "json", tmp_path))
    assert data["summary"]["keys"] == 22
    for fmt in ("sarif", "github"):
        assert len(_keys_cli(path, fmt, tmp_path)) < BOUND[fmt]


def test_live_scan(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            for key in KEYS:
                client.set(key, b"1")
        text = run_scan(server.url, cwd=tmp_path, fmt="text")
        assert text.returncode == 1, text.describe()
        assert len(text.stdout) < TEXT_BOUND, f"{len(text.stdout):,} bytes of text"
        report = run_scan(server.url, cwd=tmp_path)
        assert report.returncode == 1, report.describe()
        data = _check_json(report.stdout)
        top = data["keyspace"]["top_by_memory"]
        assert len(top) == 20 and all(data["long_names"][k["key_ref"]]["length"] > MB for k in top)


@pytest.mark.parametrize("fmt", ["sarif", "github"])
def test_live_scan_other_formats(tmp_path: Path, fmt: str) -> None:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            for key in KEYS[:3] + KEYS[-3:]:
                client.set(key, b"1")
        result = run_scan(server.url, cwd=tmp_path, fmt=fmt)
        assert result.returncode == 1, result.describe()
        assert len(result.stdout) < BOUND[fmt]
