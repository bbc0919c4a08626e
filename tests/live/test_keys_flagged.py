"""`keys_flagged` counts the keys behind aggregate findings: 10,000 keys expiring in the same second are
10,000 keys with a warning, not 0."""

from __future__ import annotations

import time
from pathlib import Path

from tests.live.conftest import run_scan
from tests.support.kinds import require_kind
from tests.support.servers import start_server

KEYS = 10_000


def test_expiry_cliff_keys_are_flagged(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as server:
        at = int(time.time()) + 3 * 3600
        with server.client() as client:
            pipe = client.pipeline(transaction=False)
            for index in range(KEYS):
                pipe.set(b"cache:item:%d" % index, b"v", exat=at)
            for index in range(500):
                pipe.set(b"plain:%d" % index, b"v", ex=3600 + index * 7)
            pipe.execute()
        result = run_scan(server.url, "--select", "TTL002", cwd=tmp_path)
    assert result.returncode == 1, result.describe()
    report = result.report
    assert [(f["rule"], f["pattern"], f["count"]) for f in report["findings"]] == [("TTL002", "cache:item:*", KEYS)]
    assert report["summary"]["keys_flagged"] == KEYS
    assert report["summary"]["keys"] == KEYS + 500
