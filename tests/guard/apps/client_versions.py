"""A small application run under the guard with one client library and version (`PYTHONPATH` picks it):
`python client_versions.py redis|valkey HOST PORT` prints one JSON document: the library's version, the
guard's report (rendered as JSON) and checks of the data the guarded calls returned.

It uses each seam the guard wraps: a client's commands and `execute_command` itself, a pipeline, a
transaction, a pub/sub object, their asyncio twins, and the fixes (chunked MGET, pipeline flush, UNLINK).
"""

from __future__ import annotations

import asyncio
import importlib
import io
import json
import sys
from typing import Any

from rediscipline.guard import ConventionViolation, guard, guard_report, new_collector
from rediscipline.render.json_output import render_json

FIXES = {"chunk": 100, "flush": 200, "unlink": True}


def sync_app(library: Any, client_class: Any, host: str, port: int, checks: dict[str, Any]) -> Any:
    r = guard(client_class(host=host, port=port), collector=new_collector("record", isolated=True, fix=FIXES))
    plain = client_class(host=host, port=port)
    keys = [f"user:profile:{i}" for i in range(150)]
    for i, key in enumerate(keys[::2]):
        r.set(key, b"\xff%d" % i, ex=3600 + i)
    r.set("page:html:home", b"<html>")  # seeded: TTL006
    r.keys("session:*")  # seeded: CMD001
    checks["chunked mget"] = r.mget(keys) == plain.mget(keys)  # seeded: BAT001
    r.execute_command("HSET", "cart:items:1", "book", 1)
    r.hgetall("cart:items:1")  # seeded: CMD005
    pipe = r.pipeline(transaction=False)
    for i in range(250):
        pipe.set(f"user:item:{i}", i, ex=600 + i)
    checks["flushed pipeline"] = pipe.execute() == [True] * 250
    with r.pipeline() as transaction:
        for i in range(210):
            transaction.set(f"user:item:{i}", i, ex=600 + i)
        transaction.execute()  # seeded: BAT003
    explicit = r.pipeline(transaction=False)
    explicit.multi()  # seeded: CMD007
    explicit.set("user:item:x", 1, ex=60)
    checks["explicit transaction"] = explicit.execute() == [True]
    checks["unlink"] = r.delete(*keys[:10]) == 5
    pubsub = r.pubsub()
    pubsub.subscribe(*[f"news:channel:{i}" for i in range(80)])  # seeded: PUB002
    pubsub.close()
    refusing = guard(client_class(host=host, port=port), mode="raise", isolated=True)
    try:
        refusing.keys("session:*")
        checks["raise"] = False
    except ConventionViolation:
        checks["raise"] = True
    refusing.close()
    plain.close()
    r.close()
    return r


async def async_app(library: Any, host: str, port: int, checks: dict[str, Any]) -> Any:
    client_class = asyncio_client(library)
    r = guard(client_class(host=host, port=port), collector=new_collector("record", isolated=True, fix=FIXES))
    keys = [f"user:profile:{i}" for i in range(150)]
    await r.set("page:html:async", b"<html>")  # seeded: TTL006
    await r.keys("session:*")  # seeded: CMD001
    got = await r.mget(keys)  # seeded: BAT001
    plain = client_class(host=host, port=port)
    checks["async chunked mget"] = got == await plain.mget(keys) and got[10] == b"\xff5" and got[11] is None
    pipe = r.pipeline(transaction=False)
    for _ in range(250):
        pipe.incr("user:counter:2")  # seeded: TTL006
    checks["async pipeline"] = await pipe.execute() == list(range(1, 251))  # seeded: BAT003
    await r.rpush("queue:jobs:1", "job")
    await r.blpop(["queue:jobs:1"], timeout=0)  # seeded: PUB001
    pubsub = r.pubsub()
    await pubsub.subscribe(*[f"news:channel:{i}" for i in range(80)])  # seeded: PUB002
    await pubsub.unsubscribe()
    await pubsub.aclose()
    await plain.aclose()
    await r.aclose()
    return r


def asyncio_client(library: Any) -> Any:
    module = importlib.import_module(f"{library.__name__}.asyncio")
    return getattr(module, "Valkey", None) or module.Redis


def main() -> None:
    name, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    library = importlib.import_module(name)
    client_class = getattr(library, "Valkey", None) or library.Redis
    checks: dict[str, Any] = {}
    findings: list[list[object]] = []
    fixed: list[list[object]] = []
    for guarded in (
        sync_app(library, client_class, host, port, checks),
        asyncio.run(async_app(library, host, port, checks)),
    ):
        report = guard_report(guarded)
        out = io.StringIO()
        render_json(report, out)
        for finding in json.loads(out.getvalue())["findings"]:
            findings.append([finding["rule"], finding["location"]["path"], finding["location"]["line"]])
        fixed.append([[n.params["fix"], n.params["times"]] for n in report.notes if n.code == "guard-fixed"])
    print(json.dumps({"version": library.__version__, "findings": findings, "fixed": fixed, "checks": checks}))


if __name__ == "__main__":
    main()
