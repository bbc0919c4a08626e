"""Receivers judged by the evidence on each of them: signatures that do not fit redis-py, foreign objects.

A receiver the code does not show to be a client is taken for one only on weak signals (its name, methods
only Redis has); a call whose arguments cannot bind to redis-py's method of that name shows it is
something else, and that verdict holds for every use of the same receiver and for no other receiver.
"""

from __future__ import annotations

import ast
import textwrap

from rediscipline.redis_meta.methods import METHODS
from rediscipline.sources.code.calls import fits
from rediscipline.sources.code.evidence import collect
from rediscipline.sources.code.extract import Facts, ModuleExtractor


def extract(source: str) -> Facts:
    text = textwrap.dedent(source)
    return ModuleExtractor(ast.parse(text), "app.py", text.splitlines()).run()


def calls(source: str) -> list[tuple[int, str]]:
    return [(c.origin.line or 0, c.method) for c in extract(source).calls]


def fit(code: str) -> bool:
    call = ast.parse(code, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    return fits(call, METHODS[call.func.attr])


def test_arguments_that_fit_redis_py_signatures() -> None:
    assert fit("r.set('k', 'v', ex=60, nx=True)")
    assert fit("r.set('k', 'v', 60)")  # ex given by position
    assert fit("r.touch('a', 'b', 'c')")  # *args
    assert fit("r.keys('a:*', target_nodes=x)")  # **kwargs
    assert fit("r.hset('k', mapping=m)")
    assert fit("r.set(*args)") and fit("r.set(**options)")  # unpacked: anything may be there
    assert fit("r.zadd('k', {'m': 1}, xx=True)")


def test_arguments_that_do_not_fit() -> None:
    assert not fit("cache.set('k', 'v', timeout=3)")  # no such keyword
    assert not fit("cache.get('k', None)")  # GET takes one key
    assert not fit("cache.sadd('k', 'v', version=2)")
    assert not fit("scripts.zadd('z', 4, 'key1', mode='nx')")
    assert not fit("cache.set('k')")  # SET needs a value
    assert not fit("r.get('k', name='k')")  # the same parameter twice
    assert not fit("glide.blpop('a', 'b', 0)")  # BLPOP takes the keys as one list


def test_identities_name_the_same_object_the_same_way() -> None:
    tree = ast.parse(
        textwrap.dedent(
            """
            from .ext import store
            import redis
            r = redis.Redis()
            class Base:
                def a(self):
                    self.db.hgetall("k")
            class Child(Base):
                def b(self):
                    self.db.hgetall("k")
            def f(conn, items):
                store.hgetall("k")
                c = conn
                c.hgetall("k")
                with open_client() as client:
                    client.hgetall("k")
                for item in items.values():
                    item.hgetall("k")
                r.hgetall("k")
            """
        )
    )
    receivers = collect(tree, "pkg.app", {"store": "pkg.ext.store", "redis": "redis"})
    named = sorted(set(receivers.ids.values()))
    assert named == [
        "G:pkg.app.open_client()",  # `with open_client() as client`
        "G:pkg.app.r",
        "G:pkg.ext.store",  # the same in every module that imports it
        "G:redis",  # `redis.Redis()`
        "P:pkg.app:conn",  # `c = conn` is the parameter; parameters are shared by the module's functions
        "P:pkg.app:items",  # `items.values()`
        "P:pkg.app:items.values()[]",  # an element of what the loop walks
        "S:pkg.app:Base.db",  # a class and its subclasses share their attributes
    ]
    assert receivers.evidence["S:pkg.app:Base.db"].fitting == 2


def test_a_misfit_call_outweighs_the_redis_only_methods_of_the_same_receiver() -> None:
    assert calls(
        """
        def test_backend(cache):
            cache.set("user:1", 1, timeout=3)
            cache.sadd("tags:all", "a")
            cache.touch("user:1", 0)
        def test_other(store, conn):
            store.sadd("tags:all", "a")
            store.delete("tags:all")
            conn.zadd("rank:all", {"a": 1})
            conn.get("rank:all", None)
        """
    ) == [(7, "sadd"), (8, "delete")]  # only `store`, whose calls all fit


def test_evidence_is_per_receiver_not_per_module() -> None:
    assert calls(
        """
        class Scripts:
            def zadd(self, key, score, member, mode): ...
        class Worker:
            def __init__(self, conn, scripts):
                self.conn = conn
                self.scripts = scripts
            def run(self, key):
                self.conn.zadd(key, {"a": 1})
                self.scripts.zadd(key, 1, "a", mode="nx")
                self.scripts.zadd(key, 2, "b", mode="xx")
                self.conn.delete(key)
        """
    ) == [(9, "zadd"), (12, "delete")]


def test_objects_known_to_be_foreign_are_never_clients() -> None:
    assert (
        calls(
            """
        from unittest import mock
        from unittest.mock import MagicMock
        from django.core.cache import cache, caches
        from glide import GlideClient
        import memcache
        import requests

        async def f(config, mock_redis, redis_mock):
            cache.zadd("rank:all", {"a": 1})
            caches["default"].hgetall("user:1")
            client = await GlideClient.create(config)
            await client.hgetall("user:1")
            fake = MagicMock()
            fake.hgetall("user:1")
            patched = mock.patch("app.redis_client").start()
            mock_redis.hgetall("user:1")
            redis_mock.get("user:1")
            mc = memcache.Client(["127.0.0.1:11211"])
            mc.incr("user:1")
            r = requests.get("http://x").json()
            r.get("results")
            for r in r.get("items", []):
                r.get("name")
        """
        )
        == []
    )


def test_a_name_says_redis_only_when_it_is_not_an_item() -> None:
    assert calls(
        """
        import redis
        primary = redis.Redis()
        replica = redis.Redis(port=6380)
        def f(r, rows):
            r.get("user:1")
            for r in rows:
                r.get("name")
            for r in ("user:1", "user:2"):
                r.get("name")
            for node in (primary, replica):
                node.flushdb()
        """
    ) == [(6, "get"), (12, "flushdb")]


def test_a_call_result_used_as_a_client_is_weighed_over_its_uses() -> None:
    assert calls(
        """
        class Model:
            @classmethod
            def db(cls):
                return cls._meta.database
            @classmethod
            def all_keys(cls):
                return cls.db().scan_iter("model:*")
            @classmethod
            def load(cls, pk):
                return cls.db().hgetall(pk)
            @classmethod
            def cached(cls, pk):
                return cls.cache().get(pk, None)
            @classmethod
            def cached_hash(cls, pk):
                return cls.cache().hgetall(pk)
        """
    ) == [(8, "scan_iter"), (11, "hgetall")]
