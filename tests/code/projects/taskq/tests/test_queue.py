from unittest import mock

import redis
from taskq import AsyncTaskRedis, Broker, TaskRedis


def test_push(broker):
    broker.client.flushall()  # error: CMD002
    queue = broker.queue("default")
    queue.push("job1", {"task": "say_hello"})
    queue.connection.set("taskq:stats:pushed", 0)  # error: TTL006


class TestQueue:
    def setup_method(self):
        self.broker = Broker()
        self.conn = self.broker.client
        self.conn.flushdb()  # error: CMD002

    def test_claim(self):
        self.broker.queue("default").claim("job1")
        self.broker.scripts.zadd("taskq:registry:started:default", 1, "job1", mode="nx")
        assert self.conn.zscore("taskq:registry:started:default", "job1") == 1

    def test_forget(self):
        TaskRedis().delete("taskq:job:1")
        redis.Redis().delete("taskq:job:1")  # error: CMD008


async def test_health(pool: AsyncTaskRedis):
    await pool.set("taskq:stats:health", b"1")  # error: TTL006
    assert await pool.keys("*") == [b"taskq:stats:health"]  # error: CMD001


async def test_pool_fixture(pool):
    assert await pool.hgetall("taskq:job:1") == {}  # error: CMD005


def test_mocked():
    with mock.patch("taskq.broker.redis.Redis") as redis_cls:
        client = mock.MagicMock()
        client.hgetall("taskq:job:1")
        redis_cls.return_value = client
        redis_mock = mock.Mock()
        redis_mock.keys("*")
