"""Ctrl-C at any moment after the entry point starts ends with one line, `rediscipline: interrupted`, and 130.

Each run sends one SIGINT at a known moment. The moments come from `PYTHONPROFILEIMPORTTIME`: Python writes a
line to stderr as each import finishes, so "right after click was imported" is an event the test can wait
for instead of a guessed delay. The first import line after the one for `rediscipline.cli.entry` comes from
inside `main()`, after the handler is installed: every moment here is at or after it. (Before `main()` runs,
the interpreter handles Ctrl-C itself: README "Exit codes".) The assertions never depend on how long
anything took; timeouts only stop a hung run.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import pytest

from tests.support.kinds import require_kind
from tests.support.rdbwriter import RdbBuilder
from tests.support.servers import ServerProcess, start_server

IMPORT_LINE = "import time:"
ENTRY = "rediscipline.cli.entry"
INTERRUPTED = "rediscipline: interrupted"
HANG_GUARD = 120.0  # seconds: a run that has not reached its moment by then is broken, not slow


class Watched:
    """A `rediscipline` process whose stderr is read line by line while it runs."""

    def __init__(
        self,
        args: Sequence[str],
        cwd: Path,
        *,
        console_script: bool = False,
        new_session: bool = False,
        preexec: Callable[[], Any] | None = None,
    ) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "REDISCIPLINE_DEBUG")}
        env["PYTHONPROFILEIMPORTTIME"] = "1"
        command = [str(Path(sys.executable).with_name("rediscipline"))] if console_script else []
        command = command or [sys.executable, "-m", "rediscipline"]
        self.process = subprocess.Popen(
            [*command, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=new_session,
            preexec_fn=preexec,  # noqa: PLW1509  # only signal.signal, before exec
        )
        self.stderr: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(self.process.stderr,), daemon=True)
        self._reader.start()

    def _read(self, stream: IO[bytes]) -> None:
        for raw in stream:
            line = raw.decode(errors="replace").rstrip("\n")
            self.stderr.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def wait_for(self, predicate: Callable[[str], bool], what: str) -> None:
        deadline = time.monotonic() + HANG_GUARD
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no {what} within {HANG_GUARD} s; stderr so far: {self.stderr[-20:]}")
            if line is None:
                pytest.fail(f"the process ended before {what}: {self.stderr[-20:]}")
            if predicate(line):
                return

    def wait_for_import(self, module: str) -> None:
        self.wait_for(lambda line: line.startswith(IMPORT_LINE) and imported(line) == module, f"import of {module}")

    def wait_for_main(self) -> None:
        """Until an import made inside `main()`: the SIGINT handler is in place from here on."""
        self.wait_for_import(ENTRY)
        self.wait_for(lambda line: line.startswith(IMPORT_LINE), "an import inside main()")

    def interrupt(self) -> None:
        self.process.send_signal(signal.SIGINT)

    def finish(self) -> tuple[int, bytes, list[str]]:
        """Exit code, stdout, and the stderr lines that are not importtime's."""
        assert self.process.stdin is not None and self.process.stdout is not None
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.close()
        out = self.process.stdout.read()
        code = self.process.wait(timeout=HANG_GUARD)
        self._reader.join(timeout=HANG_GUARD)
        return code, out, [line for line in self.stderr if not line.startswith(IMPORT_LINE)]


def imported(line: str) -> str:
    return line.rsplit("|", 1)[1].strip()


def assert_interrupted(watched: Watched) -> bytes:
    code, out, messages = watched.finish()
    assert not any("Traceback" in line for line in messages), messages
    assert (code, messages) == (130, [INTERRUPTED])
    return out


# ---- start-up and a command reading its input -----------------------------------------------------------------

#: Modules `rediscipline keys -` imports, in about the order it imports them (`rediscipline.cli.keys` itself is
#: imported by `importlib.import_module`, which importtime does not report).
KEYS_IMPORTS = (
    "click",
    "rediscipline.cli.main",
    "rediscipline.engine.runner",
    "rediscipline.rules",
    "rediscipline.api",
    "rediscipline.cli.options",
)


@pytest.mark.parametrize("module", KEYS_IMPORTS)
def test_interrupt_right_after_an_import(module: str, tmp_path: Path) -> None:
    watched = Watched(["keys", "-"], tmp_path)
    watched.wait_for_import(module)
    watched.interrupt()
    assert assert_interrupted(watched) == b""


#: Runs a command that makes a class whose attribute's `__set_name__` raises `RAISED` (argv[1]): what an import
#: under way when a SIGINT arrives does; Python 3.11 hands the caller a RuntimeError caused by it.
_SET_NAME_PROBE = """
import sys, types
import click
from rediscipline.cli import main as cli_main
from rediscipline.cli.entry import main

RAISED = {"interrupt": KeyboardInterrupt, "bug": ValueError}[sys.argv[1]]

class Raising:
    def __set_name__(self, owner, name):
        raise RAISED("raised by __set_name__")

@click.command("make-class")
def make_class():
    type("Made", (), {"attribute": Raising()})

module = types.ModuleType("make_class_command")
module.make_class = make_class
sys.modules[module.__name__] = module
cli_main.COMMANDS["make-class"] = cli_main.LazyCommand(module.__name__, "make_class", "Make a class.")
sys.argv = ["rediscipline", "make-class"]
main()
"""


@pytest.mark.parametrize(
    ("raised", "code", "stderr"),
    [
        ("interrupt", 130, "rediscipline: interrupted\n"),
        ("bug", 2, "rediscipline: error: internal error: RuntimeError: Error calling __set_name__ on 'Raising' "
         "instance 'attribute' in 'Made' (set REDISCIPLINE_DEBUG=1 for the traceback)\n"),
    ],
)  # fmt: skip
def test_an_interrupt_raised_while_a_class_is_made_is_an_interrupt(
    raised: str, code: int, stderr: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDISCIPLINE_DEBUG"}
    done = subprocess.run(
        [sys.executable, "-c", _SET_NAME_PROBE, raised],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (code, "", stderr)


@pytest.mark.parametrize("delay", [0.0, 0.001, 0.003, 0.01, 0.03, 0.1])
def test_interrupt_at_a_spread_of_moments_after_main_starts(delay: float, tmp_path: Path) -> None:
    watched = Watched(["keys", "-"], tmp_path)
    watched.wait_for_main()
    time.sleep(delay)
    watched.interrupt()
    assert assert_interrupted(watched) == b""


@pytest.mark.parametrize("args", [("--version",), ("--help",), ("rules",)], ids=repr)
def test_interrupt_during_the_start_of_short_commands(args: tuple[str, ...], tmp_path: Path) -> None:
    watched = Watched(args, tmp_path)
    watched.wait_for_main()
    watched.interrupt()
    assert_interrupted(watched)


def test_interrupt_through_the_console_script(tmp_path: Path) -> None:
    if not Path(sys.executable).with_name("rediscipline").exists():
        pytest.skip("no `rediscipline` console script next to this interpreter")
    watched = Watched(["keys", "-"], tmp_path, console_script=True)
    watched.wait_for_import("click")
    watched.interrupt()
    assert_interrupted(watched)


def test_interrupt_while_the_command_waits_for_input(tmp_path: Path) -> None:
    watched = Watched(["keys", "-"], tmp_path)
    watched.wait_for_import("rediscipline.cli.options")
    assert watched.process.stdin is not None
    watched.process.stdin.write(b"user:profile:1\nUser:Name\n")
    watched.process.stdin.flush()
    time.sleep(0.3)  # most likely blocked reading stdin by now; any other moment must end the same way
    watched.interrupt()
    assert assert_interrupted(watched) == b""


def test_interrupt_while_writing_output(tmp_path: Path) -> None:
    """`rule` of every rule writes ~130 KB: more than a pipe holds, so it blocks in write until read."""
    listing = subprocess.run(
        [sys.executable, "-m", "rediscipline", "rules", "--format", "json"], capture_output=True, check=True
    )
    ids = [rule["id"] for rule in json.loads(listing.stdout)]
    watched = Watched(["rule", *ids], tmp_path)
    assert watched.process.stdout is not None
    first = watched.process.stdout.read(4096)  # the output has started
    assert first.startswith(b"# ")
    time.sleep(0.3)
    watched.interrupt()
    rest = assert_interrupted(watched)
    assert len(first) + len(rest) > 0


def test_sigint_ignored_at_start_stays_ignored(tmp_path: Path) -> None:
    """A background job of a non-interactive shell starts with SIGINT ignored; it is not turned back on."""
    watched = Watched(
        ["keys", "-", "--format", "json"], tmp_path, preexec=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)
    )
    watched.wait_for_import("rediscipline.cli.options")
    watched.interrupt()
    assert watched.process.stdin is not None
    watched.process.stdin.write(b"user:profile:1\n")
    code, out, messages = watched.finish()
    assert (code, messages) == (0, [])
    assert json.loads(out)["summary"]["keys"] == 1


# ---- scans ----------------------------------------------------------------------------------------------------


@pytest.fixture
def busy_server() -> Iterator[ServerProcess]:
    require_kind("redis70")
    server = start_server("redis70")
    try:
        with server.client() as client:
            pipe = client.pipeline(transaction=False)
            for n in range(20_000):
                pipe.set(f"user:profile:{n}", "v", ex=3600)
            pipe.execute()
        yield server
    finally:
        server.stop()


def keys_typed(server: ServerProcess) -> int:
    """TYPE commands the server has run: the scan probes every key with one."""
    with server.client() as client:
        stats = client.info("commandstats")
    return int(stats.get("cmdstat_type", {}).get("calls", 0))


def test_interrupted_live_scan_writes_its_partial_report_then_exits_130(
    busy_server: ServerProcess, tmp_path: Path
) -> None:
    # at most 200 commands per second: 20,000 keys take minutes; the interrupt comes once 50 keys were probed
    watched = Watched([
        "scan", busy_server.url, "--format", "json", "--isolated", "--max-ops", "200", "--db", "0"
    ], tmp_path)  # fmt: skip
    deadline = time.monotonic() + HANG_GUARD
    while keys_typed(busy_server) < 50:
        assert watched.process.poll() is None, watched.stderr[-20:]
        assert time.monotonic() < deadline, "the scan did not start"
        time.sleep(0.05)
    watched.interrupt()
    report = json.loads(assert_interrupted(watched))
    assert report["server"]["resume_cursor"].startswith("0:")
    assert any("scan interrupted" in note for note in report["notes"])
    assert report["summary"]["keys"] < 20_000


@pytest.fixture(scope="module")
def dump_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four dumps of 150,000 keys: two workers need seconds for them."""
    builder = RdbBuilder(version=10).aux(b"redis-ver", b"7.0.15").select(0)
    for start in range(0, 150_000, 250):  # in chunks: a builder's cost grows with the square of its records
        chunk = RdbBuilder(version=10)
        for n in range(start, start + 250):
            chunk.string(b"user:profile:%d" % n, b"v")
        builder.raw(b"".join(chunk.parts))
    data = builder.build()
    folder = tmp_path_factory.mktemp("dumps")
    for index in range(4):
        (folder / f"node-{index}.rdb").write_bytes(data)
    return folder


def worker_pids(pid: int) -> list[int]:
    """The pool workers of the scan `pid`: children of its fork server (several dumps are read as jobs on a
    local pool, whose workers the fork server starts)."""
    return [worker for child in _children(pid) if b"forkserver" in _cmdline(child) for worker in _children(child)]


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads worker processes from /proc (Linux)")
def test_ctrl_c_to_the_process_group_stops_dump_workers_silently(dump_folder: Path, tmp_path: Path) -> None:
    """A terminal sends Ctrl-C to every process of the foreground group: the workers too. They ignore it
    (the parent stops them), so the only line is the parent's."""
    watched = Watched(
        ["scan", str(dump_folder), "--jobs", "2", "--format", "json", "--isolated"], tmp_path, new_session=True
    )
    deadline = time.monotonic() + HANG_GUARD
    while len(workers := worker_pids(watched.process.pid)) < 2:
        assert watched.process.poll() is None, watched.stderr[-20:]
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.01)
    time.sleep(0.3)  # the workers are importing or parsing
    os.killpg(watched.process.pid, signal.SIGINT)
    assert_interrupted(watched)
    deadline = time.monotonic() + HANG_GUARD
    while any(running(pid) for pid in workers):
        assert time.monotonic() < deadline, f"workers {workers} outlived the interrupted scan"
        time.sleep(0.05)
