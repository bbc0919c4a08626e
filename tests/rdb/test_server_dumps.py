"""The parser against real servers: every key of a dump each installed server wrote, checked against what that
server itself reported before the SAVE (tests/support/rdbdumps.py has how the truth is taken).

Four kinds: Redis 6.2 (RDB 9, ziplists, LRU idle), Debian Redis 7.0 (RDB 10, listpacks, LFU counters), Redis 8.2
with the FalkorDB module (RDB 12: field TTLs as listpackex, graph and vector-set module keys, LRU) and Valkey 9.1
(VALKEY080: field TTLs as HASH_2, LFU). Each test reports every mismatching key with expected and actual value.

Encodings: the contract asks for the writer's in-memory encoding. The file tells it exactly for every type
except strings: a string stored as plain bytes may have been `raw` in memory because it was APPENDed to
(`str:append`), which nothing in the file shows. For strings the test therefore expects what a server reports
after loading the very same file (DEBUG RELOAD NOSAVE on the writer, `KeyTruth.reload_encoding`), which is the
most the file can tell; for every other type it expects the writer's encoding. Module keys: OBJECT ENCODING
says "raw"; the contract names them "module".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from rediscipline.sources.rdb.records import RdbKey
from tests.rdb.conftest import MODULE_ENCODING, Parsed, parse_file
from tests.support.kinds import require_kind
from tests.support.rdbdumps import LIBRARIES, DumpTruth, KeyTruth, build_dump

HEADERS = {"redis62": ("REDIS", 9), "redis70": ("REDIS", 10), "redis82": ("REDIS", 12), "valkey91": ("VALKEY", 80)}
STANDARD_TYPES = {"string", "list", "set", "zset", "hash", "stream"}
SHOWN = 25  # mismatches listed in a failure message


def report(what: str, rows: Iterable[tuple[Any, Any, Any]]) -> None:
    """Fail with every (key, expected, actual) row, or pass when there are none."""
    rows = list(rows)
    if rows:
        lines = [f"  {key!r}: expected {expected!r}, got {actual!r}" for key, expected, actual in rows[:SHOWN]]
        more = f"\n  ... and {len(rows) - SHOWN} more" if len(rows) > SHOWN else ""
        pytest.fail(f"{len(rows)} keys with a wrong {what}:\n" + "\n".join(lines) + more, pytrace=False)


def pairs(dump: DumpTruth, parsed: Parsed) -> Iterable[tuple[tuple[int, bytes], KeyTruth, RdbKey]]:
    for ident, truth in dump.keys.items():
        key = parsed.keys.get(ident)
        if key is not None:
            yield ident, truth, key


def expected_encoding(truth: KeyTruth) -> str:
    if truth.type not in STANDARD_TYPES:
        return MODULE_ENCODING
    if truth.type == "string":
        assert truth.reload_encoding is not None
        return truth.reload_encoding
    return truth.encoding


# ---- file level ----------------------------------------------------------------------------------------------


def test_header(server_dump: DumpTruth, parsed: Parsed) -> None:
    assert (parsed.header.magic, parsed.header.version) == HEADERS[server_dump.kind]
    assert parsed.header.size == server_dump.path.stat().st_size


def test_server_version_in_aux(server_dump: DumpTruth, parsed: Parsed) -> None:
    """Redis writes `redis-ver`; Valkey 9 writes `valkey-ver` instead (and no `redis-ver`)."""
    if server_dump.flavor == "valkey":
        assert parsed.aux.get("valkey-ver") == server_dump.version.encode()
        assert "redis-ver" not in parsed.aux
    else:
        assert parsed.aux.get("redis-ver") == server_dump.version.encode()
    assert parsed.aux.get("redis-bits") == b"64"


def test_functions(server_dump: DumpTruth, parsed: Parsed) -> None:
    assert len(parsed.functions) == server_dump.functions
    if server_dump.functions:
        assert sorted(parsed.functions) == sorted(LIBRARIES)


def test_module_aux(server_dump: DumpTruth, parsed: Parsed) -> None:
    """FalkorDB saves its graph context in MODULE_AUX records (module type `graphdata`); nobody else writes any."""
    if server_dump.kind == "redis82":
        assert set(parsed.module_aux) == {"graphdata"}
    else:
        assert parsed.module_aux == []


def test_resizedb(server_dump: DumpTruth, parsed: Parsed) -> None:
    expected: dict[int, tuple[int, int]] = {}
    for (db, _), truth in server_dump.keys.items():
        size, expires = expected.get(db, (0, 0))
        expected[db] = (size + 1, expires + (truth.expire_lo is not None))
    assert parsed.resize == expected


# ---- per key -------------------------------------------------------------------------------------------------


def test_same_keys(server_dump: DumpTruth, parsed: Parsed) -> None:
    assert len(parsed.order) == len(parsed.keys), "a (db, key) pair came twice"
    missing = sorted(set(server_dump.keys) - set(parsed.keys))
    extra = sorted(set(parsed.keys) - set(server_dump.keys))
    assert not missing and not extra, f"missing {missing[:SHOWN]}, unexpected {extra[:SHOWN]}"
    assert {db for db, _ in parsed.keys} == {0, 3}


def test_types(server_dump: DumpTruth, parsed: Parsed) -> None:
    report("type", ((i, t.type, k.type) for i, t, k in pairs(server_dump, parsed) if k.type != t.type))


def test_expiry(server_dump: DumpTruth, parsed: Parsed) -> None:
    rows = []
    for ident, truth, key in pairs(server_dump, parsed):
        if truth.expire_lo is None:
            if key.expire_at_ms is not None:
                rows.append((ident, None, key.expire_at_ms))
        elif key.expire_at_ms is None or not truth.expire_lo <= key.expire_at_ms <= truth.expire_hi:  # type: ignore[operator]
            expected = truth.expire_lo if truth.expire_exact else (truth.expire_lo, truth.expire_hi)
            rows.append((ident, expected, key.expire_at_ms))
    report("expire_at_ms", rows)


def test_ttl_counts_from_ctime(server_dump: DumpTruth, parsed: Parsed) -> None:
    """`ttl_ms` is the expiry seen from the moment the dump was written (AUX ctime); -1 means persistent."""
    written_ms = int(parsed.aux["ctime"]) * 1000
    rows = []
    for ident, key in parsed.keys.items():
        expected = -1 if key.expire_at_ms is None else key.expire_at_ms - written_ms
        if key.ttl_ms != expected:
            rows.append((ident, expected, key.ttl_ms))
    report("ttl_ms", rows)


def test_lengths(server_dump: DumpTruth, parsed: Parsed) -> None:
    report("length", ((i, t.length, k.length) for i, t, k in pairs(server_dump, parsed) if k.length != t.length))


def test_string_value_bytes(server_dump: DumpTruth, parsed: Parsed) -> None:
    rows = [
        (i, t.length, k.value_bytes)
        for i, t, k in pairs(server_dump, parsed)
        if t.type == "string" and k.value_bytes != t.length
    ]
    report("value_bytes (STRLEN)", rows)


def test_encodings(server_dump: DumpTruth, parsed: Parsed) -> None:
    rows = [
        (i, expected_encoding(t), k.encoding)
        for i, t, k in pairs(server_dump, parsed)
        if k.encoding != expected_encoding(t)
    ]
    report("encoding", rows)


def test_dataset_covers_the_encodings(server_dump: DumpTruth) -> None:
    """The dump holds every encoding this server can produce (or the encoding test proves less than it says)."""
    seen = {(t.type, t.encoding) for t in server_dump.keys.values()}
    want = {("string", "int"), ("string", "embstr"), ("string", "raw"), ("list", "quicklist"), ("set", "intset")}
    want |= {("set", "hashtable"), ("zset", "skiplist"), ("hash", "hashtable"), ("stream", "stream")}
    compact = "ziplist" if server_dump.kind == "redis62" else "listpack"
    want |= {("zset", compact), ("hash", compact)}
    if server_dump.kind in ("redis82", "valkey91"):
        want |= {("set", "listpack"), ("list", "listpack")}
    if server_dump.kind == "redis82":
        want |= {("hash", "listpackex"), ("graphdata", "raw"), ("vectorset", "raw")}
    assert want <= seen, f"not produced: {sorted(want - seen)}"
    # and the one string whose in-memory encoding the file cannot show
    append = server_dump.keys[(0, b"str:append")]
    assert (append.encoding, append.reload_encoding) == ("raw", "embstr")


def test_list_nodes(server_dump: DumpTruth, parsed: Parsed) -> None:
    """Quicklist nodes as DEBUG OBJECT counts them (ql_nodes); a listpack-encoded list is saved as one node."""
    rows = [(i, t.nodes, k.nodes) for i, t, k in pairs(server_dump, parsed) if t.type == "list" and k.nodes != t.nodes]
    report("list node count", rows)


def test_streams(server_dump: DumpTruth, parsed: Parsed) -> None:
    rows = []
    for ident, truth, key in pairs(server_dump, parsed):
        if truth.type != "stream":
            for name in ("stream_groups", "stream_pel", "stream_consumers"):
                if getattr(key, name) is not None:
                    rows.append((ident, {name: None}, {name: getattr(key, name)}))
            continue
        expected = (truth.stream_groups, truth.stream_pel, truth.stream_consumers, truth.nodes)
        actual = (key.stream_groups, key.stream_pel, key.stream_consumers, key.nodes)
        if actual != expected:
            rows.append((ident, dict(zip(("groups", "pel", "consumers", "nodes"), expected, strict=True)),
                         dict(zip(("groups", "pel", "consumers", "nodes"), actual, strict=True))))  # fmt: skip
    report("stream groups/PEL/consumers/nodes", rows)
    assert sum(t.type == "stream" for t in server_dump.keys.values()) == 6


def test_field_ttls(server_dump: DumpTruth, parsed: Parsed) -> None:
    """Hash fields with a TTL (HTTL ≥ 0), counted over every field; None outside hashes."""
    rows = []
    for ident, truth, key in pairs(server_dump, parsed):
        if truth.type == "hash":
            expected = truth.hfe_fields or 0
            if (key.hfe_fields or 0) != expected:
                rows.append((ident, expected, key.hfe_fields))
        elif key.hfe_fields is not None:
            rows.append((ident, None, key.hfe_fields))
    report("hfe_fields", rows)
    with_ttls = sum(1 for t in server_dump.keys.values() if t.hfe_fields)
    assert with_ttls == (22 if server_dump.kind in ("redis82", "valkey91") else 0)


def test_module_keys(server_dump: DumpTruth, parsed: Parsed) -> None:
    rows = []
    modules = 0
    for ident, truth, key in pairs(server_dump, parsed):
        if truth.type in STANDARD_TYPES:
            if key.module is not None:
                rows.append((ident, None, key.module))
            continue
        modules += 1
        expected = (truth.type, truth.type, MODULE_ENCODING, 0)
        actual = (key.type, key.module, key.encoding, key.length)
        if actual != expected:
            rows.append((ident, expected, actual))
    report("module type/name/encoding/length", rows)
    assert modules == (4 if server_dump.kind == "redis82" else 0)


def test_eviction_metadata(server_dump: DumpTruth, parsed: Parsed) -> None:
    """LFU: the exact OBJECT FREQ (no decay). LRU: OBJECT IDLETIME, which can only have grown until the SAVE."""
    lfu = "lfu" in server_dump.policy
    rows = []
    for ident, truth, key in pairs(server_dump, parsed):
        if lfu:
            if (key.freq, key.idle_seconds) != (truth.freq, None):
                rows.append((ident, (truth.freq, None), (key.freq, key.idle_seconds)))
        else:
            assert truth.idle_seconds is not None
            window = (truth.idle_seconds, truth.idle_seconds + server_dump.idle_slack)
            if key.freq is not None or key.idle_seconds is None or not window[0] <= key.idle_seconds <= window[1]:
                rows.append((ident, ("idle in", window, "freq", None), (key.idle_seconds, key.freq)))
    report("LFU freq / LRU idle", rows)
    restored = [server_dump.keys[(0, b"meta:restored:%d" % i)] for i in range(10)]
    if lfu:
        assert [t.freq for t in restored] == [3 + 25 * i for i in range(10)]
    else:
        assert all(t.idle_seconds is not None and t.idle_seconds >= 1_000 * (i + 1) for i, t in enumerate(restored))


def test_records_tile_the_file(server_dump: DumpTruth, parsed: Parsed) -> None:
    """Offsets increase, and within a database each record starts where the previous one ended."""
    rows = []
    size = server_dump.path.stat().st_size
    for before, after in zip(parsed.order, parsed.order[1:], strict=False):
        if after.offset <= before.offset:
            rows.append(((after.db, after.key), f"offset > {before.offset}", after.offset))
        elif after.db == before.db and before.offset + before.size != after.offset:
            rows.append(((after.db, after.key), before.offset + before.size, after.offset))
    report("record offset (previous offset + size)", rows)
    last = parsed.order[-1]
    assert parsed.order[0].offset > 9 and last.offset + last.size <= size - 9  # EOF opcode + CRC follow


def test_largest_element_deep(server_dump: DumpTruth, parsed_deep: Parsed) -> None:
    """Deep mode: the longest element of every collection, as the server returns them (hash: field or value)."""
    rows = []
    for ident, truth, key in pairs(server_dump, parsed_deep):
        if truth.largest_element is not None and key.largest_element != truth.largest_element:
            rows.append((ident, truth.largest_element, key.largest_element))
        elif truth.type == "string" and key.largest_element is not None:
            rows.append((ident, None, key.largest_element))
    report("largest_element (deep)", rows)


def test_largest_element_metadata_mode(server_dump: DumpTruth, parsed: Parsed) -> None:
    """Without deep, largest_element may be unknown (None), but where it is given it must be exact."""
    rows = [
        (i, t.largest_element, k.largest_element)
        for i, t, k in pairs(server_dump, parsed)
        if k.largest_element is not None and k.largest_element != t.largest_element
    ]
    report("largest_element (metadata mode)", rows)


def test_deep_mode_agrees_with_metadata_mode(parsed: Parsed, parsed_deep: Parsed) -> None:
    fields = ("type", "encoding", "length", "expire_at_ms", "value_bytes", "nodes", "offset", "size", "hfe_fields")
    fields += ("stream_groups", "stream_pel", "stream_consumers", "module", "idle_seconds", "freq")
    rows = []
    for ident, key in parsed.keys.items():
        deep = parsed_deep.keys[ident]
        for name in fields:
            if getattr(key, name) != getattr(deep, name):
                rows.append((ident, {name: getattr(key, name)}, {name: getattr(deep, name)}))
    report("field that deep mode reads differently", rows)


# ---- no eviction policy ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def noeviction_dump(tmp_path_factory: pytest.TempPathFactory) -> DumpTruth:
    require_kind("redis70")
    return build_dump("redis70", tmp_path_factory.mktemp("rdb-noeviction"), policy="noeviction")


def test_no_idle_or_freq_without_lru_or_lfu(noeviction_dump: DumpTruth) -> None:
    """Servers write IDLE/FREQ only under an LRU/LFU policy: with `noeviction` every key has neither."""
    parsed = parse_file(noeviction_dump.path)
    assert set(parsed.keys) == set(noeviction_dump.keys)
    report(
        "idle/freq",
        (
            (i, (None, None), (k.idle_seconds, k.freq))
            for i, k in parsed.keys.items()
            if (k.idle_seconds, k.freq) != (None, None)
        ),
    )
