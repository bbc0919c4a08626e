"""The executors run a module-level function over items and give back every index once with its result: in this
process, in a local process pool, and on a real Dask cluster (a `distributed.LocalCluster` of two worker
processes, one for the module). A Ctrl-C is sent to a real process that is waiting for its workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rediscipline.api.executors import (
    DaskExecutor,
    ExecutorError,
    LocalExecutor,
    dask_address,
    executor_for,
)
from tests.support.dask_cluster import local_scheduler
from tests.support.servers import pid_alive, refused_port

ROOT = Path(__file__).resolve().parents[2]
SPECS = "local, inline, dask://HOST:PORT, tcp://HOST:PORT or tls://HOST:PORT"
_RENDEZVOUS_SECONDS = 30.0


class Boom(ValueError):
    """Raised by a mapped function: a bug in the work, which the caller sees with its own type."""


def square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def square_in_company(job: tuple[str, int]) -> tuple[int, int]:
    """`x * x` and this process's id, returned once a second process has started one of these too (or after
    30 s, when only one process runs them): proves the items ran in more than one process at a time."""
    folder, x = job
    Path(folder, f"{os.getpid()}.pid").touch()
    deadline = time.monotonic() + _RENDEZVOUS_SECONDS
    while len(list(Path(folder).glob("*.pid"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    return x * x, os.getpid()


def boom_on_three(x: int) -> int:
    if x == 3:
        raise Boom(f"item {x} is wrong")
    return x


def die_on_three(x: int) -> int:
    if x == 3:
        os._exit(9)
    return x


def park(job: tuple[str, int]) -> None:
    """Start a child process, say so in `folder` (`<worker pid>.<child pid>`), and wait until the flag file
    `folder/release` appears; the child is stopped on the way out, however the function ends."""
    folder, _x = job
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(300)"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        Path(folder, f"{os.getpid()}.{child.pid}").touch()
        while not Path(folder, "release").exists():
            time.sleep(0.05)
    finally:
        child.kill()
        child.wait()


def park_unless_first(job: tuple[str, int]) -> int:
    """Item 0 comes back at once; the others `park`."""
    if job[1] != 0:
        park(job)
    return job[1]


# ---- inline and local ------------------------------------------------------------------------------------------


def test_inline_runs_every_item_in_this_process_in_order() -> None:
    with executor_for("inline", concurrency=4) as executor:
        results = list(executor.map_unordered(square_and_pid, [3, 1, 2]))
    assert results == [(0, (9, os.getpid())), (1, (1, os.getpid())), (2, (4, os.getpid()))]


def test_local_pool_gives_every_index_once_from_more_than_one_process(tmp_path: Path) -> None:
    jobs = [(str(tmp_path), x) for x in range(8)]
    with executor_for(None, concurrency=2) as executor:
        assert isinstance(executor, LocalExecutor)
        results = list(executor.map_unordered(square_in_company, jobs))
    assert sorted(index for index, _ in results) == list(range(8))
    assert {index: square for index, (square, _pid) in results} == {x: x * x for x in range(8)}
    pids = {pid for _, (_square, pid) in results}
    assert len(pids) == 2
    assert os.getpid() not in pids


def test_local_pool_is_reused_across_maps_and_closed() -> None:
    executor = executor_for("local", concurrency=2)
    first = dict(executor.map_unordered(square_and_pid, [1, 2, 3]))
    second = dict(executor.map_unordered(square_and_pid, [4, 5]))
    executor.close()
    assert {i: square for i, (square, _) in first.items()} == {0: 1, 1: 4, 2: 9}
    assert {i: square for i, (square, _) in second.items()} == {0: 16, 1: 25}
    assert os.getpid() not in {pid for _, pid in (*first.values(), *second.values())}


@pytest.mark.parametrize(("concurrency", "items"), [(1, [1, 2, 3]), (4, [7])])
def test_local_runs_inline_for_one_worker_or_one_item(concurrency: int, items: list[int]) -> None:
    with executor_for("local", concurrency=concurrency) as executor:
        results = list(executor.map_unordered(square_and_pid, items))
    assert results == [(i, (x * x, os.getpid())) for i, x in enumerate(items)]


@pytest.mark.parametrize("spec", ["inline", "local"])
def test_an_exception_in_the_function_reaches_the_caller_with_its_type(spec: str) -> None:
    with executor_for(spec, concurrency=2) as executor, pytest.raises(Boom) as raised:
        list(executor.map_unordered(boom_on_three, list(range(6))))
    assert str(raised.value) == "item 3 is wrong"


def test_a_worker_that_dies_is_one_line() -> None:
    with executor_for("local", concurrency=2) as executor, pytest.raises(ExecutorError) as raised:
        list(executor.map_unordered(die_on_three, list(range(6))))
    assert str(raised.value).startswith("a worker process ended abruptly (killed, or out of memory): ")
    assert str(raised.value).endswith(" of 6 items unfinished")


def test_a_concurrency_below_one_is_refused() -> None:
    with pytest.raises(ExecutorError) as raised:
        executor_for("local", concurrency=0)
    assert str(raised.value) == "concurrency must be at least 1, not 0"


def _interrupted(script: str, folder: Path, *, started: int, group: bool) -> subprocess.CompletedProcess[str]:
    """Run `script` (which maps `park` over jobs in `folder`) in a new session, wait until `started` jobs have
    said they run, then send SIGINT as a terminal does (to the whole process group) or to the process alone."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(folder)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while len(_parked(folder)) < started and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_parked(folder)) == started, process.stderr.read() if process.poll() is not None else ""
        if group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _parked(folder: Path) -> list[tuple[int, int]]:
    """(worker pid, child pid) of every `park` job that has started."""
    return [(int(p.stem), int(p.suffix[1:])) for p in folder.iterdir() if p.suffix[1:].isdigit()]


def _running(pid: int) -> bool:
    """Whether `pid` is a process that has not exited (a zombie waiting to be reaped has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return pid_alive(pid)
    return state != "Z"


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_ctrl_c_stops_the_workers_and_what_they_started_then_propagates(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from rediscipline.api.executors import executor_for\n"
        f"from tests.api.test_executors import {park.__name__}\n"
        "jobs = [(sys.argv[1], x) for x in range(5)]\n"
        "with executor_for('local', concurrency=2) as executor:\n"
        "    for _ in executor.map_unordered(park, jobs):\n"
        "        pass\n"
    )
    try:
        done = _interrupted(script, tmp_path, started=2, group=True)
        parked = _parked(tmp_path)
        left = [pid for pair in parked for pid in pair if _running(pid)]
    finally:
        for pid in (pid for pair in _parked(tmp_path) for pid in pair if _running(pid)):
            os.kill(pid, signal.SIGKILL)  # only what this test started, should any survive
    assert done.returncode != 0
    assert done.stderr.count("Traceback") == 1, done.stderr  # the caller's only: no worker printed one
    assert done.stderr.rstrip().splitlines()[-1] == "KeyboardInterrupt"
    assert len(parked) == 2  # the three items not started never ran
    assert left == []


def test_an_interrupt_while_the_caller_handles_a_result_stops_the_workers_on_leaving_the_with_block(
    tmp_path: Path,
) -> None:
    jobs = [(str(tmp_path), x) for x in range(4)]
    try:
        with pytest.raises(KeyboardInterrupt), executor_for("local", concurrency=3) as executor:
            for index, _result in executor.map_unordered(park_unless_first, jobs):
                assert index == 0
                deadline = time.monotonic() + 120
                while len(_parked(tmp_path)) < 3 and time.monotonic() < deadline:  # items 1, 2 and 3
                    time.sleep(0.05)
                raise KeyboardInterrupt
        parked = _parked(tmp_path)
        left = [pid for pair in parked for pid in pair if _running(pid)]
    finally:
        for pid in (pid for pair in _parked(tmp_path) for pid in pair if _running(pid)):
            os.kill(pid, signal.SIGKILL)  # only what this test started, should any survive
    assert len(parked) == 3
    assert left == []


# ---- Dask ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a real Dask scheduler with two worker processes of one thread each."""
    with local_scheduler() as address:
        yield address


def test_dask_gives_every_index_once_from_more_than_one_process(scheduler: str, tmp_path: Path) -> None:
    jobs = [(str(tmp_path), x) for x in range(8)]
    with executor_for(scheduler, concurrency=1) as executor:
        assert isinstance(executor, DaskExecutor)
        results = list(executor.map_unordered(square_in_company, jobs))
    assert sorted(index for index, _ in results) == list(range(8))
    assert {index: square for index, (square, _pid) in results} == {x: x * x for x in range(8)}
    pids = {pid for _, (_square, pid) in results}
    assert len(pids) == 2
    assert os.getpid() not in pids


def test_dask_spec_is_the_schedulers_tcp_address(scheduler: str) -> None:
    spec = scheduler.replace("tcp://", "dask://")
    with executor_for(spec, concurrency=1) as executor:
        assert isinstance(executor, DaskExecutor)
        assert executor.address == scheduler
        results = sorted(executor.map_unordered(square_and_pid, [2, 2, 2]))
    assert [(index, square) for index, (square, _pid) in results] == [(0, 4), (1, 4), (2, 4)]  # one task per item


def test_dask_exception_in_the_function_reaches_the_caller_with_its_type(scheduler: str) -> None:
    with executor_for(scheduler, concurrency=1) as executor, pytest.raises(Boom) as raised:
        list(executor.map_unordered(boom_on_three, list(range(6))))
    assert str(raised.value) == "item 3 is wrong"


def test_unreachable_scheduler_is_one_line() -> None:
    port = refused_port()
    with pytest.raises(ExecutorError) as raised:
        executor_for(f"dask://127.0.0.1:{port}", concurrency=1, connect_timeout=1)
    # the operating system's words when Dask's last attempt got that far within the timeout (on a loaded
    # machine it may not have), else "no answer"
    reasons = ("Connection refused", "no answer")
    assert str(raised.value) in {
        f"Dask scheduler tcp://127.0.0.1:{port} unreachable: {r} (tried for 1 s)" for r in reasons
    }


def test_tls_without_certificates_is_one_line() -> None:
    with pytest.raises(ExecutorError) as raised:
        executor_for("tls://127.0.0.1:8786", concurrency=1)
    assert str(raised.value) == (
        "Dask scheduler tls://127.0.0.1:8786: tls:// needs the client's certificates in Dask's configuration"
        " (distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and .key)"
    )


def test_dask_not_installed_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # what `import distributed` finds when it is absent
    with pytest.raises(ExecutorError) as raised:
        executor_for("dask://scheduler.example:8786", concurrency=1)
    assert str(raised.value) == (
        "tcp://scheduler.example:8786: Dask is not installed: pip install 'rediscipline[dask]'"
    )


@pytest.mark.parametrize(
    "spec",
    [
        "threads",
        "",
        "http://scheduler:8786",
        "dask://",
        "dask://scheduler:port",
        "dask://scheduler:99999",
        "dask://user:secret@scheduler:8786",
        "dask://scheduler:8786/path",
    ],
)
def test_a_bad_spec_is_one_line_naming_the_accepted_forms(spec: str) -> None:
    with pytest.raises(ExecutorError) as raised:
        executor_for(spec, concurrency=2)
    assert str(raised.value) == f"executor {spec!r} not understood: use {SPECS}"


@pytest.mark.parametrize(
    ("spec", "address"),
    [
        ("dask://scheduler:8786", "tcp://scheduler:8786"),
        ("dask://scheduler", "tcp://scheduler:8786"),
        ("tcp://10.0.0.5:9000", "tcp://10.0.0.5:9000"),
        ("tls://scheduler.internal:8786", "tls://scheduler.internal:8786"),
        ("dask://[::1]:8786", "tcp://[::1]:8786"),
    ],
)
def test_dask_address(spec: str, address: str) -> None:
    assert dask_address(spec) == address


def test_ctrl_c_cancels_the_dask_tasks_and_closes_the_client(scheduler: str, tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from rediscipline.api.executors import executor_for\n"
        f"from tests.api.test_executors import {park.__name__}\n"
        "jobs = [(sys.argv[1], x) for x in range(5)]\n"
        f"with executor_for({scheduler!r}, concurrency=1) as executor:\n"
        "    for _ in executor.map_unordered(park, jobs):\n"
        "        pass\n"
    )
    try:
        done = _interrupted(script, tmp_path, started=2, group=False)
    finally:
        (tmp_path / "release").touch()  # the two running tasks end; the three others were cancelled
    assert done.returncode != 0
    assert done.stderr.count("Traceback") == 1, done.stderr
    assert done.stderr.rstrip().splitlines()[-1] == "KeyboardInterrupt"
