"""Tests that hand a client to helpers: a function of the module and a static method of the test class."""

import fakeredis
import pytest
import redis


def seed(conn, count):
    for index in range(count):
        conn.set(f"mem:cache:{index}", index)  # error: TTL006


class TestWatch:
    def setup_method(self):
        self.client = fakeredis.FakeStrictRedis()

    @staticmethod
    def operations(client):
        with pytest.raises(redis.WatchError):
            pipe = client.pipeline(transaction=True)  # error: CMD007
            pipe.watch("mem:seen:a")
            client.set("mem:seen:a", "bad")  # error: TTL006
            pipe.multi()
            pipe.set("mem:seen:a", "1")  # error: TTL006
            pipe.execute()

    def test_with_a_local_client(self):
        local = fakeredis.FakeStrictRedis()
        self.operations(local)
        seed(local, 3)

    def test_with_the_shared_client(self):
        self.operations(self.client)
        assert self.client.keys("mem:seen:*")  # error: CMD001
