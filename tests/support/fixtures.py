"""Where the shared RDB fixtures are: `../shared/rdb-fixtures` beside the checkout, else the workspace copy.

A clean clone for CI may live anywhere, so the path is not only relative to the repository:
$REDISCIPLINE_RDB_FIXTURES, then `<repo>/../shared/rdb-fixtures`, then `/work/shared/rdb-fixtures`.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CANDIDATES = (
    *(Path(p) for p in [os.environ.get("REDISCIPLINE_RDB_FIXTURES")] if p),
    REPO.parent / "shared" / "rdb-fixtures",
    Path("/work/shared/rdb-fixtures"),
)


def rdb_fixtures_dir() -> Path | None:
    """The first candidate folder that holds fixture dumps, or None."""
    for candidate in CANDIDATES:
        if any(candidate.glob("*/*.rdb")):
            return candidate
    return None
