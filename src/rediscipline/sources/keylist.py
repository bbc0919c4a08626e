"""Key lists, one key per line, in three formats so that binary keys survive the trip.

* `raw`: bytes as `redis-cli --scan` prints them to a pipe. One trailing `\\n` (or `\\r\\n`) is removed;
  nothing is decoded, so invalid UTF-8 is linted as the bytes it is. Empty lines are skipped. A key that
  itself contains a newline cannot be written this way: use one of the other formats.
* `redis-cli-quoted`: `redis-cli --scan --quoted-output`: a line in double quotes is unescaped
  (`\\"`, `\\\\`, `\\n`, `\\r`, `\\t`, `\\a`, `\\b`, `\\xHH`); an unquoted line is taken raw.
* `jsonl`: one JSON value per line: a string, or an object with `key` (text) or `key_b64` (base64),
  optionally `db` and `type`. The `name`/`name_b64` spelling of our own JSON output is accepted too.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from rediscipline.model.facts import KeyNames
from rediscipline.model.location import SOURCE_KEYS, Location
from rediscipline.model.plan import ProbePlan
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.sources.errors import SourceError

FORMATS = ("raw", "redis-cli-quoted", "jsonl")
KeyRecord = tuple[bytes, int, "str | None"]
READ_BUFFER = 1 << 20

_QUOTED_ESCAPE = re.compile(rb'\\(x[0-9a-fA-F]{2}|["\\nrtab])')
_SIMPLE = {b'"': b'"', b"\\": b"\\", b"n": b"\n", b"r": b"\r", b"t": b"\t", b"a": b"\x07", b"b": b"\x08"}


def _raw(stream: BinaryIO, path: str) -> Iterator[KeyRecord]:
    try:
        for line_number, line in enumerate(stream, 1):
            if line[-2:] == b"\r\n":
                key = line[:-2]
            elif line[-1:] == b"\n":
                key = line[:-1]
            else:
                key = line
            if key:
                yield key, line_number, None
    except OSError as error:
        raise SourceError(f"cannot read {path}: {error.strerror or error}") from None


def _unquote(body: bytes, where: str) -> bytes:
    def replace(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        return bytes([int(code[1:], 16)]) if code[:1] == b"x" else _SIMPLE[code]

    unescaped = _QUOTED_ESCAPE.sub(replace, body)
    leftover = _QUOTED_ESCAPE.sub(b"", body)
    if b"\\" in leftover or b'"' in leftover:
        raise SourceError(f"{where}: malformed quoted key (bad escape or stray quote)")
    return unescaped


def _quoted(stream: BinaryIO, path: str) -> Iterator[KeyRecord]:
    for key, line_number, _type in _raw(stream, path):
        if key[:1] == b'"':
            if len(key) < 2 or key[-1:] != b'"':
                raise SourceError(f"{path}:{line_number}: unterminated quoted key")
            yield _unquote(key[1:-1], f"{path}:{line_number}"), line_number, None
        else:
            yield key, line_number, None


def _jsonl(stream: BinaryIO, path: str) -> Iterator[KeyRecord]:
    for line, line_number, _type in _raw(stream, path):
        where = f"{path}:{line_number}"
        try:
            value = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise SourceError(f"{where}: invalid JSON ({error})") from None
        key_type = None
        if isinstance(value, str):
            text: str | None = value
            encoded = None
        elif isinstance(value, dict):
            text = value.get("key", value.get("name"))
            encoded = value.get("key_b64", value.get("name_b64"))
            key_type = value.get("type")
            if key_type is not None and not isinstance(key_type, str):
                raise SourceError(f"{where}: 'type' must be a string")
        else:
            raise SourceError(f"{where}: expected a string or an object with 'key' or 'key_b64'")
        if encoded is not None:
            try:
                key = base64.b64decode(str(encoded), validate=True)
            except (binascii.Error, ValueError):
                raise SourceError(f"{where}: 'key_b64' is not valid base64") from None
        elif isinstance(text, str):
            key = text.encode("utf-8", errors="surrogateescape")
        else:
            raise SourceError(f"{where}: expected a string or an object with 'key' or 'key_b64'")
        yield key, line_number, key_type


def read_keys(stream: BinaryIO, input_format: str, path: str) -> Iterator[KeyRecord]:
    """Yield (key bytes, line number, type or None) from an open binary stream."""
    if input_format == "raw":
        return _raw(stream, path)
    if input_format == "redis-cli-quoted":
        return _quoted(stream, path)
    if input_format == "jsonl":
        return _jsonl(stream, path)
    raise SourceError(f"unknown input format {input_format!r} (allowed: {', '.join(FORMATS)})")


#: Names given in memory are handed to the engine in batches of this many.
BATCH = 4096


class KeyListSource:
    """Key lists (files, or `-` for standard input) as a source: one `KeyNames` per list, whose names (each
    with its line) are read as the engine takes them, so a 40 M-line list costs no fact object per key."""

    place = SOURCE_KEYS
    counts_keys = True

    def __init__(self, inputs: Sequence[tuple[str, str]], stdin: BinaryIO | None = None) -> None:
        """`inputs`: (path or `-`, format) pairs; `stdin` stands for `-` (default: the process's own)."""
        self._inputs = tuple(inputs)
        self._stdin = stdin
        self.inputs = tuple(path for path, _format in self._inputs)

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        with ExitStack() as stack:
            for path, input_format in self._inputs:
                if path == "-":
                    stream = self._stdin or sys.stdin.buffer
                else:
                    try:
                        stream = stack.enter_context(Path(path).open("rb", buffering=READ_BUFFER))
                    except OSError as error:
                        raise SourceError(f"cannot read {path}: {error.strerror or error}") from None
                yield KeyNames(Location(SOURCE_KEYS, path), read_keys(stream, input_format, path))

    def outcome(self) -> SourceOutcome:
        return SourceOutcome()


class NameSource:
    """Key names given in memory (bytes, or str encoded as UTF-8), numbered from 1 like lines."""

    place = SOURCE_KEYS
    counts_keys = True
    inputs = ("<memory>",)

    def __init__(self, names: Iterable[bytes | str]) -> None:
        self._names = names

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        origin = Location(SOURCE_KEYS, "<memory>")
        records = (
            (name.encode("utf-8") if isinstance(name, str) else name, line, None)
            for line, name in enumerate(self._names, 1)
        )
        while batch := list(islice(records, BATCH)):
            yield KeyNames(origin, batch)

    def outcome(self) -> SourceOutcome:
        return SourceOutcome()
