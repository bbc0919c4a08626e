"""A progress bar for long scans: keys/s and ETA on a terminal, nothing when stderr is not one."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

ProgressCallback = Callable[[int, int], None]  # (done, total): keys or bytes


class _Rate(TextColumn):
    """Keys per second, as a whole number (rich's own speed column shows bytes)."""

    def __init__(self) -> None:
        super().__init__("")

    def render(self, task):  # type: ignore[no-untyped-def]  # rich's column API is untyped
        speed = task.finished_speed or task.speed
        return f"{speed:,.0f} keys/s" if speed else "… keys/s"


@contextmanager
def scan_progress(label: str, enabled: bool | None = None, unit: str = "keys") -> Iterator[ProgressCallback | None]:
    """Yield a `(done, total)` callback drawing a bar on stderr, or None when stderr is not a terminal.

    `unit` is "keys" (a live scan: keys done of the keyspace) or "bytes" (dumps: bytes parsed of their size).
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        *((DownloadColumn(), TransferSpeedColumn()) if unit == "bytes" else (MofNCompleteColumn(), _Rate())),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=max(total, done) or None)

    with bar:
        yield update
