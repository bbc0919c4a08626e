"""The key accesses of a MONITOR sample as a trace file, for replaying them (the eviction simulator to come).

The format is JSON Lines (UTF-8, one object per line, `\\n` after each). The first line says what the file is:

    {"format": "rediscipline-trace", "version": 1}

and every other line is one access of one key:

    {"us": 1700000000123456, "db": 0, "cmd": "get", "size": 12, "key": "dXNlcjox"}

* `us`: when the server ran the command, its clock in microseconds since the Unix epoch (MONITOR's time,
  exact: the line gives microseconds);
* `db`: the database;
* `cmd`: the command name in lowercase, `name|sub` for a container's subcommand (`object|freq`);
* `size`: the bytes of the command's arguments (its name excluded) divided evenly among its keys, rounded
  down: a SET's value plus its key, an MGET's key;
* `key`: the key's bytes in standard base64 (padded), since keys are bytes and need not be UTF-8.

A command on several keys gives one line per key, in the order of its arguments; commands without keys give
none; the lines follow the server's order. A reader ignores fields it does not know (`read_trace` does), so
fields may be added later without a new version.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

FORMAT = "rediscipline-trace"
VERSION = 1
HEADER = json.dumps({"format": FORMAT, "version": VERSION}) + "\n"


@dataclass(frozen=True, slots=True)
class Access:
    """One line of a trace: a key accessed by a command (see the module docstring)."""

    us: int
    db: int
    command: str
    size: int
    key: bytes


class TraceWriter:
    """Writes accesses to a text stream opened for writing (the header first, at once); `written` counts them."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._commands: dict[str, str] = {}  # command → its JSON string
        self.written = 0
        stream.write(HEADER)

    def write(self, us: int, db: int, command: str, size: int, key: bytes) -> None:
        quoted = self._commands.get(command)
        if quoted is None:
            quoted = json.dumps(command)
            if len(self._commands) < 4096:
                self._commands[command] = quoted
        encoded = base64.b64encode(key).decode("ascii")
        self._stream.write(f'{{"us":{us},"db":{db},"cmd":{quoted},"size":{size},"key":"{encoded}"}}\n')
        self.written += 1


def read_trace(lines: Iterable[str]) -> Iterator[Access]:
    """The accesses of a trace (the lines of its file); raises ValueError when the first line is not a
    rediscipline trace of a version this code reads."""
    iterator = iter(lines)
    try:
        header = json.loads(next(iterator))
    except (StopIteration, json.JSONDecodeError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("version") != VERSION:
        raise ValueError(f"not a {FORMAT} file of version {VERSION}")
    for line in iterator:
        record = json.loads(line)
        key = base64.b64decode(record["key"])
        yield Access(int(record["us"]), int(record["db"]), str(record["cmd"]), int(record["size"]), key)
