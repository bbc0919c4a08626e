"""The parser against every shared fixture dump (../shared/rdb-fixtures/: RDB 2–13 and VALKEY080).

Three kinds of checks:
- every file parses to the end in metadata and deep mode, and its checksum status is what its bytes say;
- rdb-py (dev-only, PyPI `rdb-py`) as an oracle for the five core types: same keys, types, expiries and element
  counts. rdb-py silently drops streams and module keys, so those are compared apart, and it rejects VALKEY080;
- hand-written exact expectations for what rdb-py cannot see: field TTL counts, streams (groups, PEL,
  consumers, nodes), functions, module type names and MODULE_AUX records, RDB 13 (Redis 8.6) and VALKEY080.
  They were read off the files' bytes record by record, and the stream and function files were also loaded
  into a real Redis 7.0 (XINFO STREAM FULL agreed).

No fixture is known not to parse: if one ever must be skipped, list it in UNPARSEABLE with the reason.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from rediscipline.sources.rdb.parser import open_rdb
from tests.rdb.conftest import MODULE_ENCODING, Parsed, parse_file
from tests.support.fixtures import CANDIDATES, rdb_fixtures_dir

ROOT = rdb_fixtures_dir() or Path("/nonexistent")
FIXTURES = sorted(ROOT.glob("*/*.rdb"))
#: fixture name → why it cannot be parsed (none today: every one of the 71 files is from a format we support)
UNPARSEABLE: dict[str, str] = {}


def test_the_shared_fixtures_are_found() -> None:
    """Without them every test below would be collected empty: fail in CI, skip elsewhere."""
    if FIXTURES:
        assert len(FIXTURES) >= 71
        return
    reason = f"no RDB fixtures in any of {[str(c) for c in CANDIDATES]}"
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


RDBPY_TYPES = {"string": "string", "list": "list", "set": "set", "sorted_set": "zset", "hash": "hash"}


def name_of(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def expected_checksum(path: Path) -> str:
    """RDB 5+ ends with a CRC-64 (all zeros when written with `rdbchecksum no`); older files have none."""
    data = path.read_bytes()
    version = int(data[5:9]) if data.startswith(b"REDIS") else int(data[6:9])
    if data.startswith(b"REDIS") and version < 5:
        return "absent"
    return "absent" if data[-8:] == bytes(8) else "verified"


def test_fixtures_present() -> None:
    if not ROOT.is_dir():
        pytest.skip(f"no shared fixtures at {ROOT}")
    assert len(FIXTURES) == 71, [name_of(p) for p in FIXTURES]


@pytest.mark.parametrize("deep", [False, True], ids=["metadata", "deep"])
@pytest.mark.parametrize("path", FIXTURES, ids=name_of)
def test_parses(path: Path, deep: bool) -> None:
    if name_of(path) in UNPARSEABLE:
        pytest.skip(UNPARSEABLE[name_of(path)])
    with open_rdb(path, deep=deep) as dump:
        keys = list(dump.keys())
        assert dump.checksum == expected_checksum(path)
        assert dump.header.size == path.stat().st_size
        assert len({(k.db, k.key) for k in keys}) == len(keys)
        for key in keys:
            assert key.size > 0 and key.offset >= 9 and key.offset + key.size <= dump.header.size
            assert key.length is not None and key.length >= 0


# ---- rdb-py as the oracle for the core types -------------------------------------------------------------------


def rdbpy_view(path: Path) -> tuple[dict[tuple[int, bytes], tuple[str, int | None, int]], dict[bytes, bytes]]:
    """(db, key) → (type, expiry ms, element count) as rdb-py reads the file, and its AUX fields."""
    rdb = pytest.importorskip("rdb", reason="rdb-py (the dev-only test oracle) is not installed")
    keys: dict[tuple[int, bytes], tuple[str, int | None, int]] = {}
    aux: dict[bytes, bytes] = {}
    db = 0
    for item in rdb.RdbDecoder(str(path)):
        kind = item["type"]
        if kind == "select_db":
            db = item["db"]
        elif kind == "aux_field":
            aux[item["key"]] = item["value"]
        elif kind in RDBPY_TYPES:
            body = item.get("value", item.get("values", item.get("members")))
            keys[(db, item["key"])] = (RDBPY_TYPES[kind], item["expiry"], len(body))
    return keys, aux


ORACLE_FIXTURES = [p for p in FIXTURES if not p.read_bytes().startswith(b"VALKEY")]


@pytest.mark.parametrize("path", ORACLE_FIXTURES, ids=name_of)
def test_core_types_match_rdbpy(path: Path) -> None:
    expected, aux = rdbpy_view(path)
    parsed = parse_file(path)
    # keys whose expiry had passed when the dump was written are counted apart, not yielded (a server drops them)
    if b"ctime" in aux:
        written_ms = int(aux[b"ctime"]) * 1000
        gone = {i for i, (_, expiry, _) in expected.items() if expiry is not None and expiry <= written_ms}
    else:
        gone = set()
    assert parsed.expired == len(gone)
    core = {i: k for i, k in parsed.keys.items() if k.type in RDBPY_TYPES.values()}
    assert set(core) == set(expected) - gone
    rows = []
    for ident, key in core.items():
        actual = (key.type, key.expire_at_ms, key.length)
        if actual != expected[ident]:
            rows.append(f"  {ident!r}: rdb-py {expected[ident]!r}, parser {actual!r}")
    assert not rows, "type / expiry / length differ from rdb-py:\n" + "\n".join(rows)
    others = {i: k.type for i, k in parsed.keys.items() if i not in core}
    assert others == HIDDEN_FROM_RDBPY.get(name_of(path), {})


#: keys rdb-py skips without a word (streams, module values), by fixture
_ALL_TYPES_STREAMS = {(0, b"stream"): "stream", (0, b"empty_stream"): "stream"}
HIDDEN_FROM_RDBPY: dict[str, dict[tuple[int, bytes], str]] = {
    "hdt3213/stream_listpacks_1.rdb": {(0, k): "stream" for k in (b"test", b"my", b"trim", b"listpack", b"nums")},
    "hdt3213/stream_listpacks_2.rdb": {(0, b"astream"): "stream"},
    "hdt3213/issue27.rdb": {(0, b"mytest"): "stream"},
    "hdt3213/stream_listoacks_3.rdb": {(0, b"mystream"): "stream"},
    "rdb-rs/redis_7_4_all_types.rdb": _ALL_TYPES_STREAMS,
    "rdb-rs/redis_8_6_all_types.rdb": {**_ALL_TYPES_STREAMS, (0, b"doc"): "ReJSON-RL"},
    "rdb-rs/redis_stack_7_4_modules.rdb": {**_ALL_TYPES_STREAMS, (0, b"doc"): "ReJSON-RL"},
}


# ---- hand-written expectations ---------------------------------------------------------------------------------


def stream(length: int, groups: int = 0, pel: int = 0, consumers: int = 0, nodes: int = 1) -> dict[str, Any]:
    return {
        "type": "stream", "encoding": "stream", "length": length, "stream_groups": groups, "stream_pel": pel,
        "stream_consumers": consumers, "nodes": nodes, "hfe_fields": None, "module": None, "expire_at_ms": None,
    }  # fmt: skip


def plain(kind: str, encoding: str, length: int, expire: int | None = None, **more: Any) -> dict[str, Any]:
    return {"type": kind, "encoding": encoding, "length": length, "expire_at_ms": expire, "module": None, **more}


def module(name: str) -> dict[str, Any]:
    return {"type": name, "module": name, "encoding": MODULE_ENCODING, "length": 0, "expire_at_ms": None}


def all_types(ttl_expire: int, *, json_doc: bool) -> dict[tuple[int, bytes], dict[str, Any]]:
    """The keyspace of rdb-rs's all-types dumps (the same script run on Redis 7.4, Redis Stack 7.4 and 8.6)."""
    keys = {
        b"ttl_str": plain("string", "embstr", 1, ttl_expire),
        b"after_all": plain("string", "embstr", 4),
        b"str": plain("string", "embstr", 5),
        b"lp_ints": plain("list", "listpack", 12, nodes=1),  # one node, written by ≥ 7.2: listpack in memory
        b"list": plain("list", "listpack", 3, nodes=1),
        b"zset": plain("zset", "listpack", 2),
        b"set": plain("set", "listpack", 3),
        b"hfe_big": plain("hash", "listpackex", 200, hfe_fields=2),
        b"hfe_small": plain("hash", "listpackex", 3, hfe_fields=1),
        b"empty_stream": stream(0, nodes=0),
        b"stream": stream(2, groups=1, pel=1, consumers=1),
    }
    if json_doc:
        keys[b"doc"] = module("ReJSON-RL")
    return {(0, name): facts for name, facts in keys.items()}


NOOP_LIB = b"#!lua name=mylib\nredis.register_function('noop', function() return 1 end)"

EXACT: dict[str, dict[str, Any]] = {
    "hdt3213/valkey_hash2_with_hfe.rdb": {
        "header": ("VALKEY", 80),
        "aux": {"valkey-ver": b"9.0.1"},
        "keys": {(0, b"hash2-hfe"): plain("hash", "hashtable", 3, hfe_fields=2)},  # HASH_2: F1, F2 carry TTLs
    },
    "hdt3213/hash_with_hfe.rdb": {
        "header": ("REDIS", 12),
        "aux": {"redis-ver": b"7.4.5"},
        "keys": {(0, b"hash-hfe"): plain("hash", "hashtable", 8, hfe_fields=3)},  # HASH_METADATA
    },
    "hdt3213/hash_as_listpack_with_hfe.rdb": {
        "header": ("REDIS", 12),
        "aux": {"redis-ver": b"7.4.5"},
        "keys": {(0, b"listpack-hfe"): plain("hash", "listpackex", 3, hfe_fields=2)},  # HASH_LISTPACK_EX
    },
    "hdt3213/stream_listpacks_1.rdb": {
        "header": ("REDIS", 9),
        "keys": {
            (0, b"test"): stream(1),
            (0, b"my"): stream(3),
            (0, b"trim"): stream(120, nodes=3),
            (0, b"listpack"): stream(150, groups=4, pel=7, consumers=5, nodes=3),
            (0, b"nums"): stream(18),
        },
    },
    "hdt3213/stream_listpacks_2.rdb": {"header": ("REDIS", 10), "keys": {(0, b"astream"): stream(2)}},
    "hdt3213/issue27.rdb": {
        "header": ("REDIS", 10),
        "aux": {"redis-ver": b"7.0.14"},
        "keys": {(0, b"mytest"): stream(10_098, nodes=101)},
    },
    "hdt3213/stream_listoacks_3.rdb": {
        "header": ("REDIS", 12),
        "keys": {(0, b"mystream"): stream(1, groups=1, pel=1, consumers=1)},
    },
    "hdt3213/function.rdb": {
        "header": ("REDIS", 11),
        "aux": {"redis-ver": b"7.2.5"},
        "keys": {},
        "functions": [b"#!lua name=mylib\nredis.register_function('myfunc', function(keys, args) return 'hello' end)"],
    },
    "rdb-rs/redis_7_4_all_types.rdb": {
        "header": ("REDIS", 12),
        "aux": {"redis-ver": b"7.4.1"},
        "keys": all_types(1_791_672_334_103, json_doc=False),
        "functions": [NOOP_LIB],
        "module_aux": set(),
    },
    "rdb-rs/redis_stack_7_4_modules.rdb": {
        "header": ("REDIS", 12),
        "aux": {"redis-ver": b"7.4.7"},
        "keys": all_types(1_791_672_437_022, json_doc=True),
        "functions": [NOOP_LIB],
        "module_aux": {"scdtype00", "ft_index0"},  # three MODULE_AUX records: scdtype00 (twice) and ft_index0
    },
    "rdb-rs/redis_8_6_all_types.rdb": {
        "header": ("REDIS", 13),
        "aux": {"redis-ver": b"8.6.7"},
        "keys": all_types(1_791_672_336_309, json_doc=True),
        "functions": [NOOP_LIB],
        "module_aux": set(),
    },
}


@pytest.mark.parametrize("name", sorted(EXACT))
def test_exact_expectations(name: str) -> None:
    path = ROOT / name
    spec = EXACT[name]
    parsed: Parsed = parse_file(path)
    assert (parsed.header.magic, parsed.header.version) == spec["header"]
    for field, value in spec.get("aux", {}).items():
        assert parsed.aux.get(field) == value, field
    assert parsed.functions == spec.get("functions", [])
    if "module_aux" in spec:
        assert set(parsed.module_aux) == spec["module_aux"]
    assert set(parsed.keys) == set(spec["keys"])
    rows = []
    for ident, facts in spec["keys"].items():
        key = parsed.keys[ident]
        for field, value in facts.items():
            if getattr(key, field) != value:
                rows.append(f"  {ident!r} {field}: expected {value!r}, got {getattr(key, field)!r}")
    assert not rows, "\n".join(rows)
