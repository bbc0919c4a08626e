"""A cache whose base class keeps the client its subclass makes."""

import redis


class CacheBase:
    def __init__(self, client, default_timeout=300):
        self._read_client = self._write_client = client
        self.default_timeout = default_timeout

    def clear(self):
        return self._write_client.flushdb()  # error: CMD002

    def get(self, name):
        return self._read_client.hget(f"kv:item:{name}", "value")


class ItemCache(CacheBase):
    def __init__(self, host="localhost", port=6379, default_timeout=300):
        client = redis.Redis(host=host, port=port)
        super().__init__(client, default_timeout)
