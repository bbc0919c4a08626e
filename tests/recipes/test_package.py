"""The recipes package as users meet it: its names, sync and asyncio alike, each documented with the convention
it serves, its examples true, and an import that pulls in no optional package and no other part of rediscipline."""

from __future__ import annotations

import doctest
import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rediscipline import recipes
from rediscipline.recipes import aio

ROOT = Path(__file__).resolve().parents[2]
#: The recipes that talk to Redis: each has an asyncio twin of the same name in `aio`.
CALLING = ("set_with_ttl", "chunked_mget", "chunked_mset", "chunked_delete", "progressive_delete")
MODULES = ("chunked", "hot_keys", "progressive", "sharding", "steps", "time_buckets", "ttl", "value_codec", "aio")
#: `000 §热门场景`, `001 §2.1`, `002 §规范三`: a document number and a section.
CITATION = re.compile(r"\b00[0-4] §\S")


def test_the_asyncio_module_has_every_recipe_under_the_same_name() -> None:
    assert set(aio.__all__) == set(recipes.__all__) | {"run_async"}
    for name in CALLING:
        assert inspect.iscoroutinefunction(getattr(aio, name)), name
        sync_params = list(inspect.signature(getattr(recipes, name)).parameters.items())
        async_params = list(inspect.signature(getattr(aio, name)).parameters.items())
        assert [(k, p.kind, p.default) for k, p in async_params] == [(k, p.kind, p.default) for k, p in sync_params]
    for method in ("set", "get", "delete"):
        assert inspect.iscoroutinefunction(getattr(aio.HotKeyReplicas, method))
        assert not inspect.iscoroutinefunction(getattr(recipes.HotKeyReplicas, method))
    for name in set(recipes.__all__) - set(CALLING) - {"HotKeyReplicas"}:
        assert getattr(aio, name) is getattr(recipes, name), name


@pytest.mark.parametrize(
    "name", sorted(set(recipes.__all__) - {"CodecUnavailable", "ProgressiveDelete", "available_algorithms"})
)
def test_every_recipe_names_the_convention_it_serves(name: str) -> None:
    doc = inspect.getdoc(getattr(recipes, name)) or ""
    assert CITATION.search(doc), f"{name}'s docstring cites no convention:\n{doc}"


@pytest.mark.parametrize("module", MODULES)
def test_every_module_says_why(module: str) -> None:
    imported = importlib.import_module(f"rediscipline.recipes.{module}")
    assert imported.__doc__ and len(imported.__doc__) > 200


@pytest.mark.parametrize("module", ["ttl", "time_buckets", "sharding"])
def test_the_examples_in_the_docstrings_hold(module: str) -> None:
    imported = importlib.import_module(f"rediscipline.recipes.{module}")
    failed, attempted = doctest.testmod(imported, verbose=False)
    assert attempted > 0 and failed == 0


IMPORT_PROBE = """
import json, sys
import rediscipline.recipes, rediscipline.recipes.aio
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("zstandard", "cramjam")
                        or m.startswith(("rediscipline.", "rediscipline")) and not m.startswith(
                            ("rediscipline.recipes", "rediscipline.redis_meta")) and m != "rediscipline")))
"""


def test_importing_the_recipes_pulls_in_no_optional_package_and_no_other_layer() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_the_docs_show_every_recipe() -> None:
    text = (ROOT / "docs" / "recipes.md").read_text(encoding="utf-8")
    for name in recipes.__all__:
        assert f"`{name}" in text, name
    assert "rediscipline.recipes import aio" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/recipes.md)" in readme
