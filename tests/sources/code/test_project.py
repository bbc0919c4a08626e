"""Clients created in one module and imported by others are recognised across the project."""

from __future__ import annotations

from pathlib import Path

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.common import settings_for
from rediscipline.settings.loader import Overrides
from rediscipline.sources.code.kinds import CLIENT_KIND
from rediscipline.sources.code.project import ProjectExports, module_name

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
    found = [(f.location.path, f.location.line, f.rule_id) for f in result.report.findings]
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
    found = [(f.location.line, f.rule_id, f.pattern) for f in result.report.findings]
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
    return [(f.location.path, f.location.line, f.rule_id) for f in result.report.findings]


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
