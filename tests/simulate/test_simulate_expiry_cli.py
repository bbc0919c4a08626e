"""`rediscipline simulate expiry DUMP` as a user runs it: a dump's keys with a TTL followed through the active
expire cycle (JSON and text), what-ifs, a dump without TTLs, bad options."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import run_cli
from tests.support.rdbwriter import RdbBuilder

CTIME = 1_795_000_000


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("simulate", "expiry", *args)


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    """db 0: 4,000 keys expiring in an hour, 200 sessions expiring 5 s after the dump was made; db 3: keys
    without a TTL."""
    builder = RdbBuilder().aux(b"ctime", str(CTIME).encode()).select(0)
    for number in range(4_000):
        builder.string(b"bg:%d" % number, b"v" * 50, expire_ms=(CTIME + 3600) * 1000)
    for number in range(200):
        builder.string(b"session:%d" % number, b"v" * 50, expire_ms=(CTIME + 5) * 1000)
    builder.select(3)
    for number in range(50):
        builder.string(b"persist:%d" % number, b"x")
    path = tmp_path / "dump.rdb"
    path.write_bytes(builder.build())
    return path


def test_json_has_the_series_of_each_database_with_a_ttl(dump: Path) -> None:
    done = cli(str(dump), "--seconds", "60", "--step", "10", "--format", "json")
    assert done.returncode == 0, done.stderr
    expiry = json.loads(done.stdout)["simulation"]["expiry"]
    assert expiry["start_ms"] == CTIME * 1000
    assert [(v["db"], v["keys"]) for v in expiry["volatile"]] == [(0, 4_200)]
    series = expiry["series"]
    assert [point["t"] for point in series] == [0, 10, 20, 30, 40, 50, 60]
    assert series[0]["expired_in_memory"] == 0 and series[0]["reclaimed"] == 0
    for point in series[1:]:
        assert point["expired_in_memory"] + point["reclaimed"] == 200  # every session has expired by 10 s
        assert point["expired_in_memory_bytes"] > 0 or point["expired_in_memory"] == 0
    reclaimed = [point["reclaimed"] for point in series]
    # the cursor sweeps about 200 keys a second: the 4,200 keys' table takes about 20 s to sweep
    assert reclaimed == sorted(reclaimed) and 0 < reclaimed[1] < 200 and reclaimed[-1] == 200
    assert len(expiry["steps"]) == 6 and all(0 <= step["cpu_share"] < 0.01 for step in expiry["steps"])


def test_text_shows_the_series_and_a_dump_without_ttls_says_so(dump: Path, tmp_path: Path) -> None:
    done = cli(str(dump), "--seconds", "60", "--step", "10")
    assert done.returncode == 0, done.stderr
    assert "db 0: 4,200 keys with a TTL" in done.stdout and "keys past their TTL over time" in done.stdout
    empty = tmp_path / "empty.rdb"
    empty.write_bytes(RdbBuilder().aux(b"ctime", str(CTIME).encode()).select(0).string(b"k", b"v").build())
    done = cli(str(empty), "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["simulation"]["expiry"]["series"] == [] and report["simulation"]["expiry"]["volatile"] == []
    assert report["notes"] == ["none of the 1 keys read has a TTL: nothing expires, there is no series to show"]


def test_a_jitter_spreads_the_matching_ttls(dump: Path) -> None:
    """Without jitter all 200 sessions expire by 10 s; with 'session:*=1000%' their 5 s TTLs grow by up to 50 s,
    so fewer have expired at 10 s."""
    done = cli(str(dump), "--seconds", "20", "--step", "10", "--jitter", "session:*=1000%", "--format", "json")
    assert done.returncode == 0, done.stderr
    expiry = json.loads(done.stdout)["simulation"]["expiry"]
    at_10 = next(point for point in expiry["series"] if point["t"] == 10)
    assert at_10["expired_in_memory"] + at_10["reclaimed"] < 100
    assert expiry["settings"]["jitter"] == [{"pattern": "session:*", "share": 10.0}]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--jitter", "session:*"), "'session:*' is not PATTERN=PERCENT% (e.g. 'session:*=10%')"),
        (("--jitter", "session:*=ten%"), "'session:*=ten%' is not PATTERN=PERCENT%"),
        (("--seconds", "60", "--step", "120"), "--step must be above 0 and at most --seconds, not 120"),
        (("--effort", "11"), "--effort"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(dump: Path, args: tuple[str, ...], error: str) -> None:
    done = cli(str(dump), *args)
    assert done.returncode == 2 and error in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_corrupt_dump_is_one_line_with_its_offset(tmp_path: Path) -> None:
    path = tmp_path / "bad.rdb"
    path.write_bytes(b"REDIS0011\xfa\x05ctime")
    done = cli(str(path))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "offset" in done.stderr or "end of file" in done.stderr, done.stderr
