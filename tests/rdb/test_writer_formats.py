"""Writer-made RDB files parse to exactly the facts they were written with.

Each test builds one edge case real servers cannot easily produce (tests/support/rdbwriter.py; layouts and
their sources in /tmp/rdbwork/new-formats.md) and asserts the RdbKey fields the parser reports. Files whose
types Redis 7.0 knows (RDB ≤ 10) are also handed to the real `redis-check-rdb` 7.0, which loads every record
with deep integrity checks: that proves the writer itself is right, so a failure below is the parser's.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rediscipline.sources.rdb.errors import RdbError
from rediscipline.sources.rdb.parser import open_rdb
from tests.support.rdbwriter import (
    Consumer,
    Group,
    RdbBuilder,
    enc_len,
    enc_str,
    intset,
    listpack,
    lzf_compress,
    lzf_has_backref,
    ziplist,
    zipmap,
)
from tests.support.servers import ServerUnavailable, start_server

FAR_MS = 4_102_444_800_000  # 2100-01-01
CHECK_RDB = shutil.which("redis-check-rdb")


def write(tmp_path: Path, builder: RdbBuilder, name: str = "dump.rdb", **build: object) -> Path:
    path = tmp_path / name
    path.write_bytes(builder.build(**build))  # type: ignore[arg-type]
    return path


def parse(path: Path, **options: object):
    with open_rdb(path, **options) as dump:  # type: ignore[arg-type]
        keys = list(dump.keys())
        return dump, keys


def by_name(keys) -> dict:
    return {k.key: k for k in keys}


def redis_accepts(path: Path) -> None:
    """The real Redis 7.0 loader (redis-check-rdb, deep sanitisation on) reads the file without complaint."""
    if CHECK_RDB is None:
        pytest.skip("redis-check-rdb (Debian redis-tools) is not installed")
    done = subprocess.run([CHECK_RDB, str(path)], capture_output=True, timeout=60, check=False)
    out = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    assert done.returncode == 0 and "RDB looks OK" in out, out


def load_in_server(kind: str, data: bytes):
    """Start a real server of `kind`, make it load `data` as its dump (DEBUG RELOAD NOSAVE), return it."""
    try:
        server = start_server(kind, ["--enable-debug-command", "yes"])
    except ServerUnavailable as error:
        pytest.skip(str(error))
    (server.workdir / "dump.rdb").write_bytes(data)
    try:
        assert server.client().execute_command("DEBUG", "RELOAD", "NOSAVE") in (b"OK", "OK")
    except BaseException:
        server.stop()
        raise
    return server


# -- listpacks that need a walk ------------------------------------------------------------------------------


def test_listpack_with_70000_entries_counts_by_walking(tmp_path):
    members = [b"m%d" % i for i in range(70_000)]
    blob = listpack(members)
    assert blob[4:6] == b"\xff\xff"  # the header cannot hold 70,000: it says "unknown"
    b = RdbBuilder(version=11).select(0).blob(20, b"bigset", blob)
    path = write(tmp_path, b)
    redis_accepts_if_v10(path, b)
    _, keys = parse(path)
    (key,) = keys
    assert (key.type, key.encoding, key.length, key.value_bytes) == ("set", "listpack", 70_000, len(blob))
    assert (key.offset, key.size) == b.records[0]


def redis_accepts_if_v10(path: Path, builder: RdbBuilder) -> None:
    if builder.version <= 10:
        redis_accepts(path)


def test_listpack_header_65535_with_few_entries(tmp_path):
    pairs = [b"f1", b"v1", b"f2", 2, b"f3", b"v3"]
    hash_blob = listpack(pairs, count=65535)
    zset_blob = listpack([b"a", 1, b"b", b"2.5"], count=65535)
    b = RdbBuilder(version=10).select(0).blob(16, b"h", hash_blob).blob(17, b"z", zset_blob, lzf="backref")
    path = write(tmp_path, b)
    redis_accepts(path)
    keys = by_name(parse(path)[1])
    assert (keys[b"h"].type, keys[b"h"].encoding, keys[b"h"].length) == ("hash", "listpack", 3)
    assert keys[b"h"].value_bytes == len(hash_blob)
    assert (keys[b"z"].type, keys[b"z"].encoding, keys[b"z"].length) == ("zset", "listpack", 2)
    assert keys[b"z"].value_bytes == len(zset_blob)


def test_quicklist_node_listpack_with_unknown_count(tmp_path):
    node = listpack([b"x"] * 70_000)
    b = RdbBuilder(version=10).aux(b"redis-ver", b"7.0.15").select(0)
    b.quicklist2(b"l", [(2, node), (1, b"P" * 5000), (2, listpack([b"a", 5]))], lzf="backref")
    path = write(tmp_path, b)
    redis_accepts(path)
    (key,) = parse(path)[1]
    assert (key.type, key.encoding, key.length, key.nodes) == ("list", "quicklist", 70_003, 3)
    assert key.value_bytes == len(node) + 5000 + len(listpack([b"a", 5]))


# -- 64-bit lengths and LZF ----------------------------------------------------------------------------------


def test_64bit_length_prefixes_everywhere(tmp_path):
    b = RdbBuilder(version=10).select(3, len_width=9)
    b.string(b"k64", b"value", len_width=9, key_len_width=9)
    b.key(
        4,
        b"h64",
        enc_len(2, width=9)
        + enc_str(b"f1", len_width=9)
        + enc_str(b"v1")
        + enc_str(b"f2")
        + enc_str(b"v2", len_width=5),
    )
    b.key(2, b"s64", enc_len(1, width=5) + enc_str(b"member", len_width=9))
    path = write(tmp_path, b)
    redis_accepts(path)
    keys = by_name(parse(path)[1])
    assert (keys[b"k64"].db, keys[b"k64"].type, keys[b"k64"].length, keys[b"k64"].value_bytes) == (3, "string", 5, 5)
    assert (keys[b"h64"].type, keys[b"h64"].encoding, keys[b"h64"].length, keys[b"h64"].value_bytes) == (
        "hash",
        "hashtable",
        2,
        8,
    )
    assert (keys[b"s64"].type, keys[b"s64"].length, keys[b"s64"].value_bytes) == ("set", 1, 6)
    assert [k.offset for k in keys.values()] == [o for o, _ in b.records]


def test_lzf_literal_only_and_backref_strings_and_keys(tmp_path):
    literal_value = bytes(range(256)) * 2
    backref_value = b"0123456789abcdef" * 200
    assert lzf_has_backref(lzf_compress(backref_value))
    b = RdbBuilder(version=10).select(0)
    b.string(b"lit", literal_value, lzf="literal")
    b.string(b"ref", backref_value, lzf="backref")
    b.string(b"compressed-key-" * 4, b"v", key_lzf=True)
    b.aux(b"note", b"aux value " * 10, lzf="backref")
    path = write(tmp_path, b)
    redis_accepts(path)
    dump, keys = parse(path)
    keys = by_name(keys)
    assert (keys[b"lit"].length, keys[b"lit"].value_bytes, keys[b"lit"].encoding) == (512, 512, "raw")
    assert (keys[b"ref"].length, keys[b"ref"].value_bytes, keys[b"ref"].encoding) == (3200, 3200, "raw")
    assert keys[b"compressed-key-" * 4].length == 1
    assert dump.aux["note"] == b"aux value " * 10


def test_lzf_compressed_blobs_read_from_their_header(tmp_path):
    big = listpack([b"field%05d" % i for i in range(4000)])  # > 8 KB: metadata mode walks it too
    b = RdbBuilder(version=10).select(0)
    b.blob(16, b"big", big, lzf="backref")
    b.blob(16, b"small", listpack([b"f", b"v"]), lzf="literal")
    b.blob(11, b"ints", intset(list(range(-5000, 5000, 7))), lzf="backref")
    path = write(tmp_path, b)
    redis_accepts(path)
    keys = by_name(parse(path)[1])
    assert (keys[b"big"].length, keys[b"big"].value_bytes, keys[b"big"].largest_element) == (2000, len(big), 10)
    assert (keys[b"small"].length, keys[b"small"].value_bytes) == (1, len(listpack([b"f", b"v"])))
    assert (keys[b"ints"].type, keys[b"ints"].encoding, keys[b"ints"].length) == ("set", "intset", 1429)
    assert keys[b"ints"].value_bytes == 8 + 2 * 1429


# -- prefixes: expiry forms, IDLE, FREQ, AUX, RESIZEDB, FUNCTION2, SLOT_INFO ---------------------------------


def test_prefix_opcodes_and_file_level_records(tmp_path):
    b = (
        RdbBuilder(version=12)
        .aux(b"redis-ver", b"7.4.0")
        .raw(b"\xfa" + enc_str(b"redis-bits") + enc_str(b"64", as_int=True))
    )
    b.function(b"#!lua name=lib\nredis.register_function('f', function() return 1 end)")
    b.select(0).resizedb(4, 2).slot_info(1234, 4, 2)
    b.string(b"ms", b"a", expire_ms=FAR_MS)
    b.string(b"sec", b"b", expire_s=2_000_000_000)
    b.string(b"idle", b"c", idle=123_456)
    b.string(b"freq", b"d", freq=200, expire_ms=FAR_MS + 1)
    b.select(15).resizedb(1, 0).string(b"db15", b"e")
    path = write(tmp_path, b)
    dump, keys = parse(path)
    keys = by_name(keys)
    assert keys[b"ms"].expire_at_ms == FAR_MS
    assert keys[b"sec"].expire_at_ms == 2_000_000_000_000
    assert (keys[b"idle"].idle_seconds, keys[b"idle"].freq, keys[b"idle"].expire_at_ms) == (123_456, None, None)
    assert (keys[b"freq"].freq, keys[b"freq"].idle_seconds, keys[b"freq"].expire_at_ms) == (200, None, FAR_MS + 1)
    assert (keys[b"db15"].db, keys[b"ms"].db) == (15, 0)
    assert (dump.aux["redis-ver"], dump.aux["redis-bits"]) == (b"7.4.0", b"64")
    assert dump.resize == {0: (4, 2), 15: (1, 0)}
    assert dump.functions == [b"#!lua name=lib\nredis.register_function('f', function() return 1 end)"]
    assert [(k.offset, k.size) for k in keys.values()] == b.records


def test_checksum_zero_means_unchecked_and_a_wrong_one_is_caught(tmp_path):
    b = RdbBuilder(version=10).select(0).string(b"k", b"v")
    zeros = write(tmp_path, b, "zeros.rdb", checksum=False)
    assert zeros.read_bytes()[-8:] == bytes(8)
    _, keys = parse(zeros)
    assert [k.key for k in keys] == [b"k"]
    wrong = tmp_path / "wrong.rdb"
    data = bytearray(b.build())
    data[-1] ^= 0x40
    wrong.write_bytes(bytes(data))
    with pytest.raises(RdbError) as caught:
        parse(wrong)
    assert caught.value.offset == len(data) - 8
    _, keys = parse(wrong, verify=False)
    assert [k.key for k in keys] == [b"k"]


# -- old compact encodings ------------------------------------------------------------------------------------


def test_ziplist_zipmap_quicklist1_with_unknown_counts(tmp_path):
    long_value = b"L" * 300  # forces a 5-byte prevlen in the next ziplist entry
    zl = ziplist([b"a", long_value, 7, -100_000, 2**40, b"z"], count=65535)
    zm_pairs = [(b"f%d" % i, b"v" * i) for i in range(300)]
    b = RdbBuilder(version=7).select(0)  # quicklist (type 14) needs RDB 7 (Redis 3.2)
    b.blob(10, b"zl", zl)
    b.blob(13, b"zh", ziplist([b"f", b"v", b"g", 12]))
    b.blob(12, b"zz", ziplist([b"m", b"1.5", b"n", 3]))
    b.blob(9, b"zm", zipmap(zm_pairs))  # 300 pairs: zmlen 254 = walk
    b.quicklist1(b"q1", [ziplist([b"a", b"b"]), ziplist([1, 2, 3], count=65535)])
    path = write(tmp_path, b)
    redis_accepts(path)
    keys = by_name(parse(path)[1])
    assert (keys[b"zl"].type, keys[b"zl"].encoding, keys[b"zl"].length) == ("list", "ziplist", 6)
    assert (keys[b"zh"].type, keys[b"zh"].encoding, keys[b"zh"].length) == ("hash", "ziplist", 2)
    assert (keys[b"zz"].type, keys[b"zz"].encoding, keys[b"zz"].length) == ("zset", "ziplist", 2)
    assert (keys[b"zm"].type, keys[b"zm"].encoding, keys[b"zm"].length) == ("hash", "zipmap", 300)
    assert (keys[b"q1"].type, keys[b"q1"].encoding, keys[b"q1"].length, keys[b"q1"].nodes) == (
        "list",
        "quicklist",
        5,
        2,
    )


# -- hash field expiration -------------------------------------------------------------------------------------


def test_redis_hash_field_ttl_types(tmp_path):
    fields = [(b"f1", b"v1", FAR_MS), (b"f2", b"v2", None), (b"f3", b"v3", FAR_MS + 5)]
    b = RdbBuilder(version=12).select(0)
    b.hash_metadata(b"meta", fields)
    b.hash_metadata(b"meta_pre", fields, pre_ga=True)
    b.hash_listpack_ex(b"lpex", fields)
    b.hash_listpack_ex(b"lpex_pre", fields, pre_ga=True, lzf="literal")
    keys = by_name(parse(write(tmp_path, b))[1])
    for name, encoding in (
        (b"meta", "hashtable"),
        (b"meta_pre", "hashtable"),
        (b"lpex", "listpackex"),
        (b"lpex_pre", "listpackex"),
    ):
        key = keys[name]
        assert (key.type, key.encoding, key.length, key.hfe_fields) == ("hash", encoding, 3, 2), name
    assert keys[b"meta"].value_bytes == 12


def test_writer_field_ttl_layouts_load_in_real_servers():
    """Redis 8.2 and Valkey 9.1 load the writer's hash-field-TTL records with the exact TTLs written."""
    fields = [(b"f1", b"v1", FAR_MS), (b"f2", b"v2", None), (b"f3", b"v3", FAR_MS + 5)]
    b = RdbBuilder(version=12).aux(b"redis-ver", b"8.2.3").select(0)
    b.hash_metadata(b"meta", fields).hash_metadata(b"meta_pre", fields, pre_ga=True)
    b.hash_listpack_ex(b"lpex", fields).hash_listpack_ex(b"lpex_pre", fields, pre_ga=True, lzf="literal")
    b.slot_info(5, 1, 0).string(b"k", b"v", expire_ms=FAR_MS, idle=5)
    with load_in_server("redis82", b.build()) as server:
        client = server.client()
        for name in (b"meta", b"meta_pre", b"lpex", b"lpex_pre"):
            ttls = client.execute_command("HPEXPIRETIME", name, "FIELDS", 3, "f1", "f2", "f3")
            assert (client.hlen(name), ttls) == (3, [FAR_MS, -1, FAR_MS + 5]), name
        assert client.pexpiretime(b"k") == FAR_MS
    vk = RdbBuilder(version=80, magic="VALKEY").aux(b"valkey-ver", b"9.1.2").select(0)
    vk.valkey_hash2(b"h2", [(b"a", b"1", FAR_MS), (b"b", b"22", None)])
    with load_in_server("valkey91", vk.build()) as server:
        client = server.client()
        assert client.execute_command("HPEXPIRETIME", b"h2", "FIELDS", 2, "a", "b") == [FAR_MS, -1]


def test_valkey_hash2(tmp_path):
    b = RdbBuilder(version=80, magic="VALKEY").aux(b"valkey-ver", b"9.1.2").select(0)
    b.valkey_hash2(b"h2", [(b"a", b"1", FAR_MS), (b"b", b"22", None), (b"c", b"333", 0)])
    b.slot_info(7, 1, 0)
    b.string(b"after", b"x")
    dump, keys = parse(write(tmp_path, b))
    keys = by_name(keys)
    assert dump.header.magic == "VALKEY" and dump.header.version == 80
    h = keys[b"h2"]
    # 0 is a real (past) timestamp in Valkey; only -1 means "no TTL"
    assert (h.type, h.encoding, h.length, h.hfe_fields, h.value_bytes) == ("hash", "hashtable", 3, 2, 9)
    assert keys[b"after"].length == 1


def test_valkey_slot_import(tmp_path):
    b = RdbBuilder(version=80, magic="VALKEY").slot_import(b"j" * 40, [(0, 100), (200, 16383)]).select(0)
    b.string(b"k", b"v")
    (key,) = parse(write(tmp_path, b))[1]
    assert key.key == b"k"


def test_valkey_81_lz4_envelope(tmp_path):
    b = RdbBuilder(version=81, magic="VALKEY").aux(b"valkey-ver", b"9.2.0").select(0)
    b.string(b"k", b"hello " * 1000, lzf="backref", expire_ms=FAR_MS)
    b.blob(20, b"s", listpack([b"m%d" % i for i in range(70_000)]))
    path = write(tmp_path, b, lz4_envelope=True)
    assert path.read_bytes()[:7] == b"VCS\x01\x01\x00\x01"
    dump, keys = parse(path)
    assert (dump.header.magic, dump.header.version, dump.header.envelope) == ("VALKEY", 81, "lz4")
    keys = by_name(keys)
    assert (keys[b"k"].length, keys[b"k"].expire_at_ms) == (6000, FAR_MS)
    assert (keys[b"s"].length, keys[b"s"].encoding) == (70_000, "listpack")


def test_valkey_81_update_opcode_is_skipped(tmp_path):
    b = RdbBuilder(version=81, magic="VALKEY").select(0).string(b"a", b"1")
    b.valkey_update(b"SET", b"b", b"2").string(b"c", b"3")
    keys = parse(write(tmp_path, b))[1]
    assert [k.key for k in keys] == [b"a", b"c"]


# -- modules -----------------------------------------------------------------------------------------------------


def test_module_values_and_module_aux(tmp_path):
    ops = [("uint", 2**63), ("sint", -7), ("float", 0.5), ("double", -1.25), ("string", b"payload" * 50)]
    b = RdbBuilder(version=12).module_aux("scdtype00", 1, [("uint", 0)], when=1).select(0)
    b.module(b"graph", "graphdata", 17, ops, expire_ms=FAR_MS)
    b.module(b"vec", "vectorset", 0, [], idle=9)
    b.module_aux("ft_index0", 23, [("string", b"schema")], when=2)
    path = write(tmp_path, b)
    dump, keys = parse(path)
    keys = by_name(keys)
    g = keys[b"graph"]
    assert (g.type, g.module, g.encoding, g.length, g.expire_at_ms) == ("graphdata", "graphdata", "raw", 0, FAR_MS)
    assert (keys[b"vec"].type, keys[b"vec"].module, keys[b"vec"].idle_seconds) == ("vectorset", "vectorset", 9)
    assert dump.module_aux == ["scdtype00", "ft_index0"]


def test_module_value_in_the_pre_ga_format_is_an_error_at_its_record(tmp_path):
    b = RdbBuilder(version=8).select(0).string(b"before", b"x")
    b.module_pre_ga(b"old", "graphdata", 1, b"\x00\x01\x02")
    path = write(tmp_path, b)
    with pytest.raises(RdbError) as caught:
        parse(path)
    assert caught.value.offset == b.records[1][0]


# -- Redis 8.6+ ---------------------------------------------------------------------------------------------------


def test_key_meta_before_the_type_byte(tmp_path):
    meta = [(b"\x11\x22\x33\x44", [("uint", 5)]), (b"\xf0\x00\x00\x07", [("string", b"x" * 70), ("double", 1.0)])]
    b = RdbBuilder(version=13).select(0)
    b.string(b"with-meta", b"value", expire_ms=FAR_MS, key_meta=meta)
    b.hash_hashtable(b"meta-only", [(b"f", b"v")], key_meta=meta[:1])
    b.string(b"plain", b"v")
    keys = parse(write(tmp_path, b))[1]
    assert [k.key for k in keys] == [b"with-meta", b"meta-only", b"plain"]
    assert (keys[0].type, keys[0].length, keys[0].expire_at_ms) == ("string", 5, FAR_MS)
    assert (keys[1].type, keys[1].length, keys[1].expire_at_ms) == ("hash", 1, None)
    assert [(k.offset, k.size) for k in keys] == b.records


def _stream_groups(version):
    """Three pending entries; before v5 every one has an owner, in v5 one sits in the NACK zone instead."""
    nacked = version >= 5
    g1 = Group(
        b"g1",
        last_id=(5, 0),
        entries_read=3,
        pel=[((1, 0), 1000, 1), ((2, 0), 1001, 2), ((3, 0), 1002, 1)],
        consumers=[
            Consumer(b"c1", 10, 11, [(1, 0)]),
            Consumer(b"c2", 12, 13, [(2, 0)] if nacked else [(2, 0), (3, 0)]),
        ],
        nacked=[(3, 0)] if nacked else [],
    )
    g2 = Group(b"g2", consumers=[Consumer(b"lonely", 1, 2)])
    return [g1, g2]


STREAM_NODES = [
    [((1, 0), [(b"f", b"v1")]), ((2, 0), [(b"f", b"v2")])],
    [((3, 0), [(b"f", b"v3"), (b"g", b"x")]), ((5, 0), [(b"f", b"v5")])],
]


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5])
def test_streams_v1_to_v5(tmp_path, version):
    rdb_version = {1: 9, 2: 10, 3: 11, 4: 13, 5: 14}[version]
    b = RdbBuilder(version=rdb_version).select(0)
    b.stream(b"s", version=version, nodes=STREAM_NODES, groups=_stream_groups(version), expire_ms=FAR_MS)
    b.string(b"after", b"x")
    path = write(tmp_path, b)
    if version <= 2:
        redis_accepts(path)
    keys = by_name(parse(path)[1])
    s = keys[b"s"]
    assert (s.type, s.encoding, s.length, s.nodes, s.expire_at_ms) == ("stream", "stream", 4, 2, FAR_MS)
    assert (s.stream_groups, s.stream_pel, s.stream_consumers) == (2, 3, 3)
    assert (s.offset, s.size) == b.records[0]
    assert keys[b"after"].length == 1


def test_array_type(tmp_path):
    b = RdbBuilder(version=14).select(0)
    b.array(b"arr", [(0, 5), (1, 2.5), (2, b"tiny"), (10, b"a longer string value")], insert_idx=11)
    b.array(b"empty-cursor", [(3, b"x")])
    b.string(b"after", b"x")
    keys = by_name(parse(write(tmp_path, b))[1])
    assert (keys[b"arr"].type, keys[b"arr"].length) == ("array", 4)
    assert (keys[b"empty-cursor"].type, keys[b"empty-cursor"].length) == ("array", 1)
    assert keys[b"after"].length == 1


def test_hash_templates(tmp_path):
    fields = [b"age", b"name", b"email"]
    b = RdbBuilder(version=15).hash_template(5, fields).hash_template(6, [b"a"]).select(0)
    b.hash_tmpl_lp_ref(b"lp1", 5, [42, b"Ann", b"ann@example.com"])
    b.hash_tmpl_array_ref(b"ar1", 5, [b"43", b"Bob", b"bob@example.com"])
    b.hash_tmpl_array_ref(b"ar2", 6, [b"only"])
    b.string(b"after", b"x")
    keys = by_name(parse(write(tmp_path, b))[1])
    assert (keys[b"lp1"].type, keys[b"lp1"].encoding, keys[b"lp1"].length) == ("hash", "template-listpack", 3)
    assert (keys[b"ar1"].type, keys[b"ar1"].encoding, keys[b"ar1"].length) == ("hash", "template-array", 3)
    assert (keys[b"ar2"].type, keys[b"ar2"].length) == ("hash", 1)
    assert keys[b"after"].length == 1


def test_deep_mode_finds_the_largest_element_in_every_compact_encoding(tmp_path):
    b = RdbBuilder(version=10).aux(b"redis-ver", b"7.0.15").select(0)
    b.blob(16, b"lp", listpack([b"f", b"x" * 70, b"g", -1_000_000_000_000]), lzf="backref")
    b.blob(17, b"lpz", listpack([b"member-name", b"1.5", b"m", 123_456_789_012]))
    b.blob(11, b"is", intset([1, -70_000, 300]))
    b.quicklist2(b"ql", [(2, listpack([b"a" * 10, 5])), (1, b"P" * 40), (2, listpack([b"b" * 300]))], lzf="literal")
    path = write(tmp_path, b)
    redis_accepts(path)
    old = RdbBuilder(version=7).select(0)
    old.blob(10, b"zl", ziplist([b"a", b"L" * 300, -8_000_000, 2**40]))
    old.blob(9, b"zm", zipmap([(b"field", b"v" * 20), (b"f" * 25, b"v")]))
    old_path = write(tmp_path, old, "old.rdb")
    redis_accepts(old_path)
    keys = by_name(parse(path, deep=True)[1]) | by_name(parse(old_path, deep=True)[1])
    largest = {name.decode(): key.largest_element for name, key in keys.items()}
    assert largest == {"lp": 70, "lpz": 11, "is": 6, "ql": 300, "zl": 300, "zm": 25}  # zsets: members, not scores
