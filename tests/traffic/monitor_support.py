"""What the MONITOR tests share: servers of each kind, the server's quoting in Python, a raw MONITOR reader, and
a sample that ends when a marker command has been read (so that a test knows every command it sent is in it).
"""

from __future__ import annotations

import base64
import socket
import threading
import time
import uuid

import redis

from rediscipline.model.monitor import MonitorSample
from rediscipline.sources.live.url import parse_address
from rediscipline.sources.traffic.monitor import sample_monitor
from rediscipline.sources.traffic.trace import TraceWriter
from tests.support.servers import KINDS, ServerProcess

#: Every kind; the ones not installed are skipped, except in CI the required ones, which fail.
ALL_KINDS = KINDS


def sdscatrepr(data: bytes) -> bytes:
    """The server's quoting of one argument (`sdscatrepr`, sds.c), written again from its C code."""
    out = bytearray(b'"')
    for byte in data:
        char = bytes((byte,))
        if char in (b"\\", b'"'):
            out += b"\\" + char
        elif char in SIMPLE_ESCAPES:
            out += SIMPLE_ESCAPES[char]
        elif 0x20 <= byte <= 0x7E:  # isprint in the C locale
            out.append(byte)
        else:
            out += b"\\x%02x" % byte
    out += b'"'
    return bytes(out)


SIMPLE_ESCAPES = {b"\n": b"\\n", b"\r": b"\\r", b"\t": b"\\t", b"\a": b"\\a", b"\b": b"\\b"}


def monitoring_clients(client: redis.Redis) -> int:
    """How many connections are in MONITOR mode now (flag `O` in CLIENT LIST, which MONITOR does not show)."""
    return sum("O" in entry["flags"] for entry in client.client_list())


def wait_for_monitor(client: redis.Redis, *, present: bool = True) -> None:
    """Wait until a connection is in MONITOR mode (`client` is connected already: no handshake to be seen), or
    with `present=False` until none is (the server notices a closed connection at its next event loop)."""
    for _ in range(1000):
        if bool(monitoring_clients(client)) == present:
            return
        threading.Event().wait(0.01)
    raise AssertionError("MONITOR never started" if present else "the MONITOR connection stayed open")


class RawMonitor:
    """A MONITOR connection of the test's own (a plain socket): `lines()` reads up to a marker command."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.marker = b"monitor-test-end-" + uuid.uuid4().hex.encode()
        self.sock = socket.create_connection((server.host, server.port), timeout=30)
        self.sock.sendall(b"*1\r\n$7\r\nMONITOR\r\n")
        self.buffer = b""
        assert self._line() == b"+OK"

    def _line(self) -> bytes:
        while b"\r\n" not in self.buffer:
            data = self.sock.recv(1 << 20)
            assert data, "the server closed the MONITOR connection"
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\r\n")
        return line

    def lines(self, client: redis.Redis) -> list[bytes]:
        """Every line up to the marker (ECHO'd now by `client`, connected already), the marker's line excluded."""
        client.echo(self.marker)
        found = []
        while (line := self._line()).find(self.marker) < 0:
            found.append(line)
        self.sock.close()
        return found


class MarkerStream:
    """A trace stream that notices the access to a marker key."""

    def __init__(self, marker: bytes) -> None:
        self.encoded = base64.b64encode(marker).decode("ascii")
        self.text: list[str] = []
        self.seen = threading.Event()

    def write(self, text: str) -> int:
        self.text.append(text)
        if self.encoded in text:
            self.seen.set()
        return len(text)


class MarkedSample:
    """A MONITOR sample run in a thread while the test sends commands with `client` (connected already):
    `finish()` sends `GET <marker>` and returns the sample once the marker's access was parsed (so every command
    sent before is in it, and nothing but the client's commands).

    The sample's clock is the real one until the marker is seen, then infinitely late: the reader stops at its
    next look at the clock (with `interrupt`, the clock raises KeyboardInterrupt there once instead, as a
    Ctrl-C would). `max_bytes` and `duration` stay the real limits (30 s if the marker never comes).
    """

    def __init__(
        self, server: ServerProcess, client: redis.Redis, *, max_bytes: int = 1 << 26, interrupt: bool = False
    ) -> None:
        self.server, self.client = server, client
        self.marker = b"marker:" + uuid.uuid4().hex.encode()
        self.stream = MarkerStream(self.marker)
        self.result: MonitorSample | None = None
        self.failure: BaseException | None = None
        started = time.monotonic()
        seen = self.stream.seen

        interrupted = threading.Event()

        def clock() -> float:
            if not seen.is_set():
                return time.monotonic() - started
            if interrupt and not interrupted.is_set():
                interrupted.set()
                raise KeyboardInterrupt
            return float("inf")

        def run() -> None:
            try:
                self.result = sample_monitor(
                    parse_address(server.url), 30.0, max_bytes, trace=TraceWriter(self.stream), clock=clock
                )
            except BaseException as error:  # handed to finish()
                self.failure = error

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        wait_for_monitor(client)

    def finish(self) -> MonitorSample:
        self.client.get(self.marker)
        self.thread.join(60)
        if self.failure is not None:
            raise self.failure
        assert self.result is not None, "the sample did not end"
        return self.result

    @property
    def trace(self) -> str:
        return "".join(self.stream.text)
