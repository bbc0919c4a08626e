"""The library keyspace corpus (`tests/data/library_keys/*.tsv`, written by `scripts/library_keyspace/`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "data" / "library_keys"
APPLICATION = "-"  # the library column of keys the workload wrote itself
_ESCAPE = re.compile(rb"\\(\\|x([0-9a-f]{2}))")


@dataclass(frozen=True, slots=True)
class Row:
    library: str
    family: str
    type: str
    ttl_ms: int
    key: bytes


def unescape(text: str) -> bytes:
    """A key as the corpus writes it (`\\\\`, `\\xHH`) back to its bytes."""
    return _ESCAPE.sub(lambda m: b"\\" if m.group(2) is None else bytes([int(m.group(2), 16)]), text.encode("ascii"))


def load(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            library, family, kind, ttl, key = line.split("\t")
            rows.append(Row(library, family, kind, int(ttl), unescape(key)))
    return rows


#: Keys written with non-default prefix options: a fixture of the prefixed shapes
#: (`tests/redis_meta/test_prefixed_shapes.py`), not a keyspace measured as a whole.
PREFIXED = CORPUS / "prefixed_keys.tsv"


def corpus_files() -> list[Path]:
    return sorted(path for path in CORPUS.glob("*.tsv") if path != PREFIXED)
