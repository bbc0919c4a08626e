"""Where something was observed: a key file line, a server, a dump, a source file."""

from __future__ import annotations

from dataclasses import dataclass

SOURCE_KEYS = "keys"
SOURCE_LIVE = "live"
SOURCE_RDB = "rdb"
SOURCE_CODE = "code"
SOURCE_CONFIG = "config"
SOURCE_RUNTIME = "runtime"  # a call site of a running application, seen by the guard
SOURCE_TRAFFIC = "traffic"  # what a live server was sent during an observation window
SOURCE_SIMULATION = "simulation"  # what a simulator predicts a server would do with a trace or a keyspace
#: Sources whose locations are places in files a team edits (source code, server config files, the call sites
#: the runtime guard saw), as opposed
#: to where keys were read (a server, a dump, a key list).
FILE_SOURCES = frozenset({SOURCE_CODE, SOURCE_CONFIG, SOURCE_RUNTIME})


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source. `path` is a file path, `-` for standard input, or a URL without credentials.

    Lines and columns are 1-based. A code location also carries its end (for SARIF regions and editors)
    and `context`: what the source says identifies the place apart from its line number (the enclosing
    function and the statement's normalised text), so a finding keeps its fingerprint when lines move.
    """

    source: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    db: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    context: str | None = None
