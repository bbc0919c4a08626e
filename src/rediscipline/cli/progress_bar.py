"""The rich progress bar `cli.progress.scan_progress` draws on a terminal (imported only when it draws one)."""

from __future__ import annotations

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


class _Rate(TextColumn):
    """Keys per second, as a whole number (rich's own speed column shows bytes)."""

    def __init__(self) -> None:
        super().__init__("")

    def render(self, task):  # type: ignore[no-untyped-def]  # rich's column API is untyped
        speed = task.finished_speed or task.speed
        return f"{speed:,.0f} keys/s" if speed else "… keys/s"


def progress_bar(unit: str) -> Progress:
    """A transient bar on stderr: bytes parsed of their size and the byte rate (`unit` "bytes"), or keys done
    of the keyspace and keys per second ("keys"), with the elapsed time and the ETA."""
    return Progress(
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
