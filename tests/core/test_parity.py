"""The compiled core and the pure-Python one give the same results: the same facts from every dump, the same
error at the same offset from every damaged one, and byte-identical JSON reports (all rules on) from both.

The compiled modules are `sources.rdb._walk` (the dump walk) and `engine._kernel` (the engine's per-key path);
`REDISCIPLINE_PURE=1` switches both off. The tests skip without them, and fail under CI, which builds them.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rediscipline import compiled
from rediscipline.api import RdbScanOptions, scan_rdb, settings_for
from rediscipline.engine.runner import KERNEL
from rediscipline.render.json_output import render_json
from rediscipline.settings.loader import Overrides
from rediscipline.sources.rdb.errors import RdbError
from rediscipline.sources.rdb.lzf import LzfError, decompress
from rediscipline.sources.rdb.parser import WALK, open_rdb
from tests.support.cores import require_compiled
from tests.support.fixtures import rdb_fixtures_dir
from tests.support.rdbwriter import RdbBuilder, enc_len, enc_str, intset, listpack, lzf_compress, lzf_literal, ziplist

ROOT = rdb_fixtures_dir() or Path("/nonexistent")
FIXTURES = sorted(ROOT.glob("*/*.rdb"))
ALL_TYPES_74 = ROOT / "rdb-rs" / "redis_7_4_all_types.rdb"
ELAPSED = re.compile(rb'"elapsed_seconds": [0-9.e-]+')


def on_core(pure: bool, read: Callable[[], Any]) -> Any:
    """What `read` gives on one core (the compiled one skips without its modules, or fails under CI)."""
    if not pure:
        require_compiled(WALK)
        require_compiled(KERNEL)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(compiled.PURE_VARIABLE, "1" if pure else "0")
        return read()


def facts(path: Path, **options: Any) -> tuple[list[tuple[Any, ...]], tuple[Any, ...]]:
    """Every field of every key a walk yields, and what the file said about itself; or the error."""
    try:
        with open_rdb(path, **options) as dump:
            keys = [dataclasses.astuple(key) for key in dump]
            return keys, (dict(dump.aux), dump.resize, dump.functions, dump.expired, dump.checksum, dump.slots)
    except RdbError as error:
        return [], ("error", str(error), error.offset)


def same_on_both(path: Path, **options: Any) -> None:
    compiled_result = on_core(False, lambda: facts(path, **options))
    pure_result = on_core(True, lambda: facts(path, **options))
    assert compiled_result[1] == pure_result[1]
    assert len(compiled_result[0]) == len(pure_result[0])
    for mine, theirs in zip(compiled_result[0], pure_result[0], strict=True):
        assert mine == theirs


def report_bytes(paths: list[Path], **options: Any) -> bytes:
    """The JSON report of a dump audit with every rule on, its run time zeroed."""
    settings = settings_for(Overrides(isolated=True, select=("ALL",)))
    report = scan_rdb(RdbScanOptions(tuple(str(p) for p in paths), jobs=1, **options), settings)
    out = io.StringIO()
    render_json(report, out)
    return ELAPSED.sub(b'"elapsed_seconds": 0', out.getvalue().encode())


@pytest.mark.parametrize("deep", [False, True], ids=["metadata", "deep"])
@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_gives_the_same_facts(path: Path, deep: bool) -> None:
    same_on_both(path, deep=deep)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_gives_byte_identical_reports(path: Path) -> None:
    compiled_report = on_core(False, lambda: _report_or_error([path]))
    pure_report = on_core(True, lambda: _report_or_error([path]))
    assert compiled_report == pure_report


def _report_or_error(paths: list[Path]) -> bytes:
    try:
        return report_bytes(paths)
    except Exception as error:  # a dump the audit refuses must be refused alike
        return f"{type(error).__name__}: {error}".encode()


#: Writers whose embedded-string limits differ (`primitives.embstr`): magic, RDB version, AUX fields.
WRITERS = {
    "redis72": ("REDIS", 11, {b"redis-ver": b"7.2.4"}),
    "redis82": ("REDIS", 12, {b"redis-ver": b"8.2.3"}),
    "valkey91": ("VALKEY", 80, {b"redis-ver": b"7.2.4", b"valkey-ver": b"9.1.2"}),
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_dump_made_to_exercise_the_fast_paths(tmp_path: Path, writer: str) -> None:
    """Strings plain, int-like, int-encoded, compressed and long, keys of 63 and 64 bytes, every compact blob type,
    quicklists of one and two nodes, collections stored element by element, expiries (past ones dropped), idle
    and frequency prefixes, two databases: facts and reports alike."""
    path = tmp_path / "fast.rdb"
    path.write_bytes(_fast_path_dump(random.Random(7), writer))
    same_on_both(path)
    same_on_both(path, deep=True)
    assert on_core(False, lambda: report_bytes([path])) == on_core(True, lambda: report_bytes([path]))


def _fast_path_dump(rng: random.Random, writer: str = "redis72") -> bytes:
    magic, version, aux = WRITERS[writer]
    b = RdbBuilder(version, magic=magic).aux(b"ctime", b"1700000000")
    for name, value in aux.items():
        b.aux(name, value)
    b.select(0)
    for i in range(600):
        key = f"user:{i}:{'x' * rng.choice([0, 1, 5, 20, 25, 40, 53, 54, 60, 100, 110])}".encode()
        kind = i % 12 if i % 2 else 0
        prefix = b""
        if i % 3 == 0:
            due = rng.choice([-5_000, 60_000, 86_400_000 * 40, rng.randrange(86_400_000)])  # past, soon, later, today
            prefix += b"\xfc" + (1_700_000_000_000 + due).to_bytes(8, "little")
        if i % 5 == 0:
            prefix += b"\xf8" + enc_len(rng.choice([3, 200, 70_000]))
        if i % 7 == 0:
            prefix += b"\xf9" + bytes([rng.randrange(256)])
        if kind == 0:
            value = rng.choice([b"12345", b"-7", b"007", b"9" * 21, b"\x80\x04\x95", b"y" * 300, *INT_EDGES])
            edge = rng.choice([33, 41, 44, 111, 113]) - len(key) + rng.choice([-1, 0, 1])  # embstr limits
            form = rng.random()
            if form < 0.4:
                encoded = enc_str(value)
            elif form < 0.75:
                encoded = enc_str(b"z" * max(0, edge))
            else:
                number = rng.choice([0, -1, 127, -128, 128, 32767, -32769, 2**31 - 1, -(2**31)])
                encoded = enc_str(str(number).encode(), as_int=True)
            b.raw(prefix + b"\x00" + enc_str(key) + encoded)
        elif kind == 1:
            b.raw(
                prefix
                + b"\x00"
                + enc_str(key)
                + enc_str(b"compressible text " * rng.choice([2, 70, 4000]), lzf="backref")
            )
        elif kind == 2:
            b.raw(prefix + b"\x10" + enc_str(key) + enc_str(listpack([b"f1", b"v1", b"f2", b"v" * 40])))
        elif kind == 3:
            b.raw(prefix + b"\x14" + enc_str(key) + enc_str(listpack([str(n).encode() for n in range(20)])))
        elif kind == 4:
            b.raw(prefix + b"\x11" + enc_str(key) + enc_str(listpack([b"m", b"1.5", b"n", b"2"])))
        elif kind == 5:
            b.raw(prefix + b"\x0b" + enc_str(key) + enc_str(intset(list(range(rng.randrange(1, 50))))))
        elif kind == 6:
            b.raw(prefix + b"\x0d" + enc_str(key) + enc_str(ziplist([b"a", b"1", b"b", b"2"])))
        elif kind == 7:
            b.raw(prefix + b"\x12" + enc_str(key) + enc_len(1) + enc_len(2) + enc_str(listpack([b"e"] * 5)))
        elif kind == 8:
            nodes = enc_len(2) + (enc_len(2) + enc_str(listpack([b"e"] * 3))) * 2
            b.raw(prefix + b"\x12" + enc_str(key) + nodes)
        elif kind == 9:
            b.raw(prefix + b"\x10" + enc_str(key) + enc_str(listpack([b"f", b"v" * 30] * 3), lzf="literal"))
        elif kind == 10:
            b.raw(prefix + b"\x10" + enc_str(key) + enc_str(listpack([b"f", b"v" * 200] * 30)))  # walked: 12 KB
        else:
            op, value = _one_by_one(rng)
            b.raw(prefix + op + enc_str(key) + value)
        if i == 200:
            b.select(1)
    return b.build()


def _one_by_one(rng: random.Random) -> tuple[bytes, bytes]:
    """A type byte (1-5) and key-less value of a collection stored element by element: a count, then strings
    of every encoding (6-, 14- and 32-bit lengths, 8/16/32-bit integers, LZF), each zset member followed by
    its score (text with the 253-255 forms for type 3, 8 bytes for type 5)."""
    op = rng.randrange(1, 6)
    count = rng.choice([0, 1, 3, 8])
    out = enc_len(count)
    for _ in range(count * (2 if op == 4 else 1)):
        form = rng.randrange(6)
        if form == 0:
            out += enc_str(b"m" * rng.randrange(64))
        elif form == 1:
            out += enc_str(b"w" * rng.randrange(64, 300))
        elif form == 2:
            out += enc_str(b"x" * rng.randrange(40), len_width=32)
        elif form in (3, 4):
            number = rng.choice([0, -1, 7, -128, 127, 300, -30_000, 70_000, -(2**31)])
            out += enc_str(str(number).encode(), as_int=True)
        else:
            out += enc_str(b"compressible member " * rng.randrange(1, 5), lzf="backref")
        if op == 3:
            out += rng.choice([b"\xfd", b"\xfe", b"\xff", b"\x031.5", b"\x02-2"])
        elif op == 5:
            out += rng.randbytes(8)
    return bytes([op]), out


#: Strings at the edges of what the server keeps int-encoded (`primitives.is_int`).
INT_EDGES = [
    b"0",
    b"-0",
    b"-",
    b"+1",
    b" 1",
    b"1a",
    b"00",
    b"-01",
    b"9223372036854775807",
    b"9223372036854775808",
    b"-9223372036854775808",
    b"-9223372036854775809",
    b"18446744073709551616",
    b"99999999999999999999",
    b"-1234567890123456789",
    b"\xd9\xa3",
]


def _damaged(data: bytes) -> Iterator[bytes]:
    for cut in range(0, len(data), 3):
        yield data[:cut]
    for pos in range(len(data)):
        flipped = bytearray(data)
        flipped[pos] ^= 0xFF
        yield bytes(flipped)


@pytest.mark.skipif(not ALL_TYPES_74.exists(), reason="shared RDB fixtures are not on this machine")
def test_damaged_dumps_give_the_same_error_at_the_same_offset(tmp_path: Path) -> None:
    sources = [ALL_TYPES_74.read_bytes(), _fast_path_dump(random.Random(3))[:6000]]
    path = tmp_path / "damaged.rdb"
    for data in sources:
        for damaged in _damaged(data):
            path.write_bytes(damaged)
            for options in ({}, {"verify": False, "deep": True}):
                first = on_core(False, lambda options=options: facts(path, **options))
                second = on_core(True, lambda options=options: facts(path, **options))
                assert first == second, (len(damaged), options)


@settings(max_examples=3000, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=200),
        st.binary(min_size=1, max_size=3000).map(lzf_compress),
        st.binary(min_size=1, max_size=300).map(lzf_literal),
    ),
    size=st.integers(0, 4000),
    limit=st.one_of(st.none(), st.integers(0, 2000)),
)
def test_lzf_gives_the_same_bytes_and_errors(data: bytes, size: int, limit: int | None) -> None:
    """Valid streams at their size and at wrong ones, damaged and random streams, whole or up to a limit."""

    def decode() -> bytes | str:
        try:
            return decompress(data, size, limit)
        except LzfError as error:
            return f"LzfError: {error}"

    assert on_core(False, decode) == on_core(True, decode)
