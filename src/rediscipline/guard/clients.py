"""Which objects the guard can instrument, and how they are named in a report.

The supported types are redis-py's clients, pipelines and pub/sub objects, sync and asyncio, single-node and
cluster, and the same classes of `valkey` (valkey-py, a redis-py fork with the same seams) when it is
installed. A pipeline is told apart from a client first: redis-py's pipelines subclass its clients.
"""

from __future__ import annotations

import importlib
from typing import Any

from rediscipline.guard.errors import GuardError
from rediscipline.guard.hooks import CLIENT, PIPELINE, PUBSUB

#: (module, class, kind) of every supported type, for each client library.
_TYPES = (
    ("client", "Pipeline", PIPELINE),
    ("cluster", "ClusterPipeline", PIPELINE),
    ("asyncio.client", "Pipeline", PIPELINE),
    ("asyncio.cluster", "ClusterPipeline", PIPELINE),
    ("client", "PubSub", PUBSUB),
    ("asyncio.client", "PubSub", PUBSUB),
    ("client", "Redis", CLIENT),
    ("cluster", "RedisCluster", CLIENT),
    ("asyncio.client", "Redis", CLIENT),
    ("asyncio.cluster", "RedisCluster", CLIENT),
)
_LIBRARIES = {"redis": {}, "valkey": {"Redis": "Valkey", "RedisCluster": "ValkeyCluster"}}


def _supported() -> list[tuple[type, str]]:
    found: list[tuple[type, str]] = []
    for library, renamed in _LIBRARIES.items():
        for module_name, class_name, kind in _TYPES:
            try:
                module = importlib.import_module(f"{library}.{module_name}")
            except ImportError:
                continue
            cls = getattr(module, renamed.get(class_name, class_name), None) or getattr(module, class_name, None)
            if isinstance(cls, type):
                found.append((cls, kind))
    return found


_SUPPORTED: list[tuple[type, str]] | None = None


def kind_of(target: object) -> str:
    """`client`, `pipeline` or `pubsub`; a GuardError (a TypeError) naming any other type."""
    global _SUPPORTED  # noqa: PLW0603 - the supported types, found once
    if _SUPPORTED is None:
        _SUPPORTED = _supported()
    for cls, kind in _SUPPORTED:
        if isinstance(target, cls):
            return kind
    shown = f"{type(target).__module__}.{type(target).__qualname__}"
    raise GuardError(
        f"cannot guard a {shown}: the guard instruments redis-py (and valkey-py) clients, pipelines and "
        "pub/sub objects, sync or asyncio, single node or cluster"
    )


def encoding_of(target: Any) -> str:
    """The encoding the client writes text with (redis-py's `encoding=`, utf-8 by default)."""
    for owner in (target, getattr(target, "connection_pool", None)):
        kwargs = getattr(owner, "connection_kwargs", None)
        if isinstance(kwargs, dict) and isinstance(kwargs.get("encoding"), str):
            return str(kwargs["encoding"])
    encoder = getattr(target, "encoder", None)
    encoding = getattr(encoder, "encoding", None)
    return encoding if isinstance(encoding, str) else "utf-8"


def database_of(target: Any) -> int:
    """The database a client selects when it connects (redis-py sends that SELECT itself, on connect)."""
    pool = getattr(target, "connection_pool", None)
    kwargs = getattr(pool, "connection_kwargs", None)
    db = kwargs.get("db", 0) if isinstance(kwargs, dict) else 0
    return db if isinstance(db, int) else 0


def described(target: Any) -> str:
    """A client as the report's header names it: `redis://host:port/db`, never with credentials."""
    pool = getattr(target, "connection_pool", None)
    kwargs = getattr(pool, "connection_kwargs", None)
    if isinstance(kwargs, dict):
        if kwargs.get("path"):
            return f"unix://{kwargs['path']}"
        return f"redis://{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"
    nodes = getattr(target, "startup_nodes", None)
    if nodes:
        first = nodes[0]
        return f"redis-cluster://{getattr(first, 'host', '?')}:{getattr(first, 'port', '?')}"
    return type(target).__name__
