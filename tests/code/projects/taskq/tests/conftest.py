import pytest
import redis
from taskq import Broker, create_pool


@pytest.fixture
def broker():
    client = redis.Redis(host="localhost", port=6379)
    yield Broker(client)


@pytest.fixture
async def pool():
    pool = await create_pool("redis://localhost:6379/0")
    yield pool
    await pool.flushdb()  # error: CMD002
