"""A Bloom filter whose transaction helper comes from its second base class."""

import abc
import contextlib
from collections.abc import Iterator

from redis.client import Pipeline

from kvredis._typing import ClientType


class Container:
    def __init__(self, client: ClientType, key: str):
        self.client = client
        self.key = key

    @contextlib.contextmanager
    def _watch(self) -> Iterator[Pipeline]:
        with self.client.pipeline() as pipe:
            pipe.watch(self.key)
            yield pipe


class FilterABC(abc.ABC):
    @abc.abstractmethod
    def add(self, value: str) -> None: ...


class BloomFilter(FilterABC, Container):
    def add(self, value: str) -> None:
        with self._watch() as pipe:
            pipe.multi()  # error: CMD007
            for offset in _offsets(value):
                pipe.setbit(self.key, offset, 1)  # error: TTL006
            pipe.execute()


def _offsets(value: str) -> list[int]:
    return [hash((value, seed)) % 4096 for seed in range(3)]
