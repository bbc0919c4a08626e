"""Clients created in one module and imported by others are recognised across the project."""

from __future__ import annotations

from pathlib import Path

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.defaults import settings_for
from rediscipline.settings.loader import Overrides
from rediscipline.sources.code.files import SourceFile
from rediscipline.sources.code.kinds import CLIENT_KIND
from rediscipline.sources.code.project import ProjectExports, module_name
from rediscipline.sources.code.source import ParsedFile, parse_python, read_project

EXTENSIONS = """\
import redis
cache = redis.StrictRedis()
def get_client():
    return cache
"""
VIEWS = """\
from .extensions import cache, get_client
from shop.extensions import cache as store
import os

def view(uid):
    cache.set(f"user:{uid}:name", "x")
    get_client().keys("user:*")
    store.set("user:1:age", 3)
    os.unlink("/tmp/x")
    data = dict()
    data.get("user:1")
"""


def test_imported_clients_and_factories(tmp_path: Path) -> None:
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "extensions.py").write_text(EXTENSIONS)
    (tmp_path / "shop" / "views.py").write_text(VIEWS)
    settings = settings_for(Overrides(isolated=True, select=("TTL006", "CMD001")))
    result = check_code(CodeCheckOptions((str(tmp_path),)), settings, root=tmp_path)
    found = sorted((f.location.path, f.location.line, f.rule_id) for f in result.report.findings)
    assert found == [("shop/views.py", 6, "TTL006"), ("shop/views.py", 7, "CMD001"), ("shop/views.py", 8, "TTL006")]


def test_module_names_and_relative_imports() -> None:
    assert module_name("shop/extensions.py") == "shop.extensions"
    assert module_name("shop/__init__.py") == "shop"
    exports = ProjectExports(globals={"app.shop.extensions": {"cache": CLIENT_KIND}})
    assert exports.resolve("app.shop.views", "extensions", 1) == "app.shop.extensions"
    assert exports.resolve("app.shop.sub.views", None, 2) == "app.shop"
    assert exports.resolve("scripts.job", "shop.extensions", 0) == "app.shop.extensions"  # a shorter root
    assert exports.exported("app.shop.extensions", "cache") == "client"
    assert exports.exported("app.shop.extensions", "other") is None


def test_definitions_inline_their_own_constants() -> None:
    import ast

    from rediscipline.sources.code.definitions import module_definitions

    tree = ast.parse(
        'APP = "shop"\nPREFIX = APP + ":cart"\nTTL = 3600\nclient = make()\n'
        'def cart_key(uid):\n    """The cart hash."""\n    return f"{PREFIX}:{uid}"\n'
        "def complex(x):\n    y = x\n    return y\n"
    )
    found = module_definitions(tree)
    assert sorted(found.constants) == ["APP", "PREFIX", "TTL"]  # `client = make()` is an object, not a constant
    assert ast.unparse(found.constants["PREFIX"]) == "'shop' + ':cart'"
    assert list(found.builders) == ["cart_key"]
    assert ast.unparse(found.builders["cart_key"].body[0]) == "return f\"{'shop' + ':cart'}:{uid}\""


def test_imported_key_builders_and_ttl_constants(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "keys.py").write_text(
        'PREFIX = "User"\nCART_TTL = 3600\ndef profile_key(uid):\n    return f"{PREFIX}:{uid}:profile"\n'
    )
    (tmp_path / "app" / "views.py").write_text(
        "import redis\nfrom app import keys\nfrom app.keys import CART_TTL, profile_key\nr = redis.Redis()\n"
        "def f(uid):\n    r.set(profile_key(uid), 1, ex=CART_TTL)\n"
        "    for i in range(500):\n        r.expire(keys.profile_key(i), keys.CART_TTL)\n"
    )
    settings = settings_for(Overrides(isolated=True, select=("KEY006", "TTL007")))
    result = check_code(CodeCheckOptions((str(tmp_path),)), settings, root=tmp_path)
    found = sorted(
        (place.line, f.rule_id, f.pattern) for f in result.report.findings for place in (f.location, *f.related)
    )
    assert found == [
        (6, "KEY006", b"User:*:profile"),
        (8, "KEY006", b"User:*:profile"),
        (8, "TTL007", b"User:*:profile"),
    ]


def _check(root: Path, files: dict[str, str], select: tuple[str, ...]) -> list[tuple[str | None, int | None, str]]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    settings = settings_for(Overrides(isolated=True, select=select))
    result = check_code(CodeCheckOptions((str(root),)), settings, root=root)
    return sorted((f.location.path or "", f.location.line or 0, f.rule_id) for f in result.report.findings)


def test_classes_subclasses_and_attributes_followed_across_modules(tmp_path: Path) -> None:
    found = _check(
        tmp_path,
        {
            "tq/__init__.py": "from .conn import TaskRedis\nfrom .broker import Broker\n",
            "tq/conn.py": "import redis\n\nclass TaskRedis(redis.Redis):\n    def purge(self, prefix):\n"
            "        return self.keys(prefix + '*')\n",
            "tq/broker.py": "from .conn import TaskRedis\n\nclass Broker:\n    def __init__(self, url):\n"
            "        self.connection = TaskRedis.from_url(url)\n\ndef make_broker():\n    return Broker('redis://h')\n",
            # no trace of Redis in the text: read because it imports what leads to a client
            "app/jobs.py": "from tq import Broker, TaskRedis\nfrom tq.broker import make_broker\n\n"
            "def reset(conn: TaskRedis, broker: Broker):\n    conn.flushall()\n    broker.connection.flushdb()\n"
            "    make_broker().connection.keys('job:*')\n",
        },
        ("CMD001", "CMD002"),
    )
    assert found == [
        ("app/jobs.py", 5, "CMD002"),
        ("app/jobs.py", 6, "CMD002"),
        ("app/jobs.py", 7, "CMD001"),
        ("tq/conn.py", 5, "CMD001"),
    ]


def test_one_receiver_gets_one_verdict_in_every_module(tmp_path: Path) -> None:
    found = _check(
        tmp_path,
        {
            "shop/__init__.py": "",
            # a wrapper created by a factory from outside the run: only its uses tell what it is
            "shop/ext.py": "from vendor import make_store\n\nstore = make_store()\ncache = make_store()\n",
            "shop/a.py": "from .ext import store, cache\n\ndef f():\n    store.hgetall('user:1')\n"
            "    cache.hgetall('user:1')\n",
            "shop/b.py": "from shop.ext import store, cache\n\ndef g():\n    store.delete('user:1')\n"
            "    cache.sadd('tags:all', 'a', version=2)\n",
            # Django's cache is never a client, whatever another module calls on a `cache`
            "shop/c.py": "from django.core.cache import cache\n\ndef h():\n    cache.hgetall('user:1')\n",
        },
        ("CMD005", "CMD008", "TTL006"),
    )
    assert found == [("shop/a.py", 4, "CMD005")]  # `store`: its DEL in b.py is not a collection rule hit


def test_functions_of_a_project_module_are_not_commands(tmp_path: Path) -> None:
    found = _check(
        tmp_path,
        {
            "tests/__init__.py": "",
            "tests/fixtures.py": "import redis\n\ndef rpush(key, value, connection_kwargs):\n"
            "    redis.Redis(**connection_kwargs).rpush(key, value)\n",
            "tests/test_jobs.py": "from tests import fixtures\n\ndef test_job():\n"
            "    fixtures.rpush('queue:jobs', 'x', {})\n    fixtures.hgetall('user:1')\n",
        },
        ("TTL006", "CMD005"),
    )
    assert found == [("tests/fixtures.py", 4, "TTL006")]


def test_type_aliases_resolve_across_the_project_whatever_the_package_is_called(tmp_path: Path) -> None:
    """A package named like a Redis relative (`fakeredis`, `myredis`) that is the project being checked is
    read like any other project package: its aliases name clients in modules that never import redis-py."""
    for package in ("fakeredis", "myredis", "kvstore"):
        found = _check(
            tmp_path / package,
            {
                f"{package}/__init__.py": "",
                f"{package}/_typing.py": "from typing import Union\nimport redis\nimport redis.asyncio\n"
                "ClientType = Union[redis.Redis, redis.asyncio.Redis]\nPlain = redis.Redis\n"
                "Clients = list[redis.Redis]\n",
                "test/test_min.py": f"from {package}._typing import ClientType, Plain, Clients\n"
                f"from {package} import _typing\n\n"
                "def test_x(conn: ClientType, other: Plain, more: _typing.ClientType, pool: Clients):\n"
                "    conn.keys('*')\n    other.keys('*')\n    more.keys('*')\n"
                "    pool.count(1)\n    pool[0].keys('*')\n",
            },
            ("CMD001",),
        )
        assert found == [("test/test_min.py", line, "CMD001") for line in (5, 6, 7, 9)], package


def test_what_a_constructor_is_given_is_followed_into_the_instance(tmp_path: Path) -> None:
    found = _check(
        tmp_path,
        {
            "crawl/__init__.py": "",
            # nothing in this module names Redis: it is read because the scheduler builds its class with a client
            "crawl/limits.py": "class Limit:\n    def __init__(self, server, prefix):\n        self.server = server\n\n"
            "    def reset(self):\n        self.server.flushdb()\n",
            "crawl/scheduler.py": "import redis\nfrom crawl.limits import Limit\n\nclass Scheduler:\n"
            "    def __init__(self, server):\n        self.conn = server\n\n    @classmethod\n"
            "    def from_settings(cls, settings):\n        return cls(redis.Redis(host=settings['host']))\n\n"
            "    def open(self):\n        self.limit = Limit(self.conn, prefix='crawl')\n",
            "crawl/cache.py": "import redis\n\nclass Base:\n    def __init__(self, client, timeout=60):\n"
            "        self._read = self._write = client\n\nclass Cache(Base):\n    def __init__(self, port):\n"
            "        super().__init__(redis.Redis(port=port))\n\nclass Other(Base):\n    pass\n\n"
            "def test_cache():\n    Cache(6390)._write.flushall()\n",
            # a class built with a client in one place and with something else in another is not followed
            "crawl/mixed.py": "import redis\nfrom unittest import mock\n\nclass Holder:\n"
            "    def __init__(self, store):\n        self.store = store\n\n    def wipe(self):\n"
            "        self.store.flushdb()\n\nHolder(redis.Redis())\nHolder(mock.MagicMock())\n"
            "class Either:\n    def __init__(self, store):\n        self.store = store\n\n    def wipe(self):\n"
            "        self.store.flushdb()\n\nEither(redis.Redis())\nEither(Holder(None))\n",
        },
        ("CMD002",),
    )
    assert found == [
        ("crawl/cache.py", 15, "CMD002"),
        ("crawl/limits.py", 6, "CMD002"),
        ("crawl/mixed.py", 9, "CMD002"),  # a test double does not count against the client
    ]


def test_what_the_runs_calls_pass_to_a_function_or_method_is_followed_into_it(tmp_path: Path) -> None:
    found = _check(
        tmp_path,
        {
            "jobs/__init__.py": "",
            # nothing in this module names Redis: it is read because the tests call its functions with a client
            "jobs/helpers.py": "def fill(conn, n):\n    conn.set('jobs:seed', n)\n\n\ndef wipe(conn):\n"
            "    conn.flushdb()\n\n\ndef either(store):\n    store.flushdb()\n",
            "jobs/test_jobs.py": "import fakeredis\nimport redis\nfrom unittest import mock\n\n"
            "from jobs import helpers\nfrom jobs.helpers import either, fill\n\n\nclass Cache:\n"
            "    def flushdb(self):\n        pass\n\n\nclass TestJobs:\n    def setup_method(self):\n"
            "        self.client = fakeredis.FakeStrictRedis()\n\n    @staticmethod\n    def operations(client):\n"
            "        client.set('jobs:a', 'bad')\n\n    def _scan(self, conn):\n        return conn.keys('jobs:*')\n\n"
            "    def test_one(self):\n        local = fakeredis.FakeStrictRedis()\n        self.operations(local)\n"
            "        self.operations(self.client)\n        self._scan(self.client)\n        fill(self.client, 3)\n"
            "        helpers.wipe(redis.Redis())\n        helpers.wipe(mock.MagicMock())\n"
            "        either(redis.Redis())\n        either(Cache())\n",
        },
        ("CMD001", "CMD002", "TTL006"),
    )
    assert found == [
        ("jobs/helpers.py", 2, "TTL006"),
        ("jobs/helpers.py", 6, "CMD002"),  # a test double does not count against the client
        ("jobs/test_jobs.py", 20, "TTL006"),  # a static method given a client by every call
        ("jobs/test_jobs.py", 23, "CMD001"),
    ]  # `either` is given a client in one place and a cache of the project in another: not followed


def test_a_function_given_an_object_that_holds_a_client_is_read_through_it(tmp_path: Path) -> None:
    found = _check(
        tmp_path,
        {
            "jobs/__init__.py": "",
            "jobs/store.py": "import redis\n\n\nclass Store:\n    def __init__(self):\n"
            "        self.conn = redis.Redis()\n",
            # nothing here names Redis: the module is read because `seed` is given a `Store`, which holds a client
            "jobs/util.py": "def seed(store):\n    store.conn.set('jobs:seed', 1)\n\n\ndef label(tag):\n"
            "    tag.set('jobs:label', 1)\n",
            "jobs/main.py": "import redis\n\nfrom jobs.store import Store\nfrom jobs.util import label, seed\n\n"
            "seed(Store())\nlabel(Store())\nredis.Redis().ping()\n",
        },
        ("TTL006",),
    )
    assert found == [("jobs/util.py", 2, "TTL006")]  # `tag.set` is a method of `Store`, not of its client


def test_only_objects_the_project_shows_holding_a_client_make_a_functions_module_read(tmp_path: Path) -> None:
    """A class with a base of another package may hold anything: built with one, a class's module is read, but
    a function given one is not (most code passes such objects around, and reading is not free)."""
    texts = {
        "jobs/__init__.py": "",
        "jobs/store.py": "import redis\nfrom ctypes import Structure\n\n\nclass Plain(Structure):\n    pass\n\n\n"
        "class Holder:\n    def __init__(self):\n        self.conn = redis.Redis()\n",
        "jobs/given_holder.py": "def seed(store):\n    return store\n",
        "jobs/given_plain.py": "def seed(store):\n    return store\n",
        "jobs/built_with_plain.py": "class Job:\n    def __init__(self, store):\n        self.store = store\n",
        "jobs/main.py": "import redis\n\nfrom jobs import given_holder, given_plain\n"
        "from jobs.built_with_plain import Job\nfrom jobs.store import Holder, Plain\n\n"
        "given_holder.seed(Holder())\ngiven_plain.seed(Plain())\nJob(Plain())\nredis.Redis().ping()\n",
    }
    parsed: list[ParsedFile] = []
    for name, text in texts.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        read = parse_python(SourceFile(path, name))
        assert isinstance(read, ParsedFile)
        parsed.append(read)
    _project, _declarations, forced = read_project(parsed)
    assert sorted(forced) == ["jobs/built_with_plain.py", "jobs/given_holder.py"]
