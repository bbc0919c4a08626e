"""A bounded MONITOR sample of a server: `sample_monitor(address, duration, max_bytes)`.

MONITOR makes the server copy every command it runs, as a line, into the output buffer of the monitoring
connection. That buffer belongs to the `normal` class, whose default `client-output-buffer-limit` is none
(`0 0 0`), so a reader that falls behind makes the server's memory grow without bound, and the Redis
documentation measures a throughput drop of more than half with one MONITOR client. Hence:

* MONITOR runs on a connection of its own, opened for it and closed as soon as the sample ends (never the
  connection the rest of an observation uses: after MONITOR it can send nothing else);
* the calling thread only reads (raw `recv` into chunks, at most `RECV_BYTES` each) and hands the chunks
  to a parsing thread, so reading keeps up with the server even when parsing does not: what is read but
  not yet parsed waits in this process, not in the server;
* the sample stops when `duration` seconds have passed or `max_bytes` have been read, whichever comes
  first (or on a Ctrl-C, or when the server closes the connection), or when the parser has fallen
  `max_backlog` bytes behind the reader: a server busier than the parser can follow would otherwise make
  the wait after the sample grow with the budget (at 30 000 lines/s, 64 MB are half a minute), so the
  sample ends there, shorter than asked, and says so (`MonitorSample.stopped`). The lines already read are
  parsed before the sample is returned: at most `max_backlog` bytes more.

Since lines are parsed in the server's order, a sample cut short still covers a span of the server's clock
completely (`first_time` to `last_time`): counts over that span are rates of the whole traffic.

A server that refuses MONITOR to this user (an ACL without `+monitor`, a proxy that does not know it) gives
a sample that says so (`STOP_REFUSED` with the server's words), not an exception. What the lines add up to
is `monitor_tally`; the line format is `monitor_line`; `trace` writes the accesses to a file.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rediscipline.model.monitor import (
    STOP_BACKLOG,
    STOP_CLOSED,
    STOP_DURATION,
    STOP_INTERRUPTED,
    STOP_MAX_BYTES,
    STOP_REFUSED,
    MonitorSample,
)
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.defaults import DEFAULT_TIMEOUT_SECONDS
from rediscipline.sources.live.url import ServerAddress
from rediscipline.sources.traffic.monitor_line import parse_line
from rediscipline.sources.traffic.monitor_tally import KEYS_KEPT, KEYS_SHOWN, MonitorTally
from rediscipline.sources.traffic.trace import TraceWriter

#: The byte budget by default: about a million commands of usual sizes.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
#: How far the parser may fall behind the reader by default: a second or two of parsing.
DEFAULT_MAX_BACKLOG = 4 * 1024 * 1024
#: Bytes asked of one `recv`, and how often the reader looks at the clock when the server sends nothing.
RECV_BYTES = 1 << 20
POLL_SECONDS = 0.1
#: The longest first reply accepted (`+OK` or an error line).
REPLY_LIMIT = 1 << 16
MONITOR = b"*1\r\n$7\r\nMONITOR\r\n"


def sample_monitor(
    target: object,
    duration: float,
    max_bytes: int = DEFAULT_MAX_BYTES,
    *,
    max_backlog: int = DEFAULT_MAX_BACKLOG,
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    trace: TraceWriter | None = None,
    capacity: int = KEYS_KEPT,
    shown: int = KEYS_SHOWN,
    clock: Callable[[], float] = time.monotonic,
    stop: threading.Event | None = None,
) -> MonitorSample:
    """Run MONITOR on a connection of its own for at most `duration` seconds and `max_bytes` bytes, while the
    parser is less than `max_backlog` bytes behind.

    `target` is a `ServerAddress` (a connection is opened for the sample, as the live scan opens one), or a
    connection made for it and nothing else: a redis-py `Connection` (its socket is used) or a connected
    `socket.socket` after any handshake. Either way the connection is closed when the sample ends. `trace`
    receives every key access; `capacity` is the counters of each hot-key sketch, `shown` the keys listed.
    `stop`, once set, ends the sample as a Ctrl-C does (a sample in a worker thread, which gets no
    KeyboardInterrupt, is stopped by the thread that got it).
    Raises SourceError when the address cannot be reached, a limit is not positive or the trace cannot be
    written.
    """
    if not duration > 0:
        raise SourceError(f"a MONITOR sample must last more than 0 seconds, not {duration:g}")
    if max_bytes <= 0 or max_backlog <= 0:
        raise SourceError(f"a MONITOR sample needs a byte budget above 0, not {min(max_bytes, max_backlog)}")
    sock, close = _open(target, timeout)
    try:
        tally = MonitorTally(capacity, trace)
        limits = _Limits(duration, max_bytes, max_backlog, timeout, stop)
        return _sample(sock, close, limits, tally=tally, shown=shown, clock=clock)
    finally:
        close()


def _sample(
    sock: socket.socket,
    close: Callable[[], None],
    limits: _Limits,
    *,
    tally: MonitorTally,
    shown: int,
    clock: Callable[[], float],
) -> MonitorSample:
    started = clock()
    max_bytes = limits.max_bytes

    def nothing_read(stopped: str, error: str | None) -> MonitorSample:
        return tally.sample(
            stopped, error=error, bytes_read=0, max_bytes=max_bytes, seconds=clock() - started, shown=shown
        )

    try:
        reply, rest = _first_reply(sock, limits.timeout)
    except (OSError, ssl.SSLError, _BadReply) as failure:
        return nothing_read(STOP_CLOSED, _why(failure))
    except KeyboardInterrupt:
        return nothing_read(STOP_INTERRUPTED, None)
    if reply != b"+OK":
        refusal = reply[1:] if reply[:1] == b"-" else reply
        return nothing_read(STOP_REFUSED, refusal.decode("utf-8", "backslashreplace"))
    parser = _Parser(tally)
    parser.start()
    try:
        deadline = started + limits.duration
        stopped, error, read = _read(sock, parser, rest[:max_bytes], deadline=deadline, limits=limits, clock=clock)
    finally:
        close()  # the server drops the monitor and its buffer now, whatever the parser still has to do
        parser.hand(None)
    seconds = clock() - started
    if parser.finish():
        stopped = STOP_INTERRUPTED
    if isinstance(parser.failure, OSError):  # the parser's only I/O is the trace
        raise SourceError(f"cannot write the trace: {_why(parser.failure)}") from None
    if parser.failure is not None:
        raise parser.failure
    return tally.sample(stopped, error=error, bytes_read=read, max_bytes=max_bytes, seconds=seconds, shown=shown)


def _open(target: object, timeout: float) -> tuple[socket.socket, Callable[[], None]]:
    """The socket to monitor on and how to close it."""
    if isinstance(target, ServerAddress):
        connection = open_connection(target, timeout)
        return connection._sock, _closer(connection)
    if isinstance(target, socket.socket):
        return target, target.close
    sock = getattr(target, "_sock", None)
    if isinstance(sock, socket.socket):  # a connected redis-py Connection
        return sock, _closer(target)
    raise TypeError(f"MONITOR needs a ServerAddress, a connected redis-py Connection or a socket, not {target!r}")


def _closer(connection: Any) -> Callable[[], None]:
    def close() -> None:
        with contextlib.suppress(Exception):  # closing a dead connection must never hide the sample
            connection.disconnect()

    return close


@dataclass(frozen=True, slots=True)
class _Limits:
    duration: float
    max_bytes: int
    max_backlog: int
    timeout: float
    stop: threading.Event | None = None


class _BadReply(Exception):
    """The server's first reply to MONITOR was no reply line."""


def _first_reply(sock: socket.socket, timeout: float) -> tuple[bytes, bytes]:
    """Send MONITOR and read its reply line (`+OK`, or an error); returns it and what followed it."""
    sock.settimeout(timeout)
    sock.sendall(MONITOR)
    received = b""
    while (end := received.find(b"\r\n")) < 0:
        if len(received) > REPLY_LIMIT:
            raise _BadReply(f"no reply line in the first {REPLY_LIMIT} bytes")
        data = sock.recv(REPLY_LIMIT)
        if not data:
            raise _BadReply("the server closed the connection")
        received += data
    return received[:end], received[end + 2 :]


def _read(
    sock: socket.socket, parser: _Parser, first: bytes, *, deadline: float, limits: _Limits, clock: Callable[[], float]
) -> tuple[str, str | None, int]:
    """Read until the deadline, the budget, the end of the stream or the parser's backlog: (why it stopped,
    error, bytes read)."""
    read, max_bytes, max_backlog = len(first), limits.max_bytes, limits.max_backlog
    if first:
        parser.hand(first)
    sock.settimeout(POLL_SECONDS)
    hand = parser.hand
    try:
        while True:
            if read >= max_bytes:
                return STOP_MAX_BYTES, None, read
            if read - parser.parsed > max_backlog:
                return STOP_BACKLOG, None, read
            if parser.failure is not None:  # raised once the reading stops: stop it now
                return STOP_CLOSED, None, read
            if clock() >= deadline:
                return STOP_DURATION, None, read
            if limits.stop is not None and limits.stop.is_set():
                return STOP_INTERRUPTED, None, read
            try:
                data = sock.recv(min(RECV_BYTES, max_bytes - read))
            except TimeoutError:
                continue
            except (OSError, ssl.SSLError) as error:
                return STOP_CLOSED, _why(error), read
            if not data:
                return STOP_CLOSED, "the server closed the connection", read
            read += len(data)
            hand(data)
    except KeyboardInterrupt:
        return STOP_INTERRUPTED, None, read


def _why(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


class _Parser(threading.Thread):
    """Splits the chunks read into lines (a line never holds a raw CR or LF: the server escapes them) and feeds
    the tally; a line still incomplete at the end is counted as malformed (the sample cut it)."""

    def __init__(self, tally: MonitorTally) -> None:
        super().__init__(name="rediscipline-monitor-parser", daemon=True)
        self.tally = tally
        self.chunks: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.parsed = 0  # bytes of the chunks parsed (written by this thread only)
        self.failure: BaseException | None = None
        self._abandon = threading.Event()
        self._pending = bytearray()

    def run(self) -> None:
        try:
            while (chunk := self.chunks.get()) is not None:
                if self._abandon.is_set():
                    continue  # drain what the reader put: the caller stopped waiting
                self._feed(chunk)
                self.parsed += len(chunk)
            if self._pending:
                self.tally.malformed += 1
        except Exception as error:  # handed to the caller, which raises it
            self.failure = error

    def hand(self, chunk: bytes | None) -> None:
        """A chunk read, to be parsed (None: the end of the stream)."""
        self.chunks.put(chunk)

    def _feed(self, chunk: bytes) -> None:
        pending = self._pending
        searched = max(len(pending) - 1, 0)  # a CR at the end of the pending bytes may meet its LF here
        pending += chunk
        end = pending.rfind(b"\r\n", searched)
        if end < 0:
            return
        with memoryview(pending) as view:
            block = bytes(view[:end])
        del pending[: end + 2]
        tally, feed = self.tally, self.tally.feed
        for line in block.split(b"\r\n"):
            parsed = parse_line(line) if line[:1] == b"+" else None
            if parsed is None:
                tally.malformed += 1
            else:
                feed(parsed)

    def finish(self) -> bool:
        """Wait until every chunk is parsed; a Ctrl-C meanwhile leaves the rest unparsed. True when cut so."""
        try:
            while self.is_alive():
                self.join(POLL_SECONDS)
        except KeyboardInterrupt:
            self._abandon.set()
            self.join()
            return True
        return False
