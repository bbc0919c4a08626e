"""What a name holds over its bindings: globals set by an initialisation function, command replies, and the
evidence weighed on each binding of a local rather than on the name.

Each test is one module read alone; the calls listed are exactly those the extractor turns into Redis commands.
"""

from __future__ import annotations

import ast
import textwrap

from rediscipline.sources.code.extract import Facts, ModuleExtractor


def extract(source: str) -> Facts:
    text = textwrap.dedent(source)
    return ModuleExtractor(ast.parse(text), "app.py", text.splitlines()).run()


def calls(source: str) -> list[tuple[int, str]]:
    return [(c.origin.line or 0, c.method) for c in extract(source).calls]


def test_a_global_set_to_none_and_assigned_a_client_through_global_is_a_client() -> None:
    assert calls(
        """
        import valkey

        _client = None

        def init(settings):
            global _client
            _client = valkey.StrictValkey(host=settings["host"], db=0)

        def search(query):
            return _client.hgetall(query)

        def names(prefix):
            return _client.keys(prefix + "*")

        def get_client():
            return _client

        def wipe():
            get_client().flushdb()
        """
    ) == [(11, "hgetall"), (14, "keys"), (20, "flushdb")]


def test_a_global_assigned_in_a_method_or_a_nested_function_through_global() -> None:
    assert calls(
        """
        import redis

        conn = None

        class App:
            def start(self):
                def connect():
                    global conn
                    conn = redis.Redis.from_url("redis://cache")
                connect()

        def stats():
            return conn.info()
        """
    ) == [(14, "info")]


def test_annotated_optional_globals_with_or_without_a_value() -> None:
    assert calls(
        """
        from typing import Optional
        import redis

        primary: Optional[redis.Redis] = None
        replica: "redis.Redis | None"

        def setup(factory):
            global primary, replica
            primary = factory()
            replica = factory()

        def read(key):
            replica.get(key)
            return primary.keys(key)
        """
    ) == [(14, "get"), (15, "keys")]


def test_a_class_attribute_initialised_to_none_and_assigned_a_client_in_a_method() -> None:
    assert calls(
        """
        import redis

        class Store:
            client = None

            def connect(self):
                self.client = redis.Redis()

            @classmethod
            def configure(cls):
                cls.admin = redis.Redis(db=0)

            def find(self, pattern):
                return self.client.keys(pattern)

            def wipe(self):
                self.admin.flushall()
        """
    ) == [(15, "keys"), (18, "flushall")]


def test_a_global_that_only_holds_none_and_data_is_no_client() -> None:
    assert (
        calls(
            """
        _cache = None

        def load(source):
            global _cache
            _cache = {}
            for row in source:
                _cache[row.key] = row

        def lookup(key):
            return _cache.get(key)
        """
        )
        == []
    )


def test_a_reassigned_global_is_no_constant_for_key_templates() -> None:
    facts = extract(
        """
        import redis

        r = redis.Redis()
        PREFIX = "app"

        def configure(prefix):
            global PREFIX
            PREFIX = prefix

        def load(uid):
            return r.get(PREFIX + ":" + uid)
        """
    )
    assert [(c.method, [k.pattern for k in c.keys]) for c in facts.calls] == [("get", [b"*:*"])]  # not `app:*`


def test_a_commands_reply_is_data_whatever_it_is_called() -> None:
    assert calls(
        """
        import redis
        import redis.asyncio

        client = redis.Redis()

        def sync_reply(key):
            metadata = client.hgetall(key)
            return metadata.get("context", "")

        async def awaited(r: redis.asyncio.Redis, key):
            async with r.pipeline(transaction=False) as pipe:
                await pipe.watch(key)
                meta = await pipe.hgetall(key)
                pipe.multi()
                return meta.get("context", "")

        def watched(key):
            with client.pipeline() as pipe:
                pipe.watch(key)
                current = pipe.smembers(key)
                redis_state = client.hgetall(key)
                return current.pop(), redis_state.get("x")

        def executed():
            pipe = client.pipeline(transaction=False)
            pipe.get("app:a")
            pipe.get("app:b")
            first, r = pipe.execute()
            return r.get("app:c"), first.get("app:d")
        """
    ) == [
        (8, "hgetall"),
        (13, "watch"),
        (14, "hgetall"),
        (20, "watch"),
        (21, "smembers"),
        (22, "hgetall"),
        (27, "get"),
        (28, "get"),
        (29, "execute"),
    ]  # no `.get` nor `.pop` on a reply


def test_a_queued_command_returns_its_pipeline_chained_bound_or_awaited() -> None:
    facts = extract(
        """
        import redis
        import redis.asyncio

        def f(client: redis.Redis):
            pipe = client.pipeline(transaction=False)
            pipe.hset("app:h", "f", 1).expire("app:h", 60)
            pipe.set("app:a", 1, ex=5).get("app:a")
            pipe.incr("app:n").execute()

        async def retry(r: redis.asyncio.Redis, job_id):
            async with r.pipeline(transaction=True) as pipe:
                pipe = pipe.lrem("app:active", 1, job_id)
                pipe = pipe.zadd("app:incomplete", {job_id: 1})
                await pipe.set(job_id, "x", ex=60).execute()
        """
    )
    assert [(c.origin.line, c.method, c.pipelined) for c in facts.calls] == [
        (7, "hset", True),
        (7, "expire", True),
        (8, "set", True),
        (8, "get", True),
        (9, "incr", True),
        (9, "execute", True),
        (13, "lrem", True),
        (14, "zadd", True),
        (15, "set", True),
        (15, "execute", True),
    ]


def test_evidence_counts_against_the_binding_a_call_is_made_on_not_the_name() -> None:
    """One branch binds `pipe` to a JSON pipeline of a receiver only guessed to be a client (its `get(key,
    path)` does not fit core GET), the other to a real pipeline: the misfit says nothing of the other binding."""
    assert calls(
        """
        class Store:
            def __init__(self, index):
                self._index = index

            def docs(self, ids, as_json):
                if not as_json:
                    with self._index.client.pipeline(transaction=False) as pipe:
                        for i in ids:
                            pipe.hgetall(i)
                        return pipe.execute()
                else:
                    with self._index.client.json().pipeline(transaction=False) as pipe:
                        for i in ids:
                            pipe.get(i, ".")
                        return pipe.execute()
        """
    ) == [(10, "hgetall")]


def test_a_misfit_on_one_binding_still_rejects_that_binding() -> None:
    assert calls(
        """
        def f(cache, redis_conn, key):
            store = cache
            store.set(key, 1, timeout=3)
            store.hgetall(key)
            store = redis_conn
            store.hgetall(key)
        """
    ) == [(7, "hgetall")]
