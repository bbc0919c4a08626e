"""Which expressions are Redis clients, pipelines or pub/sub objects.

`dict.keys()` and `requests.get()` must never be read as Redis commands, so a receiver counts as a client
only when the code shows it: built by a redis-py constructor or factory (`redis.Redis(...)`,
`Redis.from_url`, `RedisCluster`, the `redis.asyncio` variants, `django_redis.get_redis_connection`) or by
a subclass of one, a function returning one, an attribute a class assigns one to (`self.cache =
redis.Redis()`), a parameter annotated with a client type, or a simple alias of any of these (see
module.py and kinds.py). Two weaker signals are accepted for receivers the code cannot resolve (a client
injected from elsewhere): a name that says it is Redis (`redis`, `r`, `redis_client`, `self._redis`), or a
method that exists only on Redis clients (`hgetall`, `zadd`, `scan_iter`, but not `get`, `set`, `keys` or
`delete`); they are weighed against the evidence on the same receiver (evidence.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from rediscipline.model.code import Literal
from rediscipline.redis_meta.methods import METHODS
from rediscipline.sources.code.kinds import (
    KIND_CLIENT,
    KIND_OTHER,
    KIND_PIPELINE,
    REPLY_KIND,
    Kind,
)

#: Qualified names of calls that return a client.
CLIENT_FACTORIES = (
    frozenset(
        f"{module}.{name}"
        for module in ("redis", "redis.client", "redis.asyncio", "redis.asyncio.client", "aioredis", "fakeredis")
        for name in (
            "Redis",
            "StrictRedis",
            "from_url",
            "Redis.from_url",
            "StrictRedis.from_url",
            "Redis.from_pool",
            "FakeRedis",
            "FakeStrictRedis",
            "FakeAsyncRedis",
        )
    )
    | frozenset(
        f"{module}.{name}"
        for module in ("redis", "redis.cluster", "redis.asyncio", "redis.asyncio.cluster")
        for name in ("RedisCluster", "RedisCluster.from_url")
    )
    | frozenset(
        f"{module}.{name}"
        for module in ("valkey", "valkey.client", "valkey.asyncio", "valkey.asyncio.client")
        for name in (
            "Valkey",
            "StrictValkey",
            "from_url",
            "Valkey.from_url",
            "StrictValkey.from_url",
            "Valkey.from_pool",
        )
    )
    | frozenset(
        f"{module}.{name}"
        for module in ("valkey", "valkey.cluster", "valkey.asyncio", "valkey.asyncio.cluster")
        for name in ("ValkeyCluster", "ValkeyCluster.from_url")
    )
    | {"django_redis.get_redis_connection"}
)

#: Type names that mark a parameter or attribute annotation as a client or a pipeline; a class whose name
#: ends with `Redis` or `RedisCluster` (`ArqRedis`, `FakeStrictRedis`) is taken for a client class too, and
#: so are valkey-py's clients (a fork of redis-py with the same API).
CLIENT_TYPES = frozenset(
    {"Redis", "StrictRedis", "RedisCluster", "FakeRedis", "AsyncRedis", "Valkey", "StrictValkey", "ValkeyCluster"}
)
PIPELINE_TYPES = frozenset({"Pipeline", "ClusterPipeline"})
PUBSUB_TYPES = frozenset({"PubSub", "ClusterPubSub"})
#: Methods that return a client whatever they are called on (Sentinel).
CLIENT_METHODS = frozenset({"master_for", "slave_for", "get_redis_connection"})

_REDIS_NAME = re.compile(
    r"_*(?:r|rds|rdb|rcli|[a-z0-9_]*redis(?:_?(?:client|conn|connection|cli|db|cache|store|master|slave"
    r"|replica|primary|cluster|pool_client|instance|server|backend))?|redis_[a-z0-9_]*_client)"
)

#: Method names too common outside Redis to identify a receiver on their own.
GENERIC_METHODS = frozenset(
    {
        "get", "set", "keys", "delete", "exists", "type", "append", "copy", "sort", "move", "rename", "dump",
        "restore", "time", "info", "echo", "ping", "lock", "publish", "scan", "eval", "select", "close", "reset",
        "incr", "decr", "incrby", "decrby", "expire", "ttl", "persist", "touch", "wait", "watch", "unwatch", "multi",
        "execute", "object", "save", "shutdown", "hello", "role", "memory_usage", "lastsave", "sync", "quit",
        "get_many", "set_many", "delete_many", "getdel", "getset", "getex", "exec", "discard", "load", "auth",
        "failover", "module_list", "bitcount", "dbsize", "debug_object", "readonly", "readwrite", "replicaof",
        "slaveof", "script_load", "stralgo", "lcs", "substr", "psync", "migrate", "monitor", "flushall", "flushdb",
        "swapdb", "randomkey", "config_get", "config_set", "client_list", "command", "pexpire", "expireat",
        "unlink", "digest", "hash", "stats", "version", "reload",
    }
)  # fmt: skip


@dataclass(eq=False)
class Pipeline:
    """One pipeline object, from where it was made to its `execute()`: what it holds and how it runs."""

    transaction: bool
    loops: tuple[int, ...]  # ids of the loops around the place it was made
    pending: list[tuple[tuple[tuple[int, int | None], ...], int]] = field(default_factory=list)
    executes_in: set[int] = field(default_factory=set)  # loops that contain an execute() of this pipeline
    announced: bool = False  # made with `transaction=True` written out: its MULTI is reported there
    watching: bool = False  # after `watch()` and before `multi()`: commands are sent at once, replies returned


@dataclass(frozen=True, slots=True)
class Handle:
    """What a receiver is: a client, a pipeline (with its state), a pub/sub object, an instance of a class
    (`cls`: a project class, another package's class, or a client subclass whose own methods are not
    commands), or something else. `guessed`: taken for a client on weak signals only."""

    kind: str
    pipeline: Pipeline | None = None
    cls: str | None = None
    guessed: bool = False
    item: Kind | None = None  # what a container, a callable or a class gives (see `Kind.shape`)
    shape: str | None = None
    namespace: str | None = None  # a module namespace's pipeline (`r.json().pipeline()`): its commands first


CLIENT = Handle(KIND_CLIENT)
GUESSED_CLIENT = Handle(KIND_CLIENT, guessed=True)  # judged as a client; its pipelines are guessed too
OTHER = Handle(KIND_OTHER)
REPLY = Handle(REPLY_KIND.kind, cls=REPLY_KIND.cls, item=REPLY_KIND.item, shape=REPLY_KIND.shape)  # data


def handle_of(kind: Kind | None, loops: tuple[int, ...] = ()) -> Handle | None:
    """The extractor's handle for a kind the tables recorded (a pipeline gets its own state)."""
    if kind is None:
        return None
    if kind.kind == KIND_PIPELINE:
        return Handle(KIND_PIPELINE, Pipeline(True, loops))
    return Handle(kind.kind, cls=kind.cls, item=kind.item, shape=kind.shape)


def kind_of(handle: Handle | None) -> Kind | None:
    if handle is None or handle.guessed:
        return None
    return Kind(handle.kind, handle.cls, handle.item, handle.shape)


def looks_like_redis(name: str) -> bool:
    """A name that says it holds a Redis client (`redis`, `r`, `redis_client`, `_redis`), not a constant,
    nor a test double (`mock_redis`, `redis_mock`)."""
    return not name.isupper() and not says_mock(name) and _REDIS_NAME.fullmatch(name.lower()) is not None


def says_mock(name: str) -> bool:
    """A name that says it holds a test double (`mock_redis`, `redis_mock`, `mocked_client`)."""
    return "mock" in name.lower()


def is_client_type(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    if last in CLIENT_TYPES:
        return True
    return last.endswith(("Redis", "RedisCluster")) and last[:1].isupper() and "Mock" not in last


def is_pipeline_type(name: str) -> bool:
    return name.rsplit(".", 1)[-1] in PIPELINE_TYPES


def is_pubsub_type(name: str) -> bool:
    return name.rsplit(".", 1)[-1] in PUBSUB_TYPES


def transaction_flag(value: Literal, known: bool) -> bool:
    """redis-py's `pipeline(transaction=True)` is the default: MULTI/EXEC unless told otherwise."""
    return bool(value) if known else True


def may_use_redis(text: str) -> bool:
    """Whether a module's text could hold anything the extractor recognises, by C-speed text search.

    Every way a receiver becomes a client leaves a trace in the text: an import or annotation mentions
    "redis", a guessed client is a name such as `r` or `redis_client` before a command method, and an
    injected one is called with a Redis-only method. Modules without any of them (most of a code base that
    is not the Redis layer) are parsed for syntax errors but not walked.
    """
    lowered = text.lower()
    if "redis" in lowered or "execute_command" in text or "master_for" in text:
        return True
    return _trace_pattern().search(text) is not None


@functools.cache
def _trace_pattern() -> re.Pattern[str]:
    """The method calls that betray a client, compiled when the first module without a plainer trace is read
    (an alternation of every command method, 5 ms: a check of the Redis layer alone never pays it)."""
    distinctive = sorted(m for m in METHODS if m not in GENERIC_METHODS)
    methods = "|".join(sorted(METHODS, key=len, reverse=True))
    return re.compile(
        rf"\.\s*(?:{'|'.join(sorted(distinctive, key=len, reverse=True))})\s*\("
        rf"|\b_*(?:r|rds|rdb|rcli)\s*\.\s*(?:{methods})\s*\("
    )
