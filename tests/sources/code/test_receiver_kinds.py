"""Clients the code shows through types: subclasses of redis-py clients, factories, attributes of classes.

Each test is one module read alone (the project-wide reading is in test_project.py); the calls listed are
exactly those the extractor turns into Redis commands.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.defaults import settings_for
from rediscipline.settings.loader import Overrides
from rediscipline.sources.code.extract import Facts, ModuleExtractor


def extract(source: str) -> Facts:
    text = textwrap.dedent(source)
    return ModuleExtractor(ast.parse(text), "app.py", text.splitlines()).run()


def calls(source: str) -> list[tuple[int, str]]:
    return [(c.origin.line or 0, c.method) for c in extract(source).calls]


def test_a_subclass_of_a_client_is_a_client_inside_and_out() -> None:
    assert calls(
        """
        import redis
        import redis.asyncio

        class JobRedis(redis.asyncio.Redis):
            async def all_results(self, prefix):
                keys = await self.keys(prefix + "*")
                return await self.mget(keys)
            async def delete(self, *names):
                return len(names)
            async def purge(self):
                await self.delete("job:1")
                await super().flushall()

        class Traced(JobRedis):
            pass

        async def f(arq: JobRedis, job_id):
            await arq.set(f"job:{job_id}", 1)
            await arq.delete("job:1")
            await Traced(host="h").hgetall("job:1")
        """
    ) == [(7, "keys"), (8, "mget"), (13, "flushall"), (19, "set"), (21, "hgetall")]  # `delete` is its own


def test_factories_annotated_to_return_a_client_or_a_subclass_also_async() -> None:
    assert calls(
        """
        import redis.asyncio as aioredis

        class Pool(aioredis.Redis):
            pass

        async def create_pool(url) -> Pool:
            return Pool.from_url(url)

        async def connect():
            return aioredis.from_url("redis://h")

        async def f():
            pool = await create_pool("redis://h")
            await pool.keys("*")
            conn = await connect()
            await conn.flushdb()
        """
    ) == [(15, "keys"), (17, "flushdb")]


def test_clients_reached_through_attributes_of_the_projects_classes() -> None:
    assert calls(
        """
        import redis

        class Broker:
            def __init__(self, client: redis.Redis | None = None):
                self.client = client or redis.Redis()

        class Tiger:
            def __init__(self):
                self.connection: redis.Redis = redis.Redis()
                self.scripts = Scripts(self.connection)

        class Scripts:
            def __init__(self, conn):
                self._conn = conn
            def zadd(self, key, score, member, mode):
                return None

        def get_tiger():
            tiger = Tiger()
            return tiger

        class TestSemaphore:
            def setup_method(self):
                self.tiger = get_tiger()
                self.conn = self.tiger.connection
                self.conn.flushdb()
            def test_scripts(self):
                self.tiger.scripts.zadd("z", 1, "a", mode="nx")
                self.conn.zadd("z", {"a": 1})

        def conftest():
            broker = Broker()
            broker.client.flushall()
        """
    ) == [(27, "flushdb"), (30, "zadd"), (34, "flushall")]


def test_accessors_of_well_known_libraries() -> None:
    assert calls(
        """
        from django.core.cache import cache
        from django_rq import get_queue
        from rq import Queue
        from testcontainers.redis import RedisContainer

        def f(redis_conn):
            cache.client.get_client(write=False).keys("*")
            cache.keys("user:*")
            get_queue("default").connection.flushdb()
            q = Queue(connection=redis_conn)
            q.connection.pipeline().set("job:1", 1).execute()
            with RedisContainer() as container:
                container.get_client().flushall()
        """
    ) == [(8, "keys"), (10, "flushdb"), (12, "set"), (12, "execute"), (14, "flushall")]


def test_pytest_fixtures_give_their_values_kind(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(
        textwrap.dedent(
            """
            import pytest
            import redis
            from glide import GlideClient

            @pytest.fixture
            def store():
                client = redis.Redis()
                yield client

            @pytest.fixture
            async def glide_client(config):
                return await GlideClient.create(config)
            """
        )
    )
    (tmp_path / "tests" / "test_cache.py").write_text(
        textwrap.dedent(
            """
            def test_store(store):
                store.set("user:1", 1)

            async def test_glide(glide_client):
                await glide_client.hset("user:1", {"a": 1})
            """
        )
    )
    settings = settings_for(Overrides(isolated=True, select=("TTL006",)))
    result = check_code(CodeCheckOptions((str(tmp_path),)), settings, root=tmp_path)
    found = [(f.location.path, f.location.line, f.rule_id) for f in result.report.findings]
    assert found == [("tests/test_cache.py", 3, "TTL006")]


def test_containers_of_clients_give_clients_as_items_and_are_not_clients() -> None:
    assert calls(
        """
        from typing import Optional, Sequence
        import redis

        class Pool:
            def __init__(self):
                self._clients: list[redis.Redis] = []
                self.by_role: dict[str, "redis.Redis"] = {}
                self.main: Optional[redis.Redis] = None

            def add(self, role, conn):
                self._clients.append(conn)
                self.by_role[role] = conn
                self._clients[0].keys("a:*")
                for c in self._clients:
                    c.flushdb()
                for role in self.by_role:
                    role.append("x")
                for c in self.by_role.values():
                    c.flushall()
                self.by_role.get("eu").keys("b:*")
                self.main.keys("c:*")

        def f(replicas: Sequence[redis.Redis], names: list[str]):
            replicas.count(1)
            names.append("x")
            replicas[1:][0].type("k")
        """
    ) == [(14, "keys"), (16, "flushdb"), (20, "flushall"), (21, "keys"), (22, "keys"), (27, "type")]


def test_factories_classes_and_casts_give_clients() -> None:
    assert calls(
        """
        from typing import Callable, cast
        import redis
        import redis.asyncio

        def client_class(use_asyncio) -> type[redis.Redis]:
            return redis.asyncio.Redis if use_asyncio else redis.Redis

        def f(make: Callable[..., redis.Redis], raw, other: Callable[[], int]):
            make(db=2).flushall()
            cls = client_class(False)
            cls(db=1).flushdb()
            conn = cast(redis.Redis, raw)
            conn.keys("a:*")
            cast("redis.Redis", raw).keys("b:*")
            other().keys()
        """
    ) == [(10, "flushall"), (12, "flushdb"), (14, "keys"), (15, "keys")]


def test_methods_come_from_every_base_class_in_order() -> None:
    """`_watch` comes from the second base: the first is an ABC, a class of another package that is only
    assumed to have any method, so a definition the project shows is preferred."""
    facts = extract(
        """
        import abc
        import contextlib
        from collections.abc import Iterator
        import redis
        from redis.client import Pipeline

        class Container:
            def __init__(self, client: redis.Redis):
                self.redis = client

            @contextlib.contextmanager
            def _watch(self, key) -> Iterator[Pipeline]:
                with self.redis.pipeline() as pipe:
                    pipe.watch(key)
                    yield pipe

        class FilterABC(abc.ABC):
            pass

        class Bloom(FilterABC, Container):
            def add(self, key):
                with self._watch(key) as pipe:
                    pipe.multi()
                    pipe.setbit(key, 1, 1)
        """
    )
    assert [(c.origin.line, c.method) for c in facts.calls] == [(15, "watch"), (25, "setbit")]
    assert [(c.origin.line, c.name) for c in facts.commands if c.name == "multi"] == [(24, "multi")]


def test_valkey_py_clients_are_clients() -> None:
    """valkey-py is a fork of redis-py with the same API; valkey-glide is another client (not read)."""
    assert calls(
        """
        import valkey
        from valkey import Valkey
        import valkey.asyncio as avk
        from glide import GlideClient

        async def f(conn: valkey.Valkey, url, glide: GlideClient):
            conn.keys("a:*")
            Valkey(db=2).flushall()
            valkey.Valkey.from_url(url).flushdb()
            await avk.Valkey().keys("b:*")
            await glide.keys("c:*")
        """
    ) == [(8, "keys"), (9, "flushall"), (10, "flushdb"), (11, "keys")]


def test_a_class_attribute_annotated_as_a_client_class_makes_clients() -> None:
    assert calls(
        """
        from typing import Type
        import redis

        class Store:
            client_class: Type[redis.Redis] = redis.Redis

            def connect(self, url):
                self.client_class.from_url(url).keys("a:*")
                self.client_class(db=4).flushdb()
                self.client_class.keys("b:*")
        """
    ) == [(9, "keys"), (10, "flushdb")]


def test_a_fixture_parametrized_with_classes_builds_their_common_class() -> None:
    assert calls(
        """
        import pytest
        import redis
        import fakeredis

        class Cache:
            def __init__(self, port):
                self.client = redis.Redis(port=port)

        class QuietCache(Cache):
            pass

        class Other:
            pass

        @pytest.fixture(params=[Cache, pytest.param(QuietCache, marks=pytest.mark.slow)])
        def cache(request):
            made = request.param(6390)
            made.client.flushdb()
            return made

        @pytest.fixture(params=[redis.Redis, fakeredis.FakeRedis])
        def conn(request):
            kind = request.param
            kind().flushall()

        @pytest.fixture(params=[Cache, Other])
        def mixed(request):
            request.param(6390).client.flushdb()
        """
    ) == [(19, "flushdb"), (25, "flushall")]
