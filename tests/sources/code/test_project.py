"""Clients created in one module and imported by others are recognised across the project."""

from __future__ import annotations

from pathlib import Path

from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.api.common import settings_for
from rediscipline.settings.loader import Overrides
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
    exports = ProjectExports(clients={"app.shop.extensions": {"cache"}})
    assert exports.resolve("app.shop.views", "extensions", 1) == "app.shop.extensions"
    assert exports.resolve("app.shop.sub.views", None, 2) == "app.shop"
    assert exports.resolve("scripts.job", "shop.extensions", 0) == "app.shop.extensions"  # a shorter root
    assert exports.exported("app.shop.extensions", "cache") == "client"
    assert exports.exported("app.shop.extensions", "other") is None
