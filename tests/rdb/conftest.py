"""Fixtures for the RDB correctness tests: one real dump per installed server kind, parsed once per module.

Every test here runs on both cores (`core`: the compiled walk and the pure-Python one, see
`rediscipline.compiled`); without a compiled core in this checkout the compiled runs are skipped, and fail
under CI, whose `make venv` builds it.

`server_dump` builds a dump on a fresh server of each kind (tests/support/rdbdumps.py) with the server's
own answers as ground truth; `parsed` / `parsed_deep` hold what our parser reads from that file in
metadata and deep mode. A kind that is not installed is skipped, except redis70 and valkey91 under CI
(`require_kind`, shared with the live tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rediscipline.sources.rdb.parser import WALK, open_rdb
from rediscipline.sources.rdb.records import RdbHeader, RdbKey
from tests.support.cores import core_fixture
from tests.support.kinds import require_kind
from tests.support.rdbdumps import DumpTruth, build_dump

DUMP_KINDS = ("redis62", "redis70", "redis82", "valkey91")
#: The encoding the contract gives module values (OBJECT ENCODING itself answers "raw" for them).
MODULE_ENCODING = "raw"  # what OBJECT ENCODING prints for a module value


@dataclass
class Parsed:
    """Everything one pass of `open_rdb(...).keys()` gave."""

    header: RdbHeader
    keys: dict[tuple[int, bytes], RdbKey]
    order: list[RdbKey]  # file order
    aux: dict[str, bytes] = field(default_factory=dict)
    functions: list[bytes] = field(default_factory=list)
    resize: dict[int, tuple[int, int]] = field(default_factory=dict)
    module_aux: list[str] = field(default_factory=list)
    expired: int = 0  # keys already expired when the dump was written: counted, not yielded
    checksum: str = ""


def parse_file(path: Path, *, deep: bool = False) -> Parsed:
    with open_rdb(path, deep=deep) as dump:
        order = list(dump.keys())
        return Parsed(
            header=dump.header, keys={(k.db, k.key): k for k in order}, order=order, aux=dict(dump.aux),
            functions=list(dump.functions), resize=dict(dump.resize), module_aux=list(dump.module_aux),
            expired=dump.expired, checksum=dump.checksum,
        )  # fmt: skip


core = core_fixture(WALK)


@pytest.fixture(scope="module", params=DUMP_KINDS)
def server_dump(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DumpTruth:
    kind: str = request.param
    require_kind(kind)
    return build_dump(kind, tmp_path_factory.mktemp(f"rdb-{kind}"))


@pytest.fixture(scope="module")
def parsed(server_dump: DumpTruth, core: str) -> Parsed:
    return parse_file(server_dump.path)


@pytest.fixture(scope="module")
def parsed_deep(server_dump: DumpTruth, core: str) -> Parsed:
    return parse_file(server_dump.path, deep=True)
