"""A client class chosen at run time, by a function that says which kind of class it returns."""

import redis
import redis.asyncio


def client_class(use_asyncio: bool) -> type[redis.Redis]:
    return redis.asyncio.Redis if use_asyncio else redis.Redis  # type: ignore[return-value]


def reporting_client(use_asyncio: bool = False):
    cls = client_class(use_asyncio)
    return cls(host="reports", db=3)  # error: CMD006
