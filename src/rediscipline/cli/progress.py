"""A progress bar for long scans: keys/s and ETA on a terminal, nothing when stderr is not one.

The bar itself (`cli.progress_bar`, and with it rich) is imported only when one is drawn: a scan whose stderr
is not a terminal, or run with --no-progress, never loads it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

ProgressCallback = Callable[[int, int], None]  # (done, total): keys or bytes


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
    from rediscipline.cli.progress_bar import progress_bar

    bar = progress_bar(unit)
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=max(total, done) or None)

    with bar:
        yield update
