"""A keyspace split across dumps by a real Redis 7.0 (as the shards of a cluster hold it): each dump is a part
with an engine of its own, and the merged report is the one report of one engine fed every dump in order.

The fixture fills a real server with the seeded dataset (tests/support/dataset.py) plus what only a whole
keyspace shows (1,200 keys on one constant hashtag, objects stored one string per field, keys of a namespace
whose TTLs are too short), takes every key out with DUMP and its absolute expiry, and writes the dumps with the
same server: RESTORE one part at a time, SAVE, copy the file; then the whole keyspace likewise.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rediscipline.api import RdbScanOptions, scan_rdb, settings_for
from rediscipline.api.driver import run
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import Report
from rediscipline.model.source import SourceOutcome
from rediscipline.render.json_output import report_to_dict
from rediscipline.render.text import render_text
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides
from rediscipline.sources.rdb.source import DumpOptions, RdbSource
from tests.support.dataset import populate
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

PARTS = 3
CONVENTIONS = """\
[namespaces."session:*"]
ttl-min = "1d"
"""

Key = tuple[int, bytes, bytes, int]  # db, name, DUMP payload, absolute expiry in ms (0: none)


@dataclass(frozen=True)
class SplitDumps:
    parts: list[Path]
    whole: Path
    config: Path


def _extra_keys(server: ServerProcess) -> None:
    client = server.client()
    pipe = client.pipeline(transaction=False)
    for index in range(1200):  # KEY013: more than `min-keys` (1000) keys on the slot of `{global}`
        pipe.set(b"rank:{global}:user:%d" % index, b"1")
    for index in range(1, 16):  # VAL005: 15 objects of three string fields each
        for field in (b"name", b"age", b"city"):
            pipe.set(b"member:%d:%s" % (index, field), b"v")
    for index in range(20):  # TTL003: two hours given where the namespace declares at least a day
        pipe.set(b"session:token:%d" % index, b"t", px=7_200_000)
    pipe.execute()


def _every_key(server: ServerProcess) -> list[Key]:
    keys: list[Key] = []
    databases = [int(name[2:]) for name in server.client().info("keyspace")]
    for db in databases:
        client = server.client(db=db)
        names = sorted(client.scan_iter(count=1000))
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.dump(name)
            pipe.execute_command("PEXPIRETIME", name)
        replies = pipe.execute()
        for name, payload, expire in zip(names, replies[::2], replies[1::2], strict=True):
            keys.append((db, name, payload, max(expire, 0)))
    return keys


def _save(server: ServerProcess, keys: list[Key], dest: Path) -> Path:
    server.client().flushall()
    for db in sorted({key[0] for key in keys}):
        pipe = server.client(db=db).pipeline(transaction=False)
        for _db, name, payload, expire in (key for key in keys if key[0] == db):
            pipe.execute_command("RESTORE", name, expire, payload, "ABSTTL")
        pipe.execute()
    server.client().save()
    shutil.copyfile(server.workdir / "dump.rdb", dest)
    return dest


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> SplitDumps:
    require_kind("redis70")
    folder = tmp_path_factory.mktemp("split-keyspace")
    server = start_server("redis70")
    try:
        populate(server.client(), 1500)
        _extra_keys(server)
        keys = _every_key(server)
        parts = [[key for key in keys if zlib.crc32(key[1]) % PARTS == index] for index in range(PARTS)]
        paths = [_save(server, part, folder / f"node-{index}.rdb") for index, part in enumerate(parts)]
        whole = _save(server, keys, folder / "whole.rdb")
    finally:
        server.stop()
    config = folder / "rediscipline.toml"
    config.write_text(CONVENTIONS)
    return SplitDumps(paths, whole, config)


class OneStream:
    """The dumps as a source of one part: one engine takes every fact of every dump, in order."""

    place = "rdb"
    counts_keys = True

    def __init__(self, paths: list[Path]) -> None:
        self.dumps = RdbSource([str(path) for path in paths], DumpOptions(), jobs=1)
        self.inputs = self.dumps.inputs

    def facts(self, plan: ProbePlan) -> Any:
        facts: Any = self.dumps.facts(plan)
        return iter(facts)

    def outcome(self) -> SourceOutcome:
        return self.dumps.outcome()


def _settings(dumps: SplitDumps) -> Settings:
    return settings_for(Overrides(config=dumps.config))


def _as_json(report: Report) -> dict[str, Any]:
    data = report_to_dict(report)
    data["summary"]["elapsed_seconds"] = None
    return data


def _as_text(report: Report) -> str:
    out = io.StringIO()
    render_text(report, out)
    return re.sub(r"\(\d+\.\d+ s\)", "(… s)", out.getvalue())


@pytest.fixture(scope="module")
def one_engine(dumps: SplitDumps) -> Report:
    return run([OneStream(dumps.parts)], _settings(dumps), command="scan")


def _fired(report: Report) -> set[tuple[str, str, bytes | None, int]]:
    return {(f.rule_id, f.code, f.pattern, f.count) for f in report.findings}


@pytest.mark.parametrize("jobs", [1, 2])
def test_merged_dumps_report_what_one_engine_over_every_dump_reports(
    dumps: SplitDumps, one_engine: Report, jobs: int
) -> None:
    paths = tuple(str(path) for path in dumps.parts)
    merged = scan_rdb(RdbScanOptions(paths, jobs=jobs), _settings(dumps))
    assert _as_json(merged) == _as_json(one_engine)
    assert _as_text(merged) == _as_text(one_engine)


def test_aggregates_over_the_whole_keyspace_fire_only_when_the_parts_merge(
    dumps: SplitDumps, one_engine: Report
) -> None:
    whole = {
        ("KEY013", "constant-tag", b"rank:{global}:user:*", 1200),
        ("TTL002", "same-second", b"promo:coupon:*", 240),
        ("VAL005", "one-key-per-field", b"member:*:*", 45),
        ("TTL003", "too-short", b"session:token:*", 20),
    }
    assert whole <= _fired(one_engine)
    too_short = 0
    for path in dumps.parts:  # no part alone holds enough keys for the first three; the fourth counts its own
        alone = scan_rdb(RdbScanOptions((str(path),), jobs=1), _settings(dumps))
        assert not {"KEY013", "TTL002", "VAL005"} & {f.rule_id for f in alone.findings}
        (found,) = [f for f in alone.findings if f.rule_id == "TTL003"]
        too_short += found.count
    assert too_short == 20


def test_the_command_line_writes_the_merged_report(dumps: SplitDumps, one_engine: Report, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "rediscipline", "scan", *map(str, dumps.parts), "--config", str(dumps.config)]
    result = subprocess.run(
        [*command, "--format", "json", "--jobs", "3"], capture_output=True, cwd=tmp_path, check=False
    )
    assert result.returncode == 1, result.stderr.decode()
    data = json.loads(result.stdout)
    data["summary"]["elapsed_seconds"] = None
    assert data == json.loads(json.dumps(_as_json(one_engine)))


def test_the_charts_of_the_parts_add_up_to_the_charts_of_one_engine(dumps: SplitDumps, one_engine: Report) -> None:
    """The key-size histogram and the expiry timeline of each dump scanned alone, summed bucket by bucket and
    bin by bin, are those of one engine fed every dump (each dump's TTLs count from its own `ctime`)."""
    one = one_engine.stats.keyspace
    assert one is not None and one.expiry is not None

    def spans(stats: KeyspaceStats) -> list[tuple[int, int]]:
        return [(bucket.low, bucket.high) for bucket in stats.size_buckets]

    sizes: Counter[tuple[int, int]] = Counter()
    memory: Counter[tuple[int, int]] = Counter()
    per_minute = [0] * len(one.expiry.per_minute)
    per_hour = [0] * len(one.expiry.per_hour)
    later = 0
    for path in dumps.parts:
        alone = scan_rdb(RdbScanOptions((str(path),), jobs=1), _settings(dumps)).stats.keyspace
        assert alone is not None and alone.expiry is not None
        for bucket in alone.size_buckets:  # the empty buckets between a part's filled ones too
            sizes[(bucket.low, bucket.high)] += bucket.keys
            memory[(bucket.low, bucket.high)] += bucket.memory
        per_minute = [a + b for a, b in zip(per_minute, alone.expiry.per_minute, strict=True)]
        per_hour = [a + b for a, b in zip(per_hour, alone.expiry.per_hour, strict=True)]
        later += alone.expiry.later
    assert {(b.low, b.high): b.keys for b in one.size_buckets} == {span: sizes[span] for span in spans(one)}
    assert {(b.low, b.high): b.memory for b in one.size_buckets} == {span: memory[span] for span in spans(one)}
    assert set(sizes) <= set(spans(one))
    assert (list(one.expiry.per_minute), list(one.expiry.per_hour), one.expiry.later) == (per_minute, per_hour, later)
    assert sum(sizes.values()) == one.keys and len(sizes) >= 5
    assert one.expiry.keys == one.with_ttl > 240 and sum(1 for count in per_hour if count) >= 5


def test_the_parts_report_what_the_whole_dump_reports(dumps: SplitDumps, one_engine: Report) -> None:
    # The whole dump lists its keys in another order and was saved at another second: examples (the first
    # keys met) and TTLs left may differ; what the keys are and what they break may not.
    whole = scan_rdb(RdbScanOptions((str(dumps.whole),), jobs=1), _settings(dumps))

    def findings(report: Report) -> list[tuple[Any, ...]]:
        return [
            (f.rule_id, f.code, f.severity, f.pattern, f.count, f.fingerprint, len(f.examples)) for f in report.findings
        ]

    def keyspace(report: Report) -> dict[str, Any]:
        data = _as_json(report)
        space = data["keyspace"]
        top = [(k["key"], k["memory"]) for k in space["top_by_memory"]]
        kept = {
            key: space[key]
            for key in ("keys", "memory", "with_ttl", "by_type", "by_db", "namespaces", "encodings", "size_buckets")
        }
        return {
            **kept,
            "top": top,
            "summary": {k: data["summary"][k] for k in ("keys", "patterns", "keys_flagged", "score")},
        }

    assert findings(one_engine) == findings(whole)
    assert keyspace(one_engine) == keyspace(whole)
    assert one_engine.stats.keys == whole.stats.keys > 3000
