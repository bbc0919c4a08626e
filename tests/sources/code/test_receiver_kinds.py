"""Clients the code shows through types: subclasses of redis-py clients, factories, attributes of classes.

Each test is one module read alone (the project-wide reading is in test_project.py); the calls listed are
exactly those the extractor turns into Redis commands.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.common import settings_for
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
