"""What is on the server, read without redis-py: the tests' ground truth for the recipes.

The recipes send their commands through redis-py; the tests read back and prepare the server over a plain
socket with hiredis' reply parser, so a check never shares code with what it checks (a redis-py bug in
MGET cannot make both sides agree), and a client guard that instruments redis-py never judges the tests'
own bookkeeping (FLUSHALL, CONFIG RESETSTAT, HSET of 10,000 fields at once).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any

import hiredis

from rediscipline.redis_meta.keyslot import key_slot
from tests.support.servers import ServerProcess
from tests.support.topologies import Cluster


def _encode(arg: object) -> bytes:
    if isinstance(arg, bytes):
        return arg
    if isinstance(arg, str):
        return arg.encode()
    return str(arg).encode()


class Raw:
    """One RESP2 connection to one server: `call(*args)` returns hiredis' reply (errors raise)."""

    def __init__(self, server: ServerProcess) -> None:
        self.sock = socket.create_connection((server.host, server.port), timeout=30)
        self.reader = hiredis.Reader()

    def call(self, *args: object) -> Any:
        return self.pipeline([args])[0]

    def pipeline(self, commands: Sequence[Sequence[object]]) -> list[Any]:
        out = bytearray()
        for command in commands:
            parts = [_encode(arg) for arg in command]
            out += b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)
        self.sock.sendall(out)
        replies = []
        while len(replies) < len(commands):
            reply = self.reader.gets()
            if reply is False:
                data = self.sock.recv(1 << 20)
                if not data:
                    raise ConnectionError("the server closed the connection")
                self.reader.feed(data)
                continue
            if isinstance(reply, hiredis.ReplyError):
                raise reply
            replies.append(reply)
        return replies

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Raw:
        return self

    def __exit__(self, _t: type[BaseException] | None, _e: BaseException | None, _tb: TracebackType | None) -> None:
        self.close()


def keys_of(raw: Raw) -> set[bytes]:
    """Every key of the server's db 0, by SCAN."""
    found: set[bytes] = set()
    cursor = b"0"
    while True:
        cursor, batch = raw.call("SCAN", cursor, "COUNT", 1000)
        found.update(batch)
        if cursor == b"0":
            return found


def commandstats(raw: Raw) -> dict[str, int]:
    """Calls per command since the last CONFIG RESETSTAT (the oracle's own calls included)."""
    text = raw.call("INFO", "commandstats").decode()
    stats = {}
    for line in text.splitlines():
        if line.startswith("cmdstat_"):
            name, _sep, fields = line.partition(":")
            calls = dict(field.split("=") for field in fields.split(","))["calls"]
            stats[name.removeprefix("cmdstat_")] = int(calls)
    return stats


def reset(raw: Raw) -> None:
    """An empty db and zeroed command statistics."""
    raw.call("FLUSHALL")
    raw.call("CONFIG", "RESETSTAT")


class RawCluster:
    """Raw connections to every master of a cluster; `node_for(key)` is the one serving the key's slot."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.nodes = {master.port: Raw(master) for master in cluster.masters}

    def node_for(self, key: bytes) -> Raw:
        return self.nodes[self.cluster.shard_serving(key_slot(key)).master.port]

    def __iter__(self) -> Iterator[Raw]:
        return iter(self.nodes.values())

    def close(self) -> None:
        for raw in self.nodes.values():
            raw.close()
