"""In-process scans through the library API: a dropped connection resumes from the same cursor without
reporting a key twice, Ctrl-C returns the partial report with a resume cursor, and --resume continues it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rediscipline.api import LiveScanOptions, scan_live, settings_for
from rediscipline.settings.loader import Overrides
from tests.live.conftest import connect
from tests.support.dataset import Manifest
from tests.support.servers import ServerProcess

SETTINGS = settings_for(Overrides(isolated=True, select=("KEY001",)))


def _when(after: int, action: Callable[[], None]) -> Callable[[int, int], None]:
    """A progress callback that runs `action` once, when `after` names have been listed."""
    done = False

    def progress(listed: int, _total: int) -> None:
        nonlocal done
        if not done and listed >= after:
            done = True
            action()

    return progress


def _total_keys(server: ServerProcess, manifest: Manifest) -> int:
    with connect(server) as client:
        info = client.info("keyspace")
    return sum(int(db["keys"]) for db in info.values())


def test_dropped_connection_resumes_without_duplicates(redis70: ServerProcess, redis70_dataset: Manifest) -> None:
    killer = connect(redis70)

    def drop() -> None:  # every other client connection, i.e. the scanner's
        killer.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")

    report = scan_live(LiveScanOptions(redis70.url, batch=20), SETTINGS, progress=_when(1000, drop))
    killer.close()
    assert report.stats.keys == _total_keys(redis70, redis70_dataset)
    assert report.stats.server is not None and report.stats.server.resume_cursor is None


def test_interrupt_returns_partial_report_and_resume_finishes(
    redis70: ServerProcess, redis70_dataset: Manifest
) -> None:
    def interrupt() -> None:
        raise KeyboardInterrupt

    options = LiveScanOptions(redis70.url, db=0, batch=20)
    partial = scan_live(options, SETTINGS, progress=_when(1000, interrupt))
    server = partial.stats.server
    assert server is not None and server.resume_cursor is not None
    assert server.resume_cursor.startswith("0:")
    assert any("--resume" in note.en for note in partial.notes)
    rest = scan_live(LiveScanOptions(redis70.url, db=0, batch=20, resume=server.resume_cursor), SETTINGS)
    with connect(redis70) as client:
        in_db0 = client.dbsize()
    # SCAN guarantees every key present for the whole scan at least once; the batch in flight is repeated
    assert in_db0 <= partial.stats.keys + rest.stats.keys <= in_db0 + 20 * 8


def test_bad_resume_cursor(redis70: ServerProcess) -> None:
    from rediscipline.sources.errors import SourceError

    with pytest.raises(SourceError, match="DB:CURSOR"):
        scan_live(LiveScanOptions(redis70.url, resume="abc"), SETTINGS)
