"""A chunked MGET on a client with redis-py's client-side cache (RESP3, server 7.4+), run under the version of
redis-py `PYTHONPATH` picks: `python client_cache.py HOST PORT` prints one JSON document with the library's
version and whether each guarded MGET (the first from the server, the second from the cache) returned what
an unguarded client reads."""

from __future__ import annotations

import json
import sys

import redis
from redis.cache import CacheConfig

from rediscipline.guard import guard, new_collector


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    plain = redis.Redis(host=host, port=port)
    keys = [f"user:profile:{i}" for i in range(250)]
    plain.mset({key: b"\xff" + key.encode() for key in keys[::3]})
    cached = redis.Redis(host=host, port=port, protocol=3, cache_config=CacheConfig())
    r = guard(cached, collector=new_collector("record", isolated=True, fix={"chunk": 100}))
    expected = plain.mget(keys)
    same = [r.mget(keys) == expected, r.mget(keys) == expected, r.mget(keys[100:]) == expected[100:]]
    print(json.dumps({"version": redis.__version__, "same": same}))


if __name__ == "__main__":
    main()
