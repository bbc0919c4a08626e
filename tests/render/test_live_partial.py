"""A live report that covers less than the server holds says so in its header, in every format: the partial
marks, a continuation, one node of a cluster, the keys the user may not read (snapshots)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from rediscipline.model.report import PatternStat, Report, UnreadableKeys
from rediscipline.render import RENDERERS
from tests.render.test_live_snapshot import _report
from tests.render.test_snapshots import _check


def _partial() -> Report:
    report = _report(False)
    assert report.stats.server is not None
    server = replace(
        report.stats.server,
        resumed_from="0:1536",
        partial=("resumed", "unreadable-keys", "other-shards"),
        unreadable=UnreadableKeys(40, (PatternStat(b"session:*", 25), PatternStat(b"bin:\xff:*", 15)), ("VAL001",)),
        cluster_masters=3,
        dbs_at_end=((0, 380),),
    )
    return replace(report, stats=replace(report.stats, server=server))


@pytest.mark.parametrize(("fmt", "lang"), [("text", "en"), ("text", "zh"), ("json", "en")])
def test_partial_live_header(fmt: str, lang: str) -> None:
    out = io.StringIO()
    RENDERERS[fmt](_partial(), out, lang, False)
    text = out.getvalue()
    if fmt == "text":
        header = "\n".join(text.splitlines()[1:5])
        _check(f"live-partial.{lang}.txt", header + "\n")
    else:
        _check("live-partial.en.json", text[text.index('  "server"') : text.index('  "keyspace"')])
