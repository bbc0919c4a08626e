"""The broker: the deployment's redis-py client, reached by other modules as `broker.client`."""

from __future__ import annotations

import os
from typing import ClassVar

import redis


class Broker:
    def __init__(self, url: str) -> None:
        self.url = url
        self.client = redis.Redis.from_url(url, socket_timeout=5, health_check_interval=30)

    def ping(self) -> bool:
        return bool(self.client.ping())


broker = Broker(os.environ.get("TASKFLOW_REDIS_URL", "redis://localhost:6379/0"))


RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
CLAIM = """
local status = redis.call('hget', KEYS[1], 'status')
if status ~= 'queued' then return 0 end
redis.call('hset', KEYS[1], 'status', 'running', 'worker', ARGV[1])
return 1
"""


class Scripts:
    """The Lua scripts of taskflow, registered once (EVALSHA); `eval(name, keys=..., args=...)` runs one."""

    SOURCES: ClassVar[dict[str, str]] = {"release": RELEASE, "claim": CLAIM}

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._scripts = {name: client.register_script(source) for name, source in self.SOURCES.items()}

    def eval(self, name: str, keys: list[str] | None = None, args: list[object] | None = None) -> object:
        return self._scripts[name](keys=keys or [], args=args or [])

    def debug_eval(self, source: str, *keys: str) -> object:
        """Run an ad-hoc script from the admin console."""
        return self._client.eval(source, len(keys), *keys)  # error: CMD009


scripts = Scripts(broker.client)
