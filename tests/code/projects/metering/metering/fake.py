"""InMemoryRedis: the project's own stand-in for redis-py in unit tests.

It mirrors redis-py's signatures for the commands the service uses, so tests can hand it to code written
for `redis.Redis`. Nothing here talks to a server.
"""

from __future__ import annotations

import fnmatch
import time
from collections.abc import Iterator
from typing import Any


class InMemoryRedis:
    def __init__(self) -> None:
        self._data: dict[str, Any] = {}
        self._expiry: dict[str, float] = {}

    def _live(self, name: str) -> bool:
        deadline = self._expiry.get(name)
        if deadline is not None and deadline <= time.monotonic():
            self._data.pop(name, None)
            self._expiry.pop(name, None)
        return name in self._data

    def get(self, name: str) -> Any:
        return self._data.get(name) if self._live(name) else None

    def set(self, name: str, value: Any, ex: int | None = None, nx: bool = False, xx: bool = False) -> bool:
        if (nx and self._live(name)) or (xx and not self._live(name)):
            return False
        self._data[name] = value
        self._expiry.pop(name, None)
        if ex is not None:
            self.expire(name, ex)
        return True

    def incrby(self, name: str, amount: int = 1) -> int:
        value = int(self.get(name) or 0) + amount
        self._data[name] = value
        return value

    def incr(self, name: str, amount: int = 1) -> int:
        return self.incrby(name, amount)

    def expire(self, name: str, time_: int) -> bool:
        if not self._live(name):
            return False
        self._expiry[name] = time.monotonic() + time_
        return True

    def ttl(self, name: str) -> int:
        if not self._live(name):
            return -2
        deadline = self._expiry.get(name)
        return -1 if deadline is None else int(deadline - time.monotonic())

    def hset(self, name: str, key: str | None = None, value: Any = None, mapping: dict[str, Any] | None = None) -> int:
        table = self._data.setdefault(name, {})
        added = dict(mapping or {})
        if key is not None:
            added[key] = value
        new = len(set(added) - set(table))
        table.update(added)
        return new

    def hincrby(self, name: str, key: str, amount: int = 1) -> int:
        table = self._data.setdefault(name, {})
        table[key] = int(table.get(key, 0)) + amount
        return table[key]

    def hget(self, name: str, key: str) -> Any:
        return (self.get(name) or {}).get(key)

    def hgetall(self, name: str) -> dict[str, Any]:
        return dict(self.get(name) or {})

    def zadd(self, name: str, mapping: dict[str, float], nx: bool = False, xx: bool = False) -> int:
        board = self._data.get(name)
        if board is None:
            if xx:
                return 0
            board = self._data[name] = {}
        added = 0
        for member, score in mapping.items():
            if (nx and member in board) or (xx and member not in board):
                continue
            added += member not in board
            board[member] = score
        return added

    def zrange(self, name: str, start: int, end: int, withscores: bool = False) -> list[Any]:
        ranked = sorted((self.get(name) or {}).items(), key=lambda item: item[1])
        stop = None if end == -1 else end + 1
        return ranked[start:stop] if withscores else [member for member, _ in ranked[start:stop]]

    def zscore(self, name: str, value: str) -> float | None:
        return (self.get(name) or {}).get(value)

    def keys(self, pattern: str = "*") -> list[str]:
        return [name for name in list(self._data) if self._live(name) and fnmatch.fnmatchcase(name, pattern)]

    def scan_iter(self, match: str | None = None, count: int | None = None) -> Iterator[str]:
        yield from self.keys(match or "*")

    def delete(self, *names: str) -> int:
        return sum(self._data.pop(name, None) is not None for name in names)

    def unlink(self, *names: str) -> int:
        return self.delete(*names)

    def flushall(self) -> bool:
        self._data.clear()
        self._expiry.clear()
        return True

    def pipeline(self, transaction: bool = True) -> FakePipeline:
        return FakePipeline(self)


class FakePipeline:
    """Queues calls and runs them on execute(), like redis-py's Pipeline."""

    def __init__(self, fake: InMemoryRedis) -> None:
        self._fake = fake
        self._queued: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        def queue(*args: Any, **kwargs: Any) -> FakePipeline:
            self._queued.append((name, args, kwargs))
            return self

        return queue

    def execute(self) -> list[Any]:
        results = [getattr(self._fake, name)(*args, **kwargs) for name, args, kwargs in self._queued]
        self._queued.clear()
        return results
