"""Pipelined raw commands over a connected socket, parsed by hiredis.

redis-py's per-reply path costs about 3 µs in Python; a live scan reads five to seven replies per key, so on
tens of millions of keys that alone is minutes. Packing with `hiredis.pack_command` and reading with one
`hiredis.Reader` per connection keeps both in C (measured in benchmarks/scan_throughput.py). Error replies come
back as `hiredis.ReplyError` values, not exceptions, so one bad key never aborts a batch.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from collections.abc import Sequence
from typing import Any

import hiredis

CommandArgs = tuple[bytes | str | int, ...]
RECV_BYTES = 1 << 17
_INCOMPLETE = object()  # what the reader returns while a reply is incomplete


class LostConnection(Exception):
    """The server went away (closed, reset, timed out) in the middle of a pipeline."""


ReplyError = hiredis.ReplyError


def is_error(reply: Any) -> bool:
    return isinstance(reply, ReplyError)


class Wire:
    def __init__(self, connection: Any) -> None:
        self._connection = connection
        self._sock: socket.socket = connection._sock  # redis-py did the handshake; we only pipeline over it
        self._reader = hiredis.Reader(notEnoughData=_INCOMPLETE)
        self._buffer = bytearray(RECV_BYTES)
        self.commands_sent = 0

    def send(self, commands: Sequence[CommandArgs]) -> None:
        self.send_raw(self.pack(commands), len(commands))

    def send_raw(self, payload: bytes, commands: int) -> None:
        """Send commands already packed as RESP (see `probes`)."""
        try:
            self._sock.sendall(payload)
        except (OSError, ssl.SSLError) as error:
            raise LostConnection(_why(error)) from None
        self.commands_sent += commands

    def pack(self, commands: Sequence[CommandArgs]) -> bytes:
        return b"".join([hiredis.pack_command(command) for command in commands])  # type: ignore[arg-type]  # 1-tuple stub

    def receive(self, count: int) -> list[Any]:
        """Read exactly `count` replies: hiredis parses, and `iter(gets, _INCOMPLETE)` drains it in C.

        The sentinel is a private object, not hiredis' default False, because `0 == False`: an integer 0
        reply would otherwise end the drain early.
        """
        replies: list[Any] = []
        gets, feed, buffer = self._reader.gets, self._reader.feed, self._buffer
        while True:
            replies.extend(iter(gets, _INCOMPLETE))
            if len(replies) >= count:
                return replies
            try:
                received = self._sock.recv_into(buffer)
            except (OSError, ssl.SSLError) as error:
                raise LostConnection(_why(error)) from None
            if received == 0:
                raise LostConnection("the server closed the connection")
            feed(buffer, 0, received)  # type: ignore[arg-type]  # hiredis accepts any buffer

    def call(self, *args: bytes | str | int) -> Any:
        """One command, one reply (for the handful of non-pipelined calls)."""
        self.send((args,))
        return self.receive(1)[0]

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing a dead socket must never mask the real error
            self._connection.disconnect()


def _why(error: BaseException) -> str:
    if isinstance(error, socket.timeout | TimeoutError):
        return "the server stopped answering (timed out)"
    if isinstance(error, OSError) and error.strerror:  # `connection reset by peer`, not `[Errno 104] ...`
        return error.strerror.lower()
    return str(error) or type(error).__name__
