"""`rediscipline simulate expiry URL` and `… REPORT.json` against real servers: the server's keys with a TTL
per database and its expire settings read, the same prediction from the server and from its scan's report,
a mass expiry found as a storm (EXP002) and expired keys held against maxmemory (EXP001), the password never
shown, and the inputs that cannot be read refused in one line."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import run_cli
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, refused_port, start_server

PASSWORD = "s3cret-pw-4711"


def cli(*args: str, command: str = "simulate") -> subprocess.CompletedProcess[str]:
    head = ("simulate", "expiry") if command == "simulate" else (command,)
    return run_cli(*head, *args, timeout=300)


def load(server: ServerProcess) -> None:
    """db 0: 30,000 keys due in the 20th minute from now, all in the same second (a cliff), and 10,000 due in
    2 to 3 hours; db 2: 5,000 keys due in an hour; 1,000 keys without a TTL."""
    client = server.client()
    deadline = int(time.time() * 1000) + 20 * 60_000
    pipe = client.pipeline(transaction=False)
    for number in range(30_000):
        pipe.set(b"flash:item:%d" % number, b"v" * 200, pxat=deadline)
    for number in range(10_000):
        pipe.set(b"session:%d" % number, b"s" * 100, ex=7200 + number % 3600)
    for number in range(1_000):
        pipe.set(b"config:%d" % number, b"c")
    pipe.execute()
    other = server.client(db=2).pipeline(transaction=False)
    for number in range(5_000):
        other.set(b"cart:%d" % number, b"x" * 50, ex=3600)
    other.execute()


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70", ["--hz", "20", "--lazyfree-lazy-expire", "yes"], password=PASSWORD) as started:
        load(started)
        yield started


def run_json(*args: str) -> dict[str, object]:
    done = cli(*args, "--format", "json", "--exit-zero")
    assert done.returncode == 0, done.stderr
    assert PASSWORD not in done.stdout + done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_server_is_read_with_its_settings_and_its_cliff_is_a_storm(server: ServerProcess) -> None:
    """30,000 keys due in one second cost the cycle 30 ms at 1 µs a key (no storm); at 100 µs a key (big values
    freed in the cycle) they take 3 s of deleting, 12.5 ms a slow cycle (hz 20) and fast cycles between: the
    slow cycles run at their limit for more than a second, a storm."""
    url = server.url_for(password=PASSWORD)
    calm = run_json(url, "--seconds", "1800", "--step", "60")
    assert [f["rule"] for f in calm["findings"] if f["rule"] == "EXP002"] == []  # type: ignore[attr-defined]
    report = run_json(url, "--seconds", "1800", "--step", "60", "--delete-us", "100")
    expiry = report["simulation"]["expiry"]  # type: ignore[index]
    assert PASSWORD not in expiry["path"] and str(server.port) in expiry["path"]
    assert [(v["db"], v["keys"]) for v in expiry["volatile"]] == [(0, 40_000), (2, 5_000)]
    settings = expiry["settings"]
    assert (settings["hz"], settings["lazyfree_lazy_expire"], settings["active_expire_effort"]) == (20, True, 1)
    assert settings["algorithm"] == "cursor" and settings["sweep_per_second"] == 400
    findings = {finding["rule"]: finding for finding in report["findings"]}  # type: ignore[attr-defined]
    assert set(findings) == {"EXP002"}
    storm = findings["EXP002"]
    # the 30,000 keys are due in the 20th minute: the storm is in that minute's step
    assert storm["subject"] in ("storm at +19 min", "storm at +20 min"), storm
    # the report's timeline is the server's: each database gets its share of every minute (db 0 8/9 of the cliff)
    at_1200 = [point for point in expiry["series"] if point["t"] == 1200.0]
    assert sum(point["expired_in_memory"] + point["reclaimed"] for point in at_1200) > 0
    at_1800 = [point for point in expiry["series"] if point["t"] == 1800.0]
    assert sum(point["reclaimed"] for point in at_1800) >= 29_000  # found by the loops the cliff repeats


def test_the_servers_report_gives_the_same_prediction(server: ServerProcess, tmp_path: Path) -> None:
    url = server.url_for(password=PASSWORD)
    scanned = cli(url, "--format", "json", "--exit-zero", "--output", str(tmp_path / "scan.json"), command="scan")
    assert scanned.returncode == 0, scanned.stderr
    from_report = run_json(str(tmp_path / "scan.json"), "--seconds", "1800", "--step", "300")
    from_server = run_json(url, "--seconds", "1800", "--step", "300")
    ours, theirs = from_report["simulation"]["expiry"], from_server["simulation"]["expiry"]  # type: ignore[index]
    assert ours["volatile"] == theirs["volatile"] and ours["settings"] == theirs["settings"]
    for mine, other in zip(ours["series"], theirs["series"], strict=True):
        assert (mine["db"], mine["t"]) == (other["db"], other["t"])
        # the two scans read the TTLs seconds apart: the cliff's keys, all due in one millisecond, are split
        # between two seconds differently (the busiest second is rebuilt as one, the rest over its minute)
        assert abs(mine["reclaimed"] - other["reclaimed"]) <= 0.05 * max(mine["reclaimed"], 1000)
    assert [f["rule"] for f in from_report["findings"]] == [f["rule"] for f in from_server["findings"]]  # type: ignore[attr-defined]


def test_expired_keys_held_against_maxmemory(server: ServerProcess) -> None:
    """db 0's 10,000 sessions fall due one every 0.36 s from 2 h on: too few at a time for the cycle's loops to
    repeat, so each waits for the cursor (20 keys a second at hz 1 over tens of thousands of keys); with a small
    maxmemory what they hold is above EXP001's share."""
    url = server.url_for(password=PASSWORD)
    report = run_json(url, "--seconds", "10800", "--step", "600", "--maxmemory", "512kb", "--hz", "1")
    findings = {finding["rule"]: finding for finding in report["findings"]}  # type: ignore[attr-defined]
    assert "EXP001" in findings, report["findings"]
    assert "of maxmemory 512.0 KB" in findings["EXP001"]["message"]
    assert report["simulation"]["expiry"]["settings"]["hz"] == 1  # type: ignore[index]


def test_a_wrong_password_and_no_server_are_one_line(server: ServerProcess) -> None:
    done = cli(server.url_for(password="not-" + PASSWORD))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "not-" + PASSWORD not in done.stderr and "Traceback" not in done.stderr
    done = cli(f"redis://127.0.0.1:{refused_port()}")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--sample", "100"), "--sample only apply to a server URL"),
        (("--user", "ops"), "--user only apply to a server URL"),
    ],
)
def test_server_options_need_a_server(tmp_path: Path, args: tuple[str, ...], error: str) -> None:
    path = tmp_path / "r.json"
    path.write_text("{}")
    done = cli(str(path), *args)
    assert done.returncode == 2 and error in done.stderr, done.stderr


def test_a_report_that_is_not_a_scan_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "app.py"
    source.write_text("import redis\nredis.Redis().keys('*')\n")
    checked = cli(
        str(source), "--format", "json", "--exit-zero", "--output", str(tmp_path / "check.json"), command="check"
    )
    assert checked.returncode == 0, checked.stderr
    done = cli(str(tmp_path / "check.json"))
    assert done.returncode == 2 and "is not the report of a scan or a dump" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
