from collections.abc import Callable, Iterator

import pytest
from kvredis._typing import ClientType


@pytest.fixture
def create_connection() -> Callable[..., ClientType]:
    from redis import Redis

    def make(**kwargs):
        return Redis(port=6390, **kwargs)

    return make


@pytest.fixture
def r(create_connection: Callable[..., ClientType]) -> Iterator[ClientType]:
    conn = create_connection()
    yield conn
    conn.flushall()  # error: CMD002


@pytest.fixture
def store(r: ClientType) -> ClientType:
    return r
