"""The live-scan report (server line, score, keyspace tables, server and command findings, sampling
estimates) rendered from synthetic facts through the real engine, compared with snapshots (with the rules
they were recorded with, `tests.support.catalog`)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from rediscipline.api.defaults import settings_for
from rediscipline.api.driver import run
from rediscipline.model.facts import EVIDENCE_COMMANDSTATS, EVIDENCE_SLOWLOG, VANISHED, CommandFact, KeyFact, KeySample
from rediscipline.model.location import Location
from rediscipline.model.report import Report, ServerSummary
from rediscipline.model.server import ServerFact
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.render import RENDERERS
from rediscipline.rules import default_registry
from rediscipline.settings.loader import Overrides
from tests.render.test_snapshots import _check
from tests.support.catalog import later_rules
from tests.support.sources import FactSource

ADDRESS = "redis://127.0.0.1:6379"
NOW_MS = 1_795_000_000_000


def _server(origin: Location) -> ServerFact:
    return ServerFact(
        origin=origin,
        info={
            "redis_version": "7.0.15",
            "role": "master",
            "used_memory": "1048576",
            "total_system_memory": "8589934592",
        },
        config={"maxmemory": "0", "maxmemory-policy": "noeviction", "lazyfree-lazy-expire": "no", "hz": "10"},
        keyspace={0: 400, 2: 1},
        expires={0: 300},
        commandstats={"keys": 2, "get": 100},
        acl_users=("user default on nopass ~* &* +@all",),
        user="default",
        callable={"keys": True, "flushall": False},
    )


def _report(sampled: bool) -> Report:
    registry = default_registry()
    settings = settings_for(Overrides(isolated=True, ignore=later_rules(registry)), registry)
    origin = Location("live", ADDRESS, db=0)
    facts: list[Fact] = [_server(origin)]
    if sampled:
        facts.append(KeySample(0.5, 802))
    facts += [
        CommandFact("keys", origin, EVIDENCE_COMMANDSTATS, None, 2),
        CommandFact("hgetall", origin, EVIDENCE_SLOWLOG, (b"cart:\xff:1",), 1, 25_000),
    ]
    for index in range(300):
        jitter = (index * 7919) % 600_000
        facts.append(
            KeyFact(
                b"cache:item:%d" % index,
                origin,
                0,
                "string",
                3_600_000,
                80,
                12,
                "embstr",
                expire_at_ms=NOW_MS + 3_600_000 + jitter,
                head=b"hello world!",
            )
        )
    for index in range(100):
        facts.append(KeyFact(b"User Name %d" % index, origin, 0, "hash", -1, 300, 3, "listpack"))
    facts.append(KeyFact(b"rank:global", origin, 0, "zset", -1, 900_000, 8_000, "skiplist"))
    facts.append(
        KeyFact(b"blob:\x1b[31m:1", origin, 2, "string", -1, 20_560, 20_480, "raw", head=b"\xac\xed\x00\x05sr")
    )
    facts.append(VANISHED)
    summary = ServerSummary(
        ADDRESS,
        "redis",
        "7.0.15",
        "master",
        1_048_576,
        0,
        "noeviction",
        ((0, 400), (2, 1)),
        (("CLIENT NO-TOUCH", "ERR unknown subcommand"),),
    )
    source = FactSource("live", facts, SourceOutcome(server=summary), inputs=(ADDRESS,))
    report = run([source], settings, command="scan", registry=registry)
    return replace(report, stats=replace(report.stats, elapsed_seconds=0.0))


@pytest.mark.parametrize(
    ("fmt", "lang", "sampled"),
    [("text", "en", False), ("text", "zh", False), ("json", "en", False), ("text", "en", True)],
)
def test_live_snapshot(fmt: str, lang: str, sampled: bool) -> None:
    out = io.StringIO()
    RENDERERS[fmt](_report(sampled), out, lang, False)
    suffix = "txt" if fmt == "text" else "json"
    _check(f"live{'-sampled' if sampled else ''}.{lang}.{suffix}", out.getvalue())
