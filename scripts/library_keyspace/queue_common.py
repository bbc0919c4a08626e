"""What the task-queue generator adds to `common`: families that name their library, as the queue workloads
label keys of several libraries in one database (rq-scheduler writes rq's job format)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from common import KeyRow, Server, escape_key, read_keys, server_version, start_server, stop_server
from common import write_corpus as write_rows

__all__ = [
    "Family",
    "KeyRow",
    "Row",
    "Server",
    "escape_key",
    "family",
    "label",
    "read_keys",
    "server_version",
    "start_server",
    "stop_server",
    "write_corpus",
]


@dataclass(frozen=True)
class Family:
    """A family of keys a library writes, recognised by a regular expression over the whole key."""

    library: str
    name: str
    pattern: re.Pattern[bytes]


def family(library: str, name: str, regex: str) -> Family:
    return Family(library, name, re.compile(regex.encode("utf-8"), re.DOTALL))


def label(keys: Iterable[bytes], families: Sequence[Family]) -> list[Family]:
    """The one family whose regex matches each whole key; a key with no family or with two stops the run."""
    labelled = []
    problems = []
    for key in keys:
        matches = [fam for fam in families if fam.pattern.fullmatch(key)]
        if len(matches) == 1:
            labelled.append(matches[0])
        elif not matches:
            problems.append(f"no family for key {escape_key(key)}")
        else:
            names = ", ".join(f"{fam.library}/{fam.name}" for fam in matches)
            problems.append(f"{len(matches)} families for key {escape_key(key)}: {names}")
    if problems:
        shown = "\n  ".join(problems[:40])
        more = f"\n  ... and {len(problems) - 40} more" if len(problems) > 40 else ""
        raise SystemExit(f"labelling failed for {len(problems)} key(s):\n  {shown}{more}")
    return labelled


@dataclass(frozen=True)
class Row:
    """One corpus line."""

    library: str
    family: str
    type: str
    ttl: int
    key: bytes


def write_corpus(path: Path, header_lines: Sequence[str], rows: Iterable[Row]) -> None:
    """The corpus TSV, one row per key sorted by library, family and key."""
    ordered = sorted(rows, key=lambda row: (row.library, row.family, row.key))
    write_rows(path, header_lines, ((r.library, r.family, r.type, r.ttl, r.key) for r in ordered))
