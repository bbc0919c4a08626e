"""A server that changes or goes away under a long scan: dropped connections spread over the scan never end
it, a server gone for good leaves a partial report with its resume cursor, and a restart, a FLUSHALL or a
mass deletion mid-scan marks the report instead of letting it silently cover a fraction of the keys."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rediscipline.api import LiveScanOptions, scan_live, settings_for
from rediscipline.model.report import Report, ServerSummary
from rediscipline.render.notes import note_text
from rediscipline.settings.loader import Overrides
from tests.live.conftest import cli_env, run_scan, scan_command
from tests.support.dataset import bulk
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

KEYS = 30_000
SETTINGS = settings_for(Overrides(isolated=True, select=("KEY001",)))


@pytest.fixture
def big() -> Iterator[ServerProcess]:
    """A Redis 7.0 with KEYS clean keys in db 0, its own for each test (the tests break or flush it)."""
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            bulk(client, KEYS)
        yield server


def _every(step: int, action: Callable[[], None], times: int = 1_000) -> Callable[[int, int], None]:
    """A progress callback that runs `action` each time `step` more names have been listed (at most `times`)."""
    done = 0

    def progress(listed: int, _total: int) -> None:
        nonlocal done
        if done < times and listed >= (done + 1) * step:
            done += 1
            action()

    return progress


def _server(report: Report) -> ServerSummary:
    assert report.stats.server is not None
    return report.stats.server


# ---- dropped connections ------------------------------------------------------------------------------------------


def test_connections_dropped_all_over_a_long_scan_never_end_it(big: ServerProcess) -> None:
    """Twelve kills, four times the budget of failures in a row: each round trip after a reconnection refills it."""
    killer = big.client()
    killed: list[int] = []

    def drop() -> None:  # the scanner's connection: every normal client but this one
        killed.append(int(killer.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")))

    report = scan_live(LiveScanOptions(big.url, batch=10), SETTINGS, progress=_every(2_400, drop, times=12))
    killer.close()
    assert killed == [1] * 12
    assert report.stats.keys == KEYS  # every key once: no key lost, none reported twice
    server = _server(report)
    assert (server.partial, server.resume_cursor, server.stopped) == ((), None, None)
    assert any(note_text(n, "en").startswith("the connection was lost and reopened 12 times") for n in report.notes)


def test_client_kill_loop_from_another_connection(big: ServerProcess, tmp_path: Path) -> None:
    """The CLI under a second connection that kills the scanner's connection every 0.4 s for the whole scan.

    --max-ops stretches the scan to several seconds (with the summary's probes: four commands a key), so that it
    sees many kills (a slower machine, more).
    """
    stop = threading.Event()
    kills = []

    def loop() -> None:
        with big.client() as killer:
            while not stop.wait(0.4):
                kills.append(int(killer.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")))

    process = subprocess.Popen(
        scan_command(big.url, "--batch", "10", "--max-ops", "30000", "--select", "KEY001", "--summary"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=cli_env(),
    )
    thread = threading.Thread(target=loop)
    thread.start()
    try:
        stdout, stderr = process.communicate(timeout=300)
    finally:
        stop.set()
        thread.join()
    assert process.returncode == 0, stderr.decode()[-2000:]
    assert sum(kills) >= 5, f"only {sum(kills)} connections were killed: the scan was too quick for the test"
    report = json.loads(stdout)
    assert report["summary"]["keys"] == KEYS
    assert report["server"]["partial"] == []
    assert any(note.startswith("the connection was lost and reopened") for note in report["notes"])


def test_server_gone_for_good_leaves_a_partial_report_with_its_cursor(big: ServerProcess) -> None:
    report = scan_live(LiveScanOptions(big.url, batch=20, retries=2), SETTINGS, progress=_every(5_000, big.kill, 1))
    server = _server(report)
    assert server.partial == ("connection-lost",)
    assert server.resume_cursor is not None and server.resume_cursor.startswith("0:")
    assert server.stopped is not None and "connection refused" in server.stopped
    assert 4_000 <= report.stats.keys < KEYS  # the keys listed but in flight when the server died are not in it
    note = next(note_text(n, "en") for n in report.notes if note_text(n, "en").startswith("scan stopped:"))
    assert note.endswith(f"this report covers the keys seen so far; continue with --resume {server.resume_cursor}")


# ---- the keyspace changing under the scan ---------------------------------------------------------------------------


def test_restart_mid_scan_is_detected_by_run_id(big: ServerProcess) -> None:
    report = scan_live(LiveScanOptions(big.url, batch=50), SETTINGS, progress=_every(6_000, big.restart, 1))
    server = _server(report)
    assert "server-restarted" in server.partial
    assert "keyspace-shrank" in server.partial  # the restarted server is empty: persistence is off
    assert report.stats.keys < KEYS
    assert any("the server restarted during the scan (its run_id changed)" in note_text(n, "en") for n in report.notes)
    assert dict(server.dbs) == {0: KEYS} and server.dbs_at_end == ((0, 0),)


def test_flushall_mid_scan(big: ServerProcess) -> None:
    def flush() -> None:
        with big.client() as client:
            client.flushall()

    report = scan_live(LiveScanOptions(big.url), SETTINGS, progress=_every(6_000, flush, 1))
    server = _server(report)
    assert server.partial == ("flushed", "keyspace-shrank")
    assert any(note_text(n, "en").startswith("FLUSHALL or FLUSHDB ran during the scan (1 calls)") for n in report.notes)
    assert any(
        note_text(n, "en").startswith(f"the keyspace shrank during the scan, from {KEYS:,} keys") for n in report.notes
    )


def test_flushall_and_refill_mid_scan_is_still_seen(big: ServerProcess) -> None:
    """The key count is back where it was by the end: only the FLUSHALL calls in commandstats tell."""

    def flush_and_refill() -> None:
        with big.client() as client:
            client.flushall()
            bulk(client, KEYS)

    report = scan_live(LiveScanOptions(big.url), SETTINGS, progress=_every(6_000, flush_and_refill, 1))
    assert "flushed" in _server(report).partial


def test_mass_deletion_seen_by_a_user_without_info(big: ServerProcess) -> None:
    with big.client() as client:
        client.execute_command(
            "ACL", "SETUSER", "noinfo", "reset", "on", ">pw", "~*", "&*", "-@all", "+@read", "+scan", "+select"
        )

    def delete_most() -> None:
        with big.client() as client:
            names = [name for name in client.scan_iter(count=1000) if not name.endswith(b"7")]
            for start in range(0, len(names), 1000):
                client.unlink(*names[start : start + 1000])

    url = big.url_for("noinfo", "pw")
    report = scan_live(LiveScanOptions(url), SETTINGS, progress=_every(3_000, delete_most, 1))
    server = _server(report)
    assert "INFO" in dict(server.unavailable)
    assert server.partial == ("keyspace-shrank",)


def test_flush_seen_by_a_user_without_info_nor_select(big: ServerProcess) -> None:
    """DBSIZE on the connection's own database, at the start and at the end, is all this user can ask."""
    with big.client() as client:
        client.execute_command("ACL", "SETUSER", "bare", "reset", "on", ">pw", "~*", "&*", "-@all", "+@read", "+scan")

    def flush() -> None:
        with big.client() as client:
            client.flushdb()

    report = scan_live(LiveScanOptions(big.url_for("bare", "pw")), SETTINGS, progress=_every(3_000, flush, 1))
    server = _server(report)
    assert server.partial == ("keyspace-shrank", "databases-not-scanned")
    assert server.dbs_at_end == ((0, 0),)


def test_a_quiet_scan_is_not_marked(big: ServerProcess) -> None:
    report = scan_live(LiveScanOptions(big.url), SETTINGS)
    server = _server(report)
    assert (server.partial, server.dbs_at_end) == ((), ((0, KEYS),))
    assert report.stats.keys == KEYS


# ---- a continuation is labelled -------------------------------------------------------------------------------------


def test_resumed_scan_is_labelled_as_a_continuation(big: ServerProcess, tmp_path: Path) -> None:
    def interrupt() -> None:
        raise KeyboardInterrupt

    first = scan_live(LiveScanOptions(big.url, batch=20), SETTINGS, progress=_every(4_000, interrupt, 1))
    assert _server(first).partial == ("interrupted",)
    cursor = _server(first).resume_cursor
    assert cursor is not None
    rest = run_scan(big.url, "--resume", cursor, "--select", "KEY001", cwd=tmp_path)
    assert rest.returncode == 0, rest.describe()
    server = rest.report["server"]
    assert (server["resumed_from"], server["partial"], server["resume_cursor"]) == (cursor, ["resumed"], None)
    assert any(n.startswith(f"continuation of an earlier scan from --resume {cursor}") for n in rest.report["notes"])
    assert first.stats.keys + rest.report["summary"]["keys"] >= KEYS
    text = run_scan(big.url, "--resume", cursor, "--select", "KEY001", cwd=tmp_path, fmt="text").stdout.decode()
    assert f"continuation from --resume {cursor}: counts cover only the keys from that cursor on" in text
    assert "PARTIAL: resumed" in text
