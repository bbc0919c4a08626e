"""A baseline of a live server: `baseline create --scan URL` records the findings, `scan URL --baseline` hides
them and reports a pattern that appeared since."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.live.conftest import cli_env
from tests.support.kinds import require_kind
from tests.support.servers import start_server


def _rediscipline(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "rediscipline", *args, "--isolated", "--select", "KEY,TTL001"]
    return subprocess.run(command, capture_output=True, cwd=cwd, env=cli_env(), timeout=120, check=False)


def test_a_server_baseline_hides_known_findings(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as server, server.client() as client:
        client.mset({b"User Name:%d" % i: b"x" for i in range(5)})  # KEY001, KEY006; no TTL (TTL001)
        created = _rediscipline("baseline", "create", "--scan", server.url, "--output", "b.json", cwd=tmp_path)
        assert created.returncode == 0, created.stderr.decode()
        assert created.stderr.decode() == "rediscipline: wrote 3 finding(s) from 5 key(s) to b.json\n"
        known = _rediscipline("scan", server.url, "--baseline", "b.json", "--format", "json", cwd=tmp_path)
        assert known.returncode == 0, known.stderr.decode()
        assert json.loads(known.stdout)["findings"] == []
        client.set(b"Order:1", b"x", ex=600)
        again = _rediscipline("scan", server.url, "--baseline", "b.json", "--format", "json", cwd=tmp_path)
    report = json.loads(again.stdout)
    assert {(f["rule"], f["pattern"]) for f in report["findings"]} == {("KEY006", "Order:*")}
    assert "baseline b.json: 3 known finding(s) hidden, 0 no longer seen" in report["notes"]
