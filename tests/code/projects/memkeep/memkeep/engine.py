"""The search engine: its client is made when the service starts, not when the module is imported."""
# ruff: noqa: PLW0603, UP045 -- a client set through `global` at start-up, `Optional` as older code writes it

from typing import Optional

import redis
import valkey

from .reports import describe, warm

_client = None
_replica: Optional[redis.Redis] = None
_settings: dict = {}


def init(settings):
    global _client, _replica, _settings
    _settings = settings
    _client = valkey.StrictValkey(host=settings["host"], port=settings["port"])
    _replica = _connect(settings["replica"])


def _connect(url):
    return redis.Redis.from_url(url)


def search(query):
    found = _client.hgetall(f"mem:doc:{query}")  # error: CMD005
    return found.get("text", "")


def documents(prefix):
    return list(_client.scan_iter(match=f"mem:doc:{prefix}*"))  # error: CMD010


def replica_keys():
    return _replica.keys("mem:doc:*")  # error: CMD001


def option(name):
    return _settings.get(name)


def reset():
    _client.flushdb()  # error: CMD002


class Index:
    """An index whose connection is opened on first use."""

    conn = None

    def open(self):
        self.conn = redis.Redis(host="index")

    def members(self, name):
        return self.conn.smembers(f"mem:tag:{name}")  # error: CMD005

    def describe(self, name):
        return {"name": name, "members": len(self.members(name))}


def warm_up(names):
    index = Index()
    index.open()
    for name in names:
        warm(index, name)
        describe(index, name)
