"""Lua helpers with Redis-like method names: their signatures are the library's, not redis-py's."""

from __future__ import annotations

from typing import Any

ZADD_MODES = {"nx": "NX", "xx": "XX", "min": "LT", "max": "GT"}


class Scripts:
    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._zadd = redis.register_script("return redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2], ARGV[3])")

    def zadd(self, key: str, score: float, member: str, mode: str, client: Any = None) -> Any:
        return self._zadd(keys=[key], args=[ZADD_MODES[mode], score, member], client=client or self.redis)

    def zpoppush(self, source: str, destination: str, count: int, score: float, client: Any = None) -> Any:
        return None
