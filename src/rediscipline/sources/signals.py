"""Worker processes that a Ctrl-C does not reach: the caller decides what an interrupt stops.

A Ctrl-C is delivered to every process of the terminal's foreground group. Worker processes started with
SIGINT blocked inherit the blocked signal, so only the process that started them sees it, and stops them in
its own way (the dump workers are told to stop, a pool's workers are terminated).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread while workers start: they inherit the signal mask. A SIGINT that arrives
    meanwhile stays pending here and is delivered when the mask is restored."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no process groups receive a Ctrl-C together there
        yield
        return
    resource_tracker.ensure_running()  # starting it unblocks SIGINT afterwards: have it running before blocking
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


__all__ = ["sigint_blocked"]
