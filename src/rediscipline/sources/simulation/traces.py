"""Access traces read from a file, for the eviction simulator: each access is a key read through a cache (a
GET and, on a miss, a SET of a value of the access's size).

Three formats, told apart by their first line:

* **rediscipline trace** (`traffic --monitor --save-trace`; `sources.traffic.trace`): JSON lines after the header
  `{"format": "rediscipline-trace", "version": 1, ...}`, which names the server sampled (`header`). A line's
  `size` is its command's argument bytes per key, so a key's value size is taken from its writes (a SET's,
  SETEX's, ...: the size less the key), and a key never written takes `default_size`;
* **MONITOR capture** (`redis-cli monitor > capture.txt`, with or without its first `OK` line): each line a
  command as MONITOR prints it (`sources.traffic.monitor_line`), its keys found by the command table, a key's
  value size from its writes' value argument;
* **text**: one access per line, `[ts_ms] key size [ttl=MS]` separated by spaces or tabs (the key's bytes as
  they are, without whitespace; the size in bytes; the time in milliseconds, optional; the TTL the SET after a
  miss gives the key, in milliseconds, optional), `#` comments and blank lines skipped.

A rediscipline trace's `ttl` field and a MONITOR capture's expiries (SET EX/PX/EXAT/PXAT, SETEX, PSETEX,
EXPIRE, ...) give an access its TTL the same way.

Without times (a text trace without them), accesses are spaced at `rate` per second from 0. Keys are bytes;
a line that cannot be read is an error naming the file and the line, never skipped silently.
"""

from __future__ import annotations

import json
import os
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from rediscipline.model.display import PATH_LIMIT, QUOTE_LIMIT, display_bytes
from rediscipline.redis_meta.commands import key_positions
from rediscipline.simulate.eviction import Trace
from rediscipline.sources.errors import SourceError
from rediscipline.sources.traffic.monitor_line import parse_line
from rediscipline.sources.traffic.monitor_tally import SCRIPT_CALLERS, ttl_argument, ttl_ms
from rediscipline.sources.traffic.trace import FORMAT, TraceHeader, TraceReader

FORMAT_TRACE = FORMAT
FORMAT_MONITOR = "monitor"
FORMAT_TEXT = "text"

#: A text trace's optional last field: the TTL in milliseconds the access's SET gives the key.
TTL_FIELD = b"ttl="

#: Accesses per second assumed between accesses without times.
DEFAULT_RATE = 10_000
#: A value's bytes where the trace says nothing of it.
DEFAULT_SIZE = 100

#: Commands whose write gives a key its value's size: in a rediscipline trace, the access's size less the key.
VALUE_WRITES = frozenset({"set", "setex", "psetex", "setnx", "getset", "mset", "msetnx"})
#: In a MONITOR capture, where those commands hold the value: an argument's index, or the one after each key.
AFTER_KEY = -1
VALUE_AT = {"set": 2, "setnx": 2, "getset": 2, "setex": 3, "psetex": 3, "mset": AFTER_KEY, "msetnx": AFTER_KEY}


@dataclass(frozen=True, slots=True)
class LoadedTrace:
    """A trace as the simulator takes it, with what the report says of it."""

    trace: Trace
    format: str
    timed: bool
    header: TraceHeader = field(default_factory=TraceHeader)  # what a rediscipline trace says of its server


class _Builder:
    """Accesses appended one by one into columns, keys numbered per (database, name)."""

    def __init__(self) -> None:
        self.times, self.keys, self.sizes = array("q"), array("q"), array("q")
        self.ttls, self.dbs = array("q"), array("q")
        self.names: list[bytes] = []
        self.numbers: dict[tuple[int, bytes], int] = {}
        self.written: dict[int, int] = {}  # key number → value size from its writes

    def add(self, ms: int, db: int, key: bytes, size: int, ttl: int = 0) -> int:
        number = self.numbers.get((db, key))
        if number is None:
            number = self.numbers[(db, key)] = len(self.names)
            self.names.append(key)
        self.times.append(ms)
        self.keys.append(number)
        self.sizes.append(size)
        self.ttls.append(ttl)
        self.dbs.append(db)
        return number

    def sized_by_writes(self, default_size: int) -> None:
        """Every access of a key takes its value's size from its writes, else `default_size`."""
        written = self.written
        for index, number in enumerate(self.keys):
            self.sizes[index] = written.get(number, default_size)

    def trace(self) -> Trace:
        return Trace(self.times, self.keys, self.sizes, self.ttls, self.dbs, self.names)


def load_trace(path: Path, *, default_size: int = DEFAULT_SIZE, rate: int = DEFAULT_RATE) -> LoadedTrace:
    """The trace in `path`, in whichever format its first line shows. Raises SourceError naming the file (and
    the line) when it cannot be read or a line is malformed."""
    shown = display_bytes(os.fsencode(path), PATH_LIMIT)
    try:
        with path.open("rb") as stream:
            first = stream.readline()
            stream.seek(0)
            if first.startswith(b"{"):
                return _json_trace(stream, shown, default_size)
            if first.rstrip(b"\r\n") in (b"OK", b"+OK") or parse_line(first.rstrip(b"\r\n")) is not None:
                return _monitor_trace(stream, shown, default_size)
            return _text_trace(stream, shown, rate)
    except OSError as error:
        raise SourceError(f"cannot read the trace {shown}: {(error.strerror or str(error)).lower()}") from None


def _json_trace(stream: IO[bytes], shown: str, default_size: int) -> LoadedTrace:
    builder = _Builder()
    lines = _Numbered(stream)
    try:
        reader = TraceReader(text for _number, text in lines)
        for access in reader.accesses():
            number = builder.add(access.us // 1000, access.db, access.key, access.size, access.ttl)
            if access.command in VALUE_WRITES:
                builder.written[number] = max(access.size - len(access.key), 0)
    except ValueError as error:
        raise SourceError(f"{shown}: line {lines.number}: {_why(error)}") from None
    except (KeyError, TypeError) as error:
        raise SourceError(f"{shown}: line {lines.number}: not an access ({_why(error)} missing or wrong)") from None
    builder.sized_by_writes(default_size)
    return LoadedTrace(builder.trace(), FORMAT_TRACE, True, reader.header)


def _monitor_trace(stream: IO[bytes], shown: str, default_size: int) -> LoadedTrace:
    builder = _Builder()
    for number, raw in enumerate(stream, 1):
        line = raw.rstrip(b"\r\n")
        if not line or (number == 1 and line in (b"OK", b"+OK")):
            continue
        parsed = parse_line(line)
        if parsed is None:
            raise SourceError(f"{shown}: line {number}: not a MONITOR line: {display_bytes(line, QUOTE_LIMIT)}")
        moment, db, _client, args = parsed
        name = args[0].decode("ascii", "replace").lower()
        positions = () if name in SCRIPT_CALLERS else key_positions(args)
        if not positions:
            continue
        share = (sum(map(len, args)) - len(args[0])) // len(positions)
        ttl = ttl_ms(ttl_argument(name, args), moment)
        for position in positions:
            key = args[position]
            index = builder.add(round(moment * 1000), db, key, share, ttl)
            value = VALUE_AT.get(name)
            at = position + 1 if value == AFTER_KEY else value
            if at is not None and at < len(args):
                builder.written[index] = len(args[at])
    builder.sized_by_writes(default_size)
    return LoadedTrace(builder.trace(), FORMAT_MONITOR, True)


def _text_trace(stream: IO[bytes], shown: str, rate: int) -> LoadedTrace:
    builder = _Builder()
    timed: bool | None = None
    for number, raw in enumerate(stream, 1):
        fields = raw.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        ttl = 0
        if len(fields) > 2 and fields[-1].startswith(TTL_FIELD):
            ttl = _number(fields.pop()[len(TTL_FIELD) :], "ttl", shown, number)
        if len(fields) not in (2, 3):
            raise SourceError(f"{shown}: line {number}: expected `[ts_ms] key size [ttl=MS]`, not {len(fields)} fields")
        has_time = len(fields) == 3
        if timed is None:
            timed = has_time
        elif timed != has_time:
            raise SourceError(f"{shown}: line {number}: every line needs a time, or none does")
        size = _number(fields[-1], "size", shown, number)
        ms = _number(fields[0], "time", shown, number) if has_time else len(builder.keys) * 1000 // rate
        if builder.times and ms < builder.times[-1]:
            raise SourceError(f"{shown}: line {number}: time {ms} is before the line above's")
        builder.add(ms, 0, fields[-2], size, ttl)
    return LoadedTrace(builder.trace(), FORMAT_TEXT, bool(timed))


def _number(text: bytes, what: str, shown: str, line: int) -> int:
    if not text.isdigit() or len(text) > 18:
        raise SourceError(f"{shown}: line {line}: {what} {display_bytes(text, QUOTE_LIMIT)} is not a whole number")
    return int(text)


class _Numbered:
    """The lines of a binary stream as text, counting them (`number`: the last one given)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream, self.number = stream, 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        for raw in self.stream:
            self.number += 1
            yield self.number, raw.decode("utf-8", "replace")


def _why(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON ({error.msg})"
    return str(error)
