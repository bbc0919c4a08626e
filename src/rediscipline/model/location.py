"""Where something was observed: a key file line, a server, a dump, a source file."""

from __future__ import annotations

from dataclasses import dataclass

SOURCE_KEYS = "keys"
SOURCE_LIVE = "live"
SOURCE_RDB = "rdb"
SOURCE_CODE = "code"
SOURCE_CONFIG = "config"
SOURCE_RUNTIME = "runtime"


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source. `path` is a file path, `-` for standard input, or a URL without credentials."""

    source: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    db: int | None = None
