"""Type aliases shared by the package and its tests (which do not import the client library themselves)."""

# ruff: noqa: UP007 -- aliases written with `Union`, as packages that support older Pythons write them

from typing import Union

import redis
import redis.asyncio

ClientType = Union[redis.Redis, redis.asyncio.Redis]
ClientList = list[redis.Redis]
