"""Damaged dumps: the parser may only raise RdbError (with an offset inside the file), never hang or balloon.

Real dumps from the shared rdb-fixtures are cut at every byte and have bytes flipped at every position;
writer-made records claim absurd lengths (2^60); hypothesis mutates dumps of every version. Whatever the
damage, the only exception allowed out of `open_rdb(...).keys()` is RdbError, and its offset must point
into the file. With verification on, the CRC-64 must catch every flipped byte that still parses.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rediscipline.sources.rdb.errors import RdbError
from rediscipline.sources.rdb.parser import open_rdb
from tests.support.fixtures import rdb_fixtures_dir
from tests.support.rdbwriter import (
    Consumer,
    Group,
    RdbBuilder,
    enc_len,
    enc_str,
    intset,
    listpack,
    lzf_literal,
    module_id,
    vcs_envelope,
    ziplist,
    zipmap,
)

FIXTURES = rdb_fixtures_dir() or Path("/nonexistent")
ALL_TYPES_74 = FIXTURES / "rdb-rs" / "redis_7_4_all_types.rdb"
BIG = 1 << 60
FAR_MS = 4_102_444_800_000

pytestmark = pytest.mark.skipif(not ALL_TYPES_74.exists(), reason="shared RDB fixtures are not on this machine")


def parse_all(path: Path, **options: object) -> list:
    with open_rdb(path, **options) as dump:  # type: ignore[arg-type]
        return list(dump.keys())


def expect_rdb_error(path: Path, size: int, **options: object) -> RdbError:
    """Parsing must fail with RdbError whose offset lies inside the file (0 ≤ offset ≤ size)."""
    with pytest.raises(RdbError) as caught:
        parse_all(path, **options)
    error = caught.value
    assert 0 <= error.offset <= size, (error.offset, size, str(error))
    assert str(error.offset) in str(error)
    return error


def parses_or_rdb_error(path: Path, size: int, **options: object) -> None:
    try:
        parse_all(path, **options)
    except RdbError as error:
        assert 0 <= error.offset <= size, (error.offset, size, str(error))


# -- truncation and flipped bytes on a real dump ----------------------------------------------------------------


def test_truncation_at_every_byte(tmp_path):
    data = ALL_TYPES_74.read_bytes()
    assert len(parse_all(ALL_TYPES_74)) > 10
    path = tmp_path / "cut.rdb"
    for cut in range(len(data)):
        path.write_bytes(data[:cut])
        expect_rdb_error(path, cut)


def test_every_flipped_byte_is_caught_when_verifying(tmp_path):
    data = ALL_TYPES_74.read_bytes()
    path = tmp_path / "flip.rdb"
    for pos in range(len(data)):
        damaged = bytearray(data)
        damaged[pos] ^= 0xFF
        path.write_bytes(bytes(damaged))
        expect_rdb_error(path, len(data))


def test_flipped_bytes_without_verification_only_raise_rdb_error(tmp_path):
    data = ALL_TYPES_74.read_bytes()
    path = tmp_path / "flip.rdb"
    for pos in range(0, len(data), 2):  # every other byte keeps the test short; the fuzz test covers the rest
        damaged = bytearray(data)
        damaged[pos] ^= 0x01
        path.write_bytes(bytes(damaged))
        parses_or_rdb_error(path, len(data), verify=False, deep=True)


def test_flipped_checksum_byte_names_the_checksum_offset(tmp_path):
    data = bytearray(ALL_TYPES_74.read_bytes())
    data[-3] ^= 0x10
    path = tmp_path / "crc.rdb"
    path.write_bytes(bytes(data))
    assert expect_rdb_error(path, len(data)).offset == len(data) - 8
    assert len(parse_all(path, verify=False)) > 10


# -- lengths that claim 2^60 bytes or elements ------------------------------------------------------------------

_LZF_PAYLOAD = lzf_literal(b"\x00\x01" * 600)  # a valid stream that inflates to 1,200 bytes


def _huge_cases() -> dict[str, tuple[RdbBuilder, int]]:
    """Records whose length fields lie, with the offset of the lying record (9 = first record, 11 = after SELECT)."""

    def v(version: int) -> RdbBuilder:
        return RdbBuilder(version=version).select(0)

    graph = enc_len(module_id("graphdata", 1), width=9)
    huge = enc_len(BIG, width=9)
    no_entries = b"\x00" * 9  # v2 stream: no nodes, length 0, last/first/max-deleted ids 0-0, entries_added 0
    return {
        "string length": (v(10).key(0, b"k", huge + b"abc"), 11),
        "key length": (v(10).raw(b"\x00" + huge + b"k\x01v"), 11),
        "lzf compressed length": (v(10).key(0, b"k", b"\xc3" + huge + enc_len(5) + b"\x04abcde"), 11),
        "lzf uncompressed length": (
            v(10).key(0, b"k", b"\xc3" + enc_len(len(_LZF_PAYLOAD)) + huge + _LZF_PAYLOAD),
            11,
        ),
        "hash field count": (v(10).key(4, b"k", huge + b"\x01a\x01b"), 11),
        "set member count": (v(10).key(2, b"k", huge + b"\x01a"), 11),
        "zset member count": (v(10).key(5, b"k", huge + b"\x01a" + bytes(8)), 11),
        "list element count": (v(10).key(1, b"k", huge + b"\x01a"), 11),
        "quicklist node count": (v(10).key(18, b"k", huge + b"\x02" + enc_str(listpack([b"a"]))), 11),
        "listpack total bytes": (v(10).key(16, b"k", enc_str(b"\xff\xff\xff\x0f\x02\x00\x81a\x02\x81b\x02\xff")), 11),
        "ziplist total bytes": (v(10).key(13, b"k", enc_str(b"\xff\xff\xff\x0f" + ziplist([b"a", b"b"])[4:])), 11),
        "intset length": (v(10).key(11, b"k", enc_str(b"\x02\x00\x00\x00\xff\xff\xff\x0f\x01\x00")), 11),
        "stream node count": (v(10).key(19, b"k", huge + enc_str(bytes(16))), 11),
        "stream pel count": (v(10).key(19, b"k", no_entries + b"\x01\x01g\x00\x00\x00" + huge), 11),
        "module string": (v(10).key(7, b"k", graph + b"\x05" + huge + b"xx\x00"), 11),
        "aux value length": (RdbBuilder(version=10).raw(b"\xfa\x01a" + huge + b"zz"), 9),
        "function length": (RdbBuilder(version=10).raw(b"\xf5" + huge + b"#!lua"), 9),
        "key meta class count": (v(13).raw(b"\xf3" + huge + b"abcd\x00").string(b"k", b"v"), 11),
        "array element count": (v(14).key(28, b"k", huge + b"\x00\x00\x01" + bytes(8)), 11),
        "template field count": (
            RdbBuilder(version=15).raw(b"\xf2\x01" + huge + b"\x01a").select(0).hash_tmpl_array_ref(b"k", 1, [b"x"]),
            9,
        ),
        "valkey hash2 count": (RdbBuilder(version=80, magic="VALKEY").select(0).key(22, b"k", huge), 11),
    }


@pytest.mark.parametrize("name", sorted(_huge_cases()))
def test_absurd_lengths_are_rdb_errors(tmp_path, name):
    builder, offset = _huge_cases()[name]
    data = builder.build()
    path = tmp_path / "huge.rdb"
    path.write_bytes(data)
    for options in ({}, {"deep": True}, {"verify": False}):
        error = expect_rdb_error(path, len(data), **options)
        assert error.offset == offset, (name, options, str(error))  # the record that lies, not a later byte


# -- unknown bytes and bad headers --------------------------------------------------------------------------------


def test_unknown_type_byte_names_its_offset(tmp_path):
    b = RdbBuilder(version=12).select(0).string(b"ok", b"v")
    offset = len(b.body()) - 1  # where the next record starts (body() ends with the EOF byte)
    b.raw(b"\x63\x01k\x01v")
    path = tmp_path / "unknown.rdb"
    path.write_bytes(b.build())
    error = expect_rdb_error(path, path.stat().st_size)
    assert error.offset == offset
    assert f"offset {offset}" in str(error)


def test_unknown_type_after_an_expiry_names_the_record_start(tmp_path):
    b = RdbBuilder(version=12).select(0).string(b"ok", b"v")
    offset = len(b.body()) - 1
    b.raw(b"\xfc" + FAR_MS.to_bytes(8, "little") + b"\x22\x01k\x01v")  # type 34 does not exist in RDB 12
    path = tmp_path / "unknown.rdb"
    path.write_bytes(b.build())
    assert expect_rdb_error(path, path.stat().st_size).offset == offset


@pytest.mark.parametrize(
    ("data", "offset"),
    [
        (b"", 0),
        (b"REDIS", 0),
        (b"RDB0012\xff" + bytes(8), 0),
        (b"REDIS0016\xff" + bytes(8), 5),
        (b"VALKEY079\xff" + bytes(8), 6),
        (b"REDIS0012", 9),
        (b"REDIS0012\xff\x00\x00", 10),
    ],
)
def test_bad_headers_and_missing_eof(tmp_path, data, offset):
    path = tmp_path / "head.rdb"
    path.write_bytes(data)
    assert expect_rdb_error(path, len(data)).offset == offset


def test_redis_only_opcodes_and_types_are_errors_in_valkey_files(tmp_path):
    """Valkey 80 gives 242 no meaning (81 does) and 24–33 are Redis-only: nothing is guessed."""
    for raw in (b"\xf2\x01\x01\x01a", b"\x18\x01k" + bytes(8) + b"\x00", b"\x1c\x01k\x00\x00"):
        b = RdbBuilder(version=80, magic="VALKEY").select(0).raw(raw)
        path = tmp_path / "vk.rdb"
        path.write_bytes(b.build())
        assert expect_rdb_error(path, path.stat().st_size).offset == len(b.header()) + 2


# -- the LZ4 envelope --------------------------------------------------------------------------------------------


def test_damaged_lz4_envelopes(tmp_path):
    inner = RdbBuilder(version=81, magic="VALKEY").select(0).string(b"k", b"v" * 10_000).build()
    wrapped = vcs_envelope(inner)
    path = tmp_path / "env.rdb"
    for data in (
        wrapped[:3],
        wrapped[:7],
        wrapped[: len(wrapped) // 2],
        wrapped[:-1],
        b"VCS\x02\x01\x00\x01" + wrapped[7:],  # unknown envelope version
        b"VCS\x01\x02\x00\x01" + wrapped[7:],  # zstd is not known
        b"VCS\x01\x01\x00\x01" + b"\x04\x22\x4d\x18" + bytes(40),
    ):
        path.write_bytes(data)
        expect_rdb_error(path, len(data))


def test_errors_inside_an_enveloped_rdb_count_decompressed_bytes(tmp_path):
    b = RdbBuilder(version=81, magic="VALKEY").select(0).string(b"k", b"v" * 10_000)
    offset = len(b.body()) - 1
    inner = b.raw(b"\x63\x01k\x01v").build()
    path = tmp_path / "env.rdb"
    path.write_bytes(vcs_envelope(inner))
    with pytest.raises(RdbError) as caught:
        parse_all(path)
    assert caught.value.offset == offset  # 10,016: past the compressed file's size, in the inner RDB


# -- fuzzing -------------------------------------------------------------------------------------------------------


def _writer_corpus() -> list[bytes]:
    """Small writer-made dumps of the formats real fixtures lack (RDB 13–15, Valkey 80/81)."""
    r13 = RdbBuilder(version=13).aux(b"redis-ver", b"8.6.0").select(0).resizedb(4, 1)
    r13.string(b"m", b"v", expire_ms=FAR_MS, key_meta=[(b"abcd", [("uint", 5), ("string", b"xx")])])
    r13.stream(
        b"s4",
        version=4,
        nodes=[[((1, 0), [(b"f", b"v")]), ((2, 0), [(b"f", b"w")])]],
        groups=[Group(b"g", (2, 0), 2, [((1, 0), 5, 1)], [Consumer(b"c", 1, 2, [(1, 0)])])],
    )
    r13.hash_metadata(b"hm", [(b"a", b"b", FAR_MS), (b"c", b"d", None)])
    r13.hash_listpack_ex(b"hl", [(b"a", b"b", FAR_MS), (b"c", b"d", None)], lzf="backref")
    r13.module(b"mod", "graphdata", 3, [("uint", 1), ("float", 1.0), ("double", 2.0), ("string", b"s" * 40)])
    r14 = RdbBuilder(version=14).select(0)
    r14.stream(
        b"s5",
        version=5,
        nodes=[[((1, 0), [(b"f", b"v")])]],
        groups=[Group(b"g", (1, 0), 1, [((1, 0), 5, 1)], [Consumer(b"c", 1, 2)], nacked=[(1, 0)])],
    )
    r14.array(b"arr", [(0, 5), (1, 2.5), (2, b"x"), (9, b"y" * 30)], insert_idx=10)
    r15 = RdbBuilder(version=15).hash_template(1, [b"a", b"bb"]).select(0)
    r15.hash_tmpl_lp_ref(b"t1", 1, [1, b"x"]).hash_tmpl_array_ref(b"t2", 1, [b"1", b"2"])
    r15.blob(20, b"big", listpack([b"m%d" % i for i in range(300)], count=65535), lzf="backref")
    r15.quicklist2(b"q", [(2, listpack([b"a"] * 100)), (1, b"p" * 100)], lzf="literal")
    vk80 = RdbBuilder(version=80, magic="VALKEY").slot_import(b"j" * 40, [(0, 5)]).select(0)
    vk80.valkey_hash2(b"h", [(b"a", b"b", FAR_MS), (b"c", b"d", None)]).string(b"k", b"v" * 100, lzf="backref")
    vk81 = RdbBuilder(version=81, magic="VALKEY").select(0).string(b"k", b"v" * 100, lzf="backref")
    vk81.valkey_update(b"SET", b"a", b"b").blob(17, b"z", listpack([b"a", 1, b"b", 2]))
    r7 = RdbBuilder(version=7).select(0).blob(9, b"zm", zipmap([(b"f%d" % i, b"v" * i) for i in range(40)]))
    r7.blob(10, b"zl", ziplist([b"a", b"L" * 300, 5, 2**40], count=65535)).blob(11, b"is", intset([1, 2**40]))
    return [
        r13.build(),
        r14.build(),
        r15.build(),
        vk80.build(),
        vk81.build(),
        vk81.build(lz4_envelope=True),
        r7.build(),
    ]


def _fixture_corpus() -> list[bytes]:
    files = sorted(p for p in FIXTURES.glob("*/*.rdb") if p.stat().st_size <= 64 * 1024)
    return [p.read_bytes() for p in files]


CORPUS = _fixture_corpus() + _writer_corpus() if ALL_TYPES_74.exists() else [b""]

_mutation = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 1 << 20), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, 1 << 20), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 1 << 20), st.sampled_from([0x00, 0x3F, 0x80, 0x81, 0xC3, 0xFF])),
    st.tuples(st.just("delete"), st.integers(0, 1 << 20), st.integers(1, 16)),
    st.tuples(st.just("huge"), st.integers(0, 1 << 20), st.just(0)),
)


def _mutate(data: bytes, mutations: list[tuple[str, int, int]]) -> bytes:
    out = bytearray(data)
    for kind, where, value in mutations:
        pos = where % (len(out) + 1)
        if kind == "set" and out:
            out[pos % len(out)] = value
        elif kind == "cut":
            del out[pos:]
        elif kind == "insert":
            out[pos:pos] = bytes([value])
        elif kind == "delete":
            del out[pos : pos + value]
        elif kind == "huge":
            out[pos:pos] = b"\x81\x10" + bytes(7)
    return bytes(out)


class _Hang(Exception):
    pass


def _on_alarm(_signum, _frame):
    raise _Hang


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    index=st.integers(0, len(CORPUS) - 1),
    mutations=st.lists(_mutation, min_size=1, max_size=4),
    deep=st.booleans(),
    verify=st.booleans(),
)
def test_fuzz_mutated_dumps_only_raise_rdb_error(tmp_path, index, mutations, deep, verify):
    data = _mutate(CORPUS[index], mutations)
    path = tmp_path / "fuzz.rdb"
    path.write_bytes(data)
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(10)  # a hang guard, not a timing assertion: a parse of these small files takes milliseconds
    try:
        parses_or_rdb_error(path, len(data), deep=deep, verify=verify)
    except _Hang:
        pytest.fail(f"parser did not terminate on corpus[{index}] mutated by {mutations}: {data!r}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- the command line ------------------------------------------------------------------------------------------------


def _scan(path: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rediscipline", "scan", str(path)],
        capture_output=True,
        cwd=path.parent,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("damage", ["truncated", "flipped"])
def test_cli_reports_a_damaged_dump_in_one_line_with_exit_2(tmp_path, damage):
    data = bytearray(ALL_TYPES_74.read_bytes())
    if damage == "truncated":
        data = data[:1000]
    else:
        data[700] ^= 0xFF
    path = tmp_path / f"{damage}.rdb"
    path.write_bytes(bytes(data))
    done = _scan(path)
    stderr = done.stderr.decode(errors="replace")
    assert done.returncode == 2, (done.returncode, stderr, done.stdout[-2000:])
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    found = re.search(r"offset (\d+)", lines[0])
    assert found, lines[0]
    assert 0 <= int(found.group(1)) <= len(data)


# -- closing ---------------------------------------------------------------------------------------------------


def test_a_view_of_the_map_outliving_the_walk_does_not_fail_the_close(tmp_path):
    """Closing a dump while a view of its map is still alive (a value not yet freed where it was handed, as a
    Dask worker may keep one a moment longer) ends the read without a BufferError; the map goes with the view."""
    path = tmp_path / "one.rdb"
    path.write_bytes(RdbBuilder(version=10).select(0).string(b"user:1", b"v" * 100).build())
    dump = open_rdb(path)
    assert [key.name for key in dump] == [b"user:1"]
    view = memoryview(dump._map)  # what a value sliced from the map would hold
    dump.close()
    assert view[:5] == b"REDIS"
    view.release()
