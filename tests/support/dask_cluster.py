"""A real Dask cluster on this machine for the tests: a `distributed.LocalCluster` of two worker processes with
one thread each (the work holds the GIL), listening on loopback, closed at the end."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from distributed import LocalCluster


@contextmanager
def local_scheduler() -> Iterator[str]:
    """The address of the scheduler of a fresh two-worker LocalCluster, for as long as the block runs."""
    cluster = LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()
