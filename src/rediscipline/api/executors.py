"""Where independent pieces of work run: in this process, in a local process pool, or on a Dask cluster.

A run that reads many targets or dumps hands `map_unordered` a module-level function and the items; each
result comes back with the index of its item as soon as it is finished, whatever the order. The function runs
elsewhere, so it and its items and results must pickle, and it must be importable where it runs (a function of
this package is, on any machine with the same version installed). It is expected to catch the errors a user
can cause and return them as data: an exception it raises is a bug, and propagates to the caller with its own
type.

`executor_for(spec, concurrency=N)`:

- `None` or `"local"`: a `concurrent.futures.ProcessPoolExecutor` of N workers, or this process when N is 1
  or there is a single item (no pool is worth starting for one piece of work).
- `"inline"`: this process, items in order (debugging, profiling, tests).
- `"dask://HOST:PORT"`, `"tcp://HOST:PORT"`, `"tls://HOST:PORT"`: a `distributed.Client` of an existing
  scheduler (`dask://` is `tcp://`; the port defaults to Dask's 8786). Each item is one task
  (`client.map(..., pure=False)`); results are gathered as they complete, and only they travel back. The
  cluster's worker threads bound how many run at once; `concurrency` is for the local pool only. `tls://`
  takes its certificates from Dask's configuration (`distributed.comm.tls.*`).

Anything that stops a run before any work starts (an unknown spec, Dask not installed, a scheduler that does
not answer) raises `ExecutorError` from `executor_for`, one line for the user: create the executor before
writing any output, and nothing is half-written.

The local pool's workers start with the "forkserver" method where there is one (Linux, macOS), else "spawn";
never "fork". The parent may hold open sockets (redis connections, whose finalizers would shut them down from
a forked copy) and threads (a fork copies locks that other threads hold). Both remaining methods start
workers from a clean interpreter, and the cost is importing the package: on 2 cores, a pool of 2 workers
that each import the live and RDB sources answers its first task after 0.38 s with "spawn" and 0.37 s with
"forkserver" (once per process, for the server), and a pool of 8 after 1.8 s with "spawn" and 0.1 s with a
started "forkserver" that has the package preloaded ("fork": 0.01 s; measured with a script that times
`ProcessPoolExecutor(n).map` of a 0.2 s task over n items, median of 5). So the fork server preloads this
module and the mapped function's module when it is one of this package's, which start no threads on import.
Workers see the environment as it was when the fork server started. As with any process pool that does not
fork, a script that maps with the local executor keeps its top-level code under `if __name__ == "__main__":`
(workers import the main module).

Ctrl-C. Workers never see SIGINT: they start with it blocked and ignore it, so a Ctrl-C at the terminal
(sent to the whole process group) reaches only the caller, which owns the decision. A KeyboardInterrupt in
the caller while it waits for results (or while it handles one, when it leaves the executor's `with`
block) cancels the items not yet started, stops the running ones (SIGTERM: the function unwinds through its
`finally` blocks, so processes it started are stopped too; SIGKILL after a grace period), shuts the pool
down, then propagates: no worker is left behind, none prints a traceback. On Dask, the run's tasks are
cancelled and the client closed; a task already running on a worker thread finishes there and its result
is dropped.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import urlsplit

from rediscipline.sources.signals import sigint_blocked

if TYPE_CHECKING:
    from distributed import Client

T = TypeVar("T")
R = TypeVar("R")

SPECS = "local, inline, dask://HOST:PORT, tcp://HOST:PORT or tls://HOST:PORT"
DASK_PORT = 8786
CONNECT_TIMEOUT = 10.0
_STOP_GRACE_SECONDS = 5.0
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


class ExecutorError(Exception):
    """The work cannot be handed out (bad spec, scheduler unreachable, a worker lost); one line, exit 2."""


class Executor(Protocol):
    """Runs a function over items somewhere and yields `(index in items, result)` as each finishes."""

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Executor: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None: ...


def executor_for(spec: str | None, *, concurrency: int, connect_timeout: float = CONNECT_TIMEOUT) -> Executor:
    """The executor `spec` names (see the module docstring); a Dask scheduler is connected to here, within
    `connect_timeout` seconds, so an unreachable one fails before any work starts."""
    if concurrency < 1:
        raise ExecutorError(f"concurrency must be at least 1, not {concurrency}")
    if spec is None or spec == "local":
        return LocalExecutor(concurrency)
    if spec == "inline":
        return InlineExecutor()
    return DaskExecutor(dask_address(spec), connect_timeout=connect_timeout)


def dask_address(spec: str) -> str:
    """The scheduler address `distributed` takes for `spec`: `dask://` becomes `tcp://`, a missing port 8786."""
    wrong = ExecutorError(f"executor {spec!r} not understood: use {SPECS}")
    parts = urlsplit(spec)
    if parts.scheme not in ("dask", "tcp", "tls") or not parts.hostname:
        raise wrong
    if parts.username is not None or parts.path or parts.query or parts.fragment:
        raise wrong
    try:
        port = parts.port
    except ValueError:
        raise wrong from None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    scheme = "tcp" if parts.scheme == "dask" else parts.scheme
    return f"{scheme}://{host}:{port if port is not None else DASK_PORT}"


class _ContextManaged:
    def __enter__(self: T) -> T:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release what the executor holds; anything still running is stopped."""


class InlineExecutor(_ContextManaged):
    """Every item in this process, in order."""

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        for index, item in enumerate(items):
            yield index, fn(item)


class LocalExecutor(_ContextManaged):
    """A process pool of `concurrency` workers, started at the first map of more than one item and kept until
    `close`."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = concurrency
        self._pool: ProcessPoolExecutor | None = None
        self._waiting: set[Future[Any]] = set()

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        if self.concurrency == 1 or len(items) <= 1:
            yield from InlineExecutor().map_unordered(fn, items)
            return
        pool = self._pool or self._start(fn)
        futures: dict[Future[R], int] = {}
        try:
            with sigint_blocked():  # workers start on submit and inherit the blocked signal
                if _START_METHOD == "forkserver":  # the server's children inherit its mask, not this thread's
                    from multiprocessing import forkserver

                    forkserver.ensure_running()
                for index, item in enumerate(items):
                    future = pool.submit(_run, fn, item)
                    futures[future] = index
                    self._waiting.add(future)
            for future in as_completed(futures):
                self._waiting.discard(future)
                yield futures[future], future.result()
        except BrokenProcessPool:
            unfinished = sum(1 for future in futures if future in self._waiting)
            self._stop()
            raise ExecutorError(
                f"a worker process ended abruptly (killed, or out of memory): {unfinished} of {len(items)}"
                " items unfinished"
            ) from None
        except KeyboardInterrupt:
            self._stop()
            raise

    def close(self) -> None:
        if self._pool is None:
            return
        if any(not future.done() for future in self._waiting):
            self._stop()
        else:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._waiting.clear()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if error is not None:
            self._stop()
        self.close()

    def _start(self, fn: Callable[..., Any]) -> ProcessPoolExecutor:
        context = multiprocessing.get_context(_START_METHOD)
        if _START_METHOD == "forkserver":  # takes effect only if the server is not running yet
            preload = [__name__]
            module = getattr(fn, "__module__", None)
            if isinstance(module, str) and module.split(".")[0] == __name__.split(".")[0]:
                preload.append(module)
            context.set_forkserver_preload(preload)
        self._pool = ProcessPoolExecutor(self.concurrency, mp_context=context, initializer=_worker_started)
        return self._pool

    def _stop(self) -> None:
        """Stop the workers (SIGTERM, then SIGKILL after a grace period) and shut the pool down: the items not
        started fail with BrokenProcessPool, and nobody waits for them.

        Futures are never cancelled one by one: on Python < 3.12 a pool that breaks later fails on a cancelled
        future in its own thread (InvalidStateError), and never joins its workers."""
        pool, self._pool = self._pool, None
        self._waiting.clear()
        if pool is None:
            return
        processes = list(pool._processes.values()) if pool._processes else []
        for process in processes:
            if process.exitcode is None:
                process.terminate()
        _wait_for_exit(processes, _STOP_GRACE_SECONDS)
        for process in processes:
            if process.exitcode is None:
                process.kill()
        _wait_for_exit(processes, None)
        pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor(_ContextManaged):
    """Tasks on the Dask cluster whose scheduler is at `address`."""

    def __init__(self, address: str, *, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        self.address = address
        self._client: Client | None = _connect(address, connect_timeout)

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        from distributed import KilledWorker, as_completed

        client = self._client
        if client is None:
            raise ExecutorError(f"Dask scheduler {self.address}: the executor is closed")
        futures = client.map(fn, list(items), pure=False)
        index = {future.key: position for position, future in enumerate(futures)}
        left = set(index)
        try:
            for future, result in as_completed(futures, with_results=True, loop=client.loop):
                if future.status == "cancelled":
                    raise ExecutorError(
                        f"Dask scheduler {self.address}: the work was cancelled (scheduler lost or restarted):"
                        f" {len(left)} of {len(items)} items unfinished"
                    )
                left.discard(future.key)
                yield index[future.key], result
        except KilledWorker as error:
            raise ExecutorError(
                f"Dask scheduler {self.address}: a task killed its workers (out of memory?): {len(left)} of"
                f" {len(items)} items unfinished ({error.task})"
            ) from None
        finally:
            if left:
                client.cancel([future for future in futures if future.key in left])

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()


def _connect(address: str, timeout: float) -> Client:
    try:
        from distributed import Client
        from distributed.security import Security
    except ModuleNotFoundError as error:
        if error.name not in ("dask", "distributed"):
            raise
        raise ExecutorError(f"{address}: Dask is not installed: pip install 'rediscipline[dask]'") from None
    security = Security()
    if address.startswith("tls://") and security.get_connection_args("client").get("ssl_context") is None:
        raise ExecutorError(
            f"Dask scheduler {address}: tls:// needs the client's certificates in Dask's configuration"
            " (distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and .key)"
        )
    try:
        return Client(address, timeout=timeout, set_as_default=False, security=security)
    except OSError as error:
        raise ExecutorError(
            f"Dask scheduler {address} unreachable: {_reason(error)} (tried for {timeout:g} s)"
        ) from None


def _reason(error: BaseException) -> str:
    """The operating system's words for why a connection failed (refused, no such host), from the innermost
    error that has them."""
    found = "no answer"
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.strerror:
            found = current.strerror
        current = current.__cause__ or current.__context__
    return found


def _wait_for_exit(processes: Sequence[multiprocessing.process.BaseProcess], timeout: float | None) -> None:
    """Wait until every process has exited, or `timeout` seconds; reads nothing from the sentinels, so the
    pool's own thread can still collect the exit codes."""
    left = [process.sentinel for process in processes if process.exitcode is None]
    while left:
        ready = wait(left, timeout)
        if not ready:
            return
        left = [sentinel for sentinel in left if sentinel not in ready]


class _Worker:
    """A pool worker's state: whether the caller has asked it to stop."""

    stopping = False


def _worker_started() -> None:
    """Pool worker set-up: ignore SIGINT (the caller decides), and turn the caller's SIGTERM into SystemExit so
    the running function unwinds through its `finally` blocks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)


def _stop_worker(signum: int, frame: FrameType | None) -> None:
    _Worker.stopping = True
    raise SystemExit(128 + signum)


def _run(fn: Callable[[T], R], item: T) -> R:
    """Pool worker body for one item. Once stopped, the worker exits after the function has unwound, instead of
    reporting the SystemExit and taking the next item."""
    if _Worker.stopping:
        os._exit(128 + signal.SIGTERM)
    try:
        return fn(item)
    except SystemExit:
        if _Worker.stopping:
            os._exit(128 + signal.SIGTERM)
        raise
