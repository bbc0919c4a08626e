"""Every ```python example of docs/recipes.md runs against a real server: the page stays true.

The examples run in order in one namespace. A line that makes a client (`client = redis.Redis()`) is
replaced by the test's own client on its own server; an example with `await` runs in a coroutine with an
asyncio client (`aclient`) on the same server, and
what it defines is kept for the next examples. The one key an example expects to exist already (the big
hash `progressive_delete` removes) is made first.
"""

from __future__ import annotations

import asyncio
import re
import textwrap
from pathlib import Path
from typing import Any

import redis

from tests.recipes.oracle import Raw, keys_of
from tests.support.servers import ServerProcess

DOC = Path(__file__).resolve().parents[2] / "docs" / "recipes.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)
MAKES_A_CLIENT = re.compile(r"^a?client = redis\..*$", re.MULTILINE)


def examples() -> list[tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text[: match.start()].count("\n") + 2, match.group(1)) for match in BLOCK.finditer(text)]


def test_there_are_sync_and_asyncio_examples_for_every_recipe() -> None:
    found = examples()
    assert len(found) >= 14
    assert sum("await" in code for _line, code in found) >= 6


def test_every_example_runs(server: ServerProcess, client: redis.Redis, raw: Raw) -> None:
    raw.pipeline([("HSET", b"rank:board:2024", b"player:%d" % i, i) for i in range(500)])
    namespace: dict[str, Any] = {"client": client, "__name__": "docs_recipes"}
    for line, example in examples():
        code = MAKES_A_CLIENT.sub("pass", example)
        if "await" not in code:
            exec(compile("\n" * (line - 1) + code, str(DOC), "exec"), namespace)
            continue
        body = textwrap.indent(code, " " * 8)
        wrapper = (
            "async def _example():\n"
            f"    async with redis.asyncio.Redis(host={server.host!r}, port={server.port}) as aclient:\n"
            f"{body}\n"
            "        globals().update({k: v for k, v in locals().items() if k != 'aclient'})\n"
        )
        namespace.setdefault("redis", redis)
        exec(compile(wrapper, f"{DOC}:{line}", "exec"), namespace)
        asyncio.run(namespace["_example"]())
    left = keys_of(raw)
    assert b"article:body:42" in left and b"live:goods:1001" in left
    assert raw.call("TTL", b"live:goods:1001") > 0
