"""The key accesses of a MONITOR sample as a trace file, for replaying them (`simulate eviction`).

The format is JSON Lines (UTF-8, one object per line, `\\n` after each). The first line says what the file is:

    {"format": "rediscipline-trace", "version": 1, "server": "redis-7.0.15", "allocator": "libc"}

(`server`: the flavor and version of the server sampled, as INFO gave them; `allocator`: `libc` when INFO's
`mem_allocator` says so, absent for jemalloc, whose build does not say its size classes; both absent when
unknown), and every other line is one access of one key:

    {"us": 1700000000123456, "db": 0, "cmd": "get", "size": 12, "key": "dXNlcjox"}

* `us`: when the server ran the command, its clock in microseconds since the Unix epoch (MONITOR's time,
  exact: the line gives microseconds);
* `db`: the database;
* `cmd`: the command name in lowercase, `name|sub` for a container's subcommand (`object|freq`);
* `size`: the bytes of the command's arguments (its name excluded) divided evenly among its keys, rounded
  down: a SET's value plus its key, an MGET's key;
* `key`: the key's bytes in standard base64 (padded), since keys are bytes and need not be UTF-8;
* `ttl` (only on a command that sets an expiry: SET EX/PX/EXAT/PXAT, SETEX, PSETEX, EXPIRE, ..., GETEX): the
  milliseconds it leaves the key, from the command's time.

A command on several keys gives one line per key, in the order of its arguments; commands without keys give
none; the lines follow the server's order. A reader ignores fields it does not know (`read_trace` does), so
fields may be added later without a new version.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from rediscipline.model.display import PATH_LIMIT, display_bytes
from rediscipline.sources.errors import SourceError

FORMAT = "rediscipline-trace"
VERSION = 1


@dataclass(frozen=True, slots=True)
class TraceHeader:
    """What a trace's first line says of the server it was sampled from (see the module docstring)."""

    server: str | None = None
    allocator: str | None = None

    def line(self) -> str:
        fields: dict[str, object] = {"format": FORMAT, "version": VERSION}
        if self.server:
            fields["server"] = self.server
        if self.allocator:
            fields["allocator"] = self.allocator
        return json.dumps(fields) + "\n"


@dataclass(frozen=True, slots=True)
class Access:
    """One line of a trace: a key accessed by a command (see the module docstring)."""

    us: int
    db: int
    command: str
    size: int
    key: bytes
    ttl: int = 0


class TraceWriter:
    """Writes accesses to a text stream opened for writing (the header first, at once); `written` counts them."""

    def __init__(self, stream: IO[str], header: TraceHeader = TraceHeader()) -> None:
        self._stream = stream
        self._commands: dict[str, str] = {}  # command → its JSON string
        self.written = 0
        stream.write(header.line())

    def write(self, us: int, db: int, command: str, size: int, key: bytes, *, ttl: int = 0) -> None:
        quoted = self._commands.get(command)
        if quoted is None:
            quoted = json.dumps(command)
            if len(self._commands) < 4096:
                self._commands[command] = quoted
        encoded = base64.b64encode(key).decode("ascii")
        expiry = f',"ttl":{ttl}' if ttl > 0 else ""
        self._stream.write(f'{{"us":{us},"db":{db},"cmd":{quoted},"size":{size},"key":"{encoded}"{expiry}}}\n')
        self.written += 1


@contextlib.contextmanager
def trace_file(path: Path, header: TraceHeader = TraceHeader()) -> Iterator[TraceWriter]:
    """A writer into a new file beside `path` that replaces `path` when the block ends without an error: an
    interrupted sample never leaves half a trace, nor destroys the one that was there. Raises SourceError
    when the file cannot be made or moved into place."""
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    except OSError as error:
        raise _cannot(path, error) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            yield TraceWriter(stream, header)
        os.replace(temporary, path)
    except OSError as error:
        _remove(temporary)
        raise _cannot(path, error) from None
    except BaseException:
        _remove(temporary)
        raise


def _cannot(path: Path, error: OSError) -> SourceError:
    shown = display_bytes(os.fsencode(path), PATH_LIMIT)
    return SourceError(f"cannot write the trace {shown}: {(error.strerror or str(error)).lower()}")


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def read_trace(lines: Iterable[str]) -> Iterator[Access]:
    """The accesses of a trace (the lines of its file); raises ValueError when the first line is not a
    rediscipline trace of a version this code reads."""
    return TraceReader(lines).accesses()


class TraceReader:
    """A trace's lines read: its header at once (`header`; ValueError when the first line is not a rediscipline
    trace of a version this code reads), its accesses as they are iterated."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        try:
            first = json.loads(next(self._lines))
        except (StopIteration, json.JSONDecodeError):
            first = None
        if not isinstance(first, dict) or first.get("format") != FORMAT or first.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} file of version {VERSION}")
        server, allocator = first.get("server"), first.get("allocator")
        self.header = TraceHeader(
            server if isinstance(server, str) else None, allocator if isinstance(allocator, str) else None
        )

    def accesses(self) -> Iterator[Access]:
        for line in self._lines:
            record = json.loads(line)
            key = base64.b64decode(record["key"])
            ttl = int(record.get("ttl", 0))
            yield Access(int(record["us"]), int(record["db"]), str(record["cmd"]), int(record["size"]), key, ttl)
