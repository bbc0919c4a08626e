"""The `rediscipline` executable (console script and `python -m rediscipline`): Ctrl-C is handled from its first line.

Importing this module loads nothing but `os`, `sys` (both loaded by the interpreter already), `gc` (built into
it) and the exit codes. `main()` installs the SIGINT handling before it imports anything else, then runs the
command line with the cyclic garbage collector paused until the command's modules are imported (their
hundreds of classes are made without a collection passing over them every few hundred objects). From then
on a Ctrl-C ends the run with one line on stderr, `rediscipline: interrupted`, and exit code 130, never a
traceback:

- the first SIGINT raises KeyboardInterrupt where the program is, so `finally` blocks run, dump-parsing
  workers are stopped and a live scan still writes its partial report (with its `--resume` cursor); it is
  remembered, and the run exits with 130 whatever the command returned after it;
- a second SIGINT ends the process at once (`os._exit`), after the same line if it was not written yet;
- once the command has finished, a SIGINT during the interpreter's own shutdown ends it the same way.

A SIGINT that was ignored when the process started (`nohup`, a background job of a non-interactive shell)
stays ignored. Before `main()` runs, Ctrl-C belongs to the interpreter (the first ~10-15 ms of start-up, see
README "Exit codes"): until Python installs its handler the process is ended by the signal itself, with no
output; while Python imports its `site` module and runs the installer's launcher script (which imports this
module), it prints its own message.
"""

from __future__ import annotations

import gc
import os
import sys

from rediscipline.cli.exits import EXIT_ERROR, EXIT_INTERRUPTED

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs 5 ms before the handler is in place
if TYPE_CHECKING:
    from types import FrameType
    from typing import NoReturn

INTERRUPTED_LINE = b"rediscipline: interrupted\n"


class _Interrupts:
    """What the SIGINT handlers have seen (process-wide state, as signal dispositions are)."""

    received = False  # a SIGINT arrived: the run ends with 130
    reported = False  # the one line has been written


def main() -> NoReturn:
    """Run `rediscipline` with `sys.argv` and exit with its code."""
    try:
        _install_handler()
        gc.disable()  # until the command's modules are imported: `cli.main.resume_collector`
        from rediscipline.cli.main import run

        code = run(sys.argv[1:])
    except KeyboardInterrupt:
        _Interrupts.received = True
        code = EXIT_INTERRUPTED
    except Exception as error:
        if not wraps_interrupt(error):
            raise
        _Interrupts.received = True
        code = EXIT_INTERRUPTED
    sys.exit(_finish(code))


def wraps_interrupt(error: BaseException) -> bool:
    """Whether `error` is a Ctrl-C in disguise: Python 3.11 turns whatever a `__set_name__` call raises while a
    class is made (by an import under way when the SIGINT came) into a RuntimeError caused by it."""
    seen: set[int] = set()
    cause = error.__cause__
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__
    return False


def _install_handler() -> None:
    import signal

    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored, not someone else's
        signal.signal(signal.SIGINT, _first_interrupt)


def _first_interrupt(_signum: int, _frame: FrameType | None) -> None:
    import signal

    _Interrupts.received = True
    signal.signal(signal.SIGINT, _second_interrupt)
    raise KeyboardInterrupt


def _second_interrupt(_signum: int, _frame: FrameType | None) -> None:
    _report()
    os._exit(EXIT_INTERRUPTED)


def _finish(code: int) -> int:
    """The exit code, after flushing stdout; from here a SIGINT ends the process at once. Every object the run
    made is frozen (`gc.freeze`): the interpreter's shutdown then frees them without the collections over
    all of them it would otherwise run (30 ms after a scan)."""
    import signal

    gc.freeze()

    if signal.getsignal(signal.SIGINT) is _first_interrupt:
        signal.signal(signal.SIGINT, _second_interrupt)
    stdout = sys.stdout  # None when the process started with standard output closed
    try:
        if stdout is not None:
            stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): nothing more to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
    except (OSError, ValueError) as error:  # a full disk, a closed stream: the output is incomplete
        code = _error_line(f"cannot write the output: {getattr(error, 'strerror', None) or error}")
    except KeyboardInterrupt:
        _Interrupts.received = True
    if _Interrupts.received:
        _report()
        # CPython ends the process by SIGINT instead of with its exit code when a KeyboardInterrupt once
        # escaped an exec() of source text (dataclasses and namedtuple build their methods that way), even
        # though it was caught later; every exec() of source text clears that flag first, so this one does.
        exec("")
        return EXIT_INTERRUPTED
    return code


def _error_line(message: str) -> int:
    _write_stderr(f"rediscipline: error: {message}\n".encode(errors="replace"))
    return EXIT_ERROR


def _report() -> None:
    """Write the one line, once; on a terminal after a line break, so it does not follow the echoed `^C`."""
    if _Interrupts.reported:
        return
    _Interrupts.reported = True
    _write_stderr((b"\n" if os.isatty(2) else b"") + INTERRUPTED_LINE)


def _write_stderr(data: bytes) -> None:
    """Straight to file descriptor 2: safe in a signal handler, and works when `sys.stderr` is gone."""
    try:
        os.write(2, data)
    except OSError:  # stderr is closed: the exit code alone says it
        return
