"""The extractor on small modules: which receivers are Redis, and exactly what each call site records."""

from __future__ import annotations

import ast
import textwrap

from rediscipline.model.code import EXPIRY_OPTION, EXPIRY_SAME_SCOPE, EXPIRY_UNKNOWN, CodeCall
from rediscipline.sources.code.extract import Facts, ModuleExtractor


def extract(source: str) -> Facts:
    text = textwrap.dedent(source)
    return ModuleExtractor(ast.parse(text), "app.py", text.splitlines()).run()


def calls(source: str) -> list[tuple[int, str]]:
    return [(c.origin.line or 0, c.method) for c in extract(source).calls]


def only(source: str, method: str) -> CodeCall:
    found = [c for c in extract(source).calls if c.method == method]
    assert len(found) == 1, found
    return found[0]


def test_receivers_that_are_clients() -> None:
    assert calls(
        """
        import redis
        from redis import StrictRedis as SR
        from redis.cluster import RedisCluster
        import redis.asyncio as aioredis

        r = redis.Redis()
        def factory():
            return redis.from_url("redis://cache:6379/0")

        class Repo:
            def __init__(self, client: redis.Redis, other):
                self.cache = client
                self.store = SR()
            def f(self, c: "RedisCluster | None"):
                self.cache.get("a:1")
                self.store.get("a:2")
                c.get("a:3")
                alias = self.store
                alias.get("a:4")
                factory().get("a:5")
                r.get("a:6")
                RedisCluster(host="h").get("a:7")

        async def g():
            client = aioredis.from_url("redis://x")
            await client.get("a:8")
        """
    ) == [(16, "get"), (17, "get"), (18, "get"), (20, "get"), (21, "get"), (22, "get"), (23, "get"), (27, "get")]


def test_receivers_that_are_not_clients() -> None:
    assert calls(
        """
        import requests
        cache = {}
        def f(session, data: dict, r):
            cache.get("a")
            data.keys()
            requests.get("http://x").json()
            session.get("user:1")
            r.get("user:1")
        """
    ) == [(9, "get")]  # only `r`, whose name says Redis


def test_redis_only_methods_and_usage_identify_injected_clients() -> None:
    assert calls(
        """
        class Service:
            def __init__(self, conn):
                self.conn = conn
                self.local = {}
            def f(self):
                self.local.get("x")
                self.conn.set("cart:1", 1)
                return self.conn.hgetall("cart:1")
        """
    ) == [(8, "set"), (9, "hgetall")]


def test_set_records_its_ttl_and_the_key_template() -> None:
    call = only(
        """
        import redis
        r = redis.Redis()
        TTL = 600
        def f(uid):
            r.set(f"user:{uid}:token", "x", ex=TTL)
        """,
        "set",
    )
    assert [k.pattern for k in call.keys] == [b"user:*:token"]
    assert (call.expiry, call.constant_ttl, call.scope, call.origin.line, call.origin.column) == (
        EXPIRY_OPTION,
        True,
        "f",
        6,
        5,
    )
    assert call.given == frozenset({"name", "value", "ex"}) and call.literal("value") == "x"


def test_a_later_expire_on_the_same_key_pairs_with_the_write() -> None:
    facts = extract(
        """
        import redis
        r = redis.Redis()
        def f(uid, **opts):
            key = f"cart:{uid}"
            r.hset(key, "sku", 1)
            r.expire(key, 3600)
            r.lpush(f"log:{uid}", "x")
            r.expire(f"other:{uid}", 60)
            r.set("k:1", 1, **opts)
        """
    )
    by_method = {c.method: c for c in facts.calls}
    assert (by_method["hset"].expiry, by_method["hset"].expire_line) == (EXPIRY_SAME_SCOPE, 7)
    assert by_method["lpush"].expiry is None
    assert by_method["set"].expiry == EXPIRY_UNKNOWN


def test_batches_loops_and_pipelines() -> None:
    facts = extract(
        """
        import redis
        r = redis.Redis()
        KEYS = [f"item:{i}" for i in range(150)]
        def f(users):
            r.mget(KEYS)
            r.delete(*[f"item:{i}" for i in range(20)])
            for i in range(300):
                r.get(f"item:{i}")
            pipe = r.pipeline(transaction=False)
            for i in range(1000):
                pipe.set(f"item:{i}", i, ex=60)
                if i % 100 == 0:
                    pipe.execute()
            pipe.execute()
            with r.pipeline() as p:
                for u in users:
                    p.get(f"user:{u}")
                p.execute()
        """
    )
    summary = [
        (c.origin.line, c.method, c.batch, c.loop_iterations, c.pipelined, c.queued, c.unbounded) for c in facts.calls
    ]
    assert summary == [
        (6, "mget", 150, None, False, None, False),
        (7, "delete", 20, None, False, None, False),
        (9, "get", None, 300, False, None, False),
        (12, "set", None, 1000, True, None, False),
        (14, "execute", None, 1000, True, 1, False),
        (15, "execute", None, None, True, 0, False),
        (18, "get", None, None, True, None, False),
        (19, "execute", None, None, True, None, True),
    ]


def test_commands_for_the_command_rules() -> None:
    facts = extract(
        """
        import redis
        r = redis.Redis(db=2)
        def f():
            r.flushall(asynchronous=True)
            r.lrange("list:a", 0, -1)
            r.zrange("rank:a", 0, -1, withscores=True)
            r.execute_command("CONFIG SET", "maxmemory", "1gb")
            with r.pipeline(transaction=True) as tx:
                tx.multi()
            r.monitor()
        """
    )
    assert [(c.origin.line, c.name, c.args) for c in facts.commands] == [
        (3, "select", (b"2",)),
        (5, "flushall", (b"1", b"ASYNC")),
        (6, "lrange", (b"list:a", b"0", b"-1")),
        (7, "zrange", (b"rank:a", b"0", b"-1", b"?", b"1")),
        (8, "config", (b"SET", b"maxmemory", b"1gb")),
        (9, "multi", ()),  # transaction=True written out; the multi() on that pipeline is the same MULTI
        (11, "monitor", ()),
    ]


def test_key_builders_and_class_constants_become_templates() -> None:
    facts = extract(
        """
        import redis
        def user_key(uid):
            return f"user:{uid}:profile"
        class Repo:
            PREFIX = "order"
            def __init__(self):
                self.r = redis.Redis()
            def _key(self, oid):
                \"\"\"The order's hash.\"\"\"
                return f"{self.PREFIX}:{oid}"
            def f(self, uid, oid):
                self.r.get(user_key(uid))
                self.r.hgetall(self._key(oid))
                self.r.hgetall(Repo.PREFIX + ":x")
        """
    )
    assert [(k.name.pattern, k.type) for k in facts.keys] == [  # type: ignore[union-attr]
        (b"user:*:profile", "string"),
        (b"order:*", "hash"),
        (b"order:x", "hash"),
    ]


def test_subscriptions_count_channels() -> None:
    call = only(
        """
        import redis
        r = redis.Redis()
        p = r.pubsub()
        p.subscribe(*[f"ch:{i}" for i in range(60)], news=print)
        """,
        "subscribe",
    )
    assert (call.command, call.batch) == ("subscribe", 61)


def test_locations_count_characters_and_carry_a_line_free_context() -> None:
    call = only(
        """
        import redis
        r = redis.Redis()
        def f():
            x = "é"; r.keys("*")
        """,
        "keys",
    )
    location = call.origin
    # columns count characters from 1; the end is exclusive, as in SARIF
    assert (location.line, location.column, location.end_line, location.end_column) == (5, 14, 5, 25)
    assert location.context == 'f\nx = "é"; r.keys("*")'


def test_databases_chosen_by_pools_urls_and_positional_arguments() -> None:
    facts = extract(
        """
        import redis
        pool = redis.ConnectionPool(host="h", db=4)
        other = redis.BlockingConnectionPool.from_url("redis://h:6379/5")
        a = redis.Redis(connection_pool=pool)
        b = redis.StrictRedis("h", 6379, 3)
        c = redis.from_url("redis://h:6379/0?socket_timeout=1")
        d = redis.from_url("redis://h:6379?db=6")
        """
    )
    assert [(c.origin.line, c.name, c.args) for c in facts.commands] == [
        (3, "select", (b"4",)),
        (4, "select", (b"5",)),
        (6, "select", (b"3",)),
        (7, "select", (b"0",)),
        (8, "select", (b"6",)),
    ]


def test_annotations_through_aliases_and_strings() -> None:
    assert calls(
        """
        from typing import Optional, Union
        import redis
        RedisClient = redis.Redis
        def f(a: RedisClient, b: Union["Settings", "redis.Redis"], c: Optional["Pipeline"], d: "Settings"):
            a.get("x:1")
            b.get("x:2")
            c.get("x:3")
            d.get("x:4")
        """
    ) == [(6, "get"), (7, "get"), (8, "get")]


def test_the_projects_own_classes_are_not_clients_unless_they_extend_one() -> None:
    assert calls(
        """
        import redis

        class RedisCache:
            def __init__(self, url):
                self._r = redis.Redis.from_url(url)
            def get(self, key):
                return self._r.get(key)

        class Tracing(redis.Redis):
            pass

        cache = RedisCache("redis://x")

        class Service:
            def __init__(self, redis_cache: RedisCache, store):
                self.redis_cache = redis_cache
                self.store = RedisCache("redis://y")
            def f(self, uid):
                self.redis_cache.set(f"user:{uid}", 1)
                self.store.hgetall("user:1")
                cache.keys()
                Tracing().keys()
        """
    ) == [(8, "get"), (23, "keys")]


def test_unpacked_key_lists_and_loop_items_have_templates() -> None:
    facts = extract(
        """
        import redis
        r = redis.Redis()
        def f(device, readings):
            r.delete(*[f"rollup:{device}:{h}" for h in range(24)])
            streams = {f"telemetry:{device}:{day}" for day, _ in readings}
            pipe = r.pipeline(transaction=False)
            for day, reading in readings:
                pipe.xadd(f"telemetry:{device}:{day}", reading)
            for stream in streams:
                pipe.expire(stream, 86400)
            pipe.execute()
        """
    )
    by_method = {c.method: c for c in facts.calls}
    assert [k.pattern for k in by_method["delete"].keys] == [b"rollup:*:*"]
    assert by_method["delete"].batch == 24
    assert [k.pattern for k in by_method["expire"].keys] == [b"telemetry:*:*"]
    assert (by_method["xadd"].expiry, by_method["xadd"].expire_line) == (EXPIRY_SAME_SCOPE, 11)
