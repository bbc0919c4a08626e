"""Hostile data in every section of every format: a real server, its dump and a key list full of key names
(and an ACL user, a slow-log entry, a file name) made to attack terminals, CI logs, JSON and SARIF viewers.

Every report is rendered in every format (text with and without colour, JSON, SARIF, GitHub annotations,
Markdown), and each output must: hold no raw control, C1, bidi or other format character (only the newlines
of the format itself, and in colour only the SGR sequences rich writes); parse, when it is JSON or SARIF (or
Markdown, as GitHub renders it); and still name every hostile key, in the escaped form that renderer uses.
"""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rediscipline.api.defaults import settings_for
from rediscipline.api.keys import KeyInput, check_keys
from rediscipline.api.live import LiveScanOptions, scan_live
from rediscipline.api.rdb import RdbScanOptions, scan_rdb
from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, display_bytes, inert
from rediscipline.model.report import Report
from rediscipline.render import RENDERERS
from rediscipline.render.github import escape_data
from rediscipline.render.names import name_fields
from rediscipline.rules import default_registry
from rediscipline.settings.loader import Overrides
from tests.live.conftest import run_scan
from tests.render.gfm import render
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

HOSTILE: tuple[bytes, ...] = (
    b"\x1b[2J:clear",
    b"\x1b]8;;http://evil\x07link\x1b]8;;\x07:osc",
    b"nul\x00byte:one",
    b"\x9bcsi:raw",  # the C1 CSI byte alone (not UTF-8)
    b"\xc2\x9bcsi:char",  # U+009B as UTF-8
    b"\xe2\x80\xaertl:gnp.exe",  # RLO
    b"zw\xe2\x80\x8bsp:one",  # zero-width space
    b"iso:\xe2\x81\xa6x\xe2\x81\xa9",  # bidi isolates
    b"cr\rlf\n:one",
    b"ls\xe2\x80\xa8ps\xe2\x80\xa9:one",  # line and paragraph separators
    b"bad\xff\xfeutf8:one",
    b"Long:" + b"Q" * 300_000,
    b"[bold]markup[/bold]:one",
    b"pct%0Aline:%0D:one",
    b"::error::injected",
    b"<script>alert(1)</script>:one",
    b"tick`code`:one",
    b"pipe|table|:one",
    b"[link](https://evil):one",
)
#: Namespace labels (the first level of a pattern: glob characters escaped, bytes that are not UTF-8 as \\xNN)
#: as JSON gives them, and as the text report shows them.
JSON_NAMESPACES = ("\x1b\\[2J:*", "\u202ertl:*", "\\x9bcsi:*", "\x9bcsi:*", "\x1b\\]*;;http:*")
SHOWN_NAMESPACES = ("\\x1b\\[2J:*", "\\u202ertl:*", "\\x9bcsi:*", "\\u009bcsi:*", "\\x1b\\]*;;http:*")
USER = b"evil\x1b[2J\xe2\x80\xaeuser"
FILE_NAME = "keys\x1b[2J\u202e.jsonl"
UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
SGR = re.compile("\x1b\\[[0-9;]*m")
SARIF_SCHEMA = json.loads((Path(__file__).parents[1] / "render" / "sarif-schema-2.1.0.json").read_text())


def _fill(server: ServerProcess) -> None:
    with server.client() as client:
        for index, key in enumerate(HOSTILE):
            # The terminal attacks get the biggest values, so they lead the namespaces and biggest-keys tables;
            # the others are collections, for the biggest-collections table.
            if index < 6 or key.startswith(b"Long:"):
                client.set(key, b"x" * (40_000 - 1_000 * index), px=3_600_000)
            elif index % 2:
                client.hset(key, mapping={b"f%d" % i: b"v" * 20 for i in range(40 + index)})
            else:
                client.zadd(key, {b"m%d" % i: i for i in range(40 + index)})
        client.execute_command("ACL", "SETUSER", USER, "on", "nopass", "~*", "+@all")
        client.config_set("slowlog-log-slower-than", 0)
        client.keys(b"\x1b[2J*")  # a KEYS call whose argument is in the slow log
        client.config_set("slowlog-log-slower-than", 10_000)


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[ServerProcess]:
    require_kind("redis70")
    server = start_server("redis70")
    try:
        _fill(server)
        yield server
    finally:
        server.stop()


@dataclass(frozen=True)
class Case:
    name: str
    report: Report


def _settings() -> Any:
    registry = default_registry()
    return settings_for(Overrides(isolated=True), registry)


@pytest.fixture(scope="module")
def reports(hostile_server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    folder = tmp_path_factory.mktemp("hostile")
    live = scan_live(LiveScanOptions(url=hostile_server.url), _settings())
    with hostile_server.client() as client:
        client.save()
    dump = folder / "hostile.rdb"
    shutil.copyfile(hostile_server.workdir / "dump.rdb", dump)
    rdb = scan_rdb(RdbScanOptions(paths=(str(dump),)), _settings())
    key_file = folder / FILE_NAME
    key_file.write_text(
        "".join(json.dumps({"key_b64": base64.b64encode(key).decode()}) + "\n" for key in HOSTILE), encoding="utf-8"
    )
    keys = check_keys([KeyInput(str(key_file), "jsonl")], _settings())
    return {"live": live, "rdb": rdb, "keys": keys}


def _render(report: Report, fmt: str, color: bool = False) -> str:
    out = io.StringIO()
    RENDERERS[fmt](report, out, "en", color)
    return out.getvalue()


def _unsafe(text: str) -> list[str]:
    return sorted({f"U+{ord(ch):04X}" for ch in text if ch != "\n" and unicodedata.category(ch) in UNSAFE})


def _exact_names(data: dict[str, Any]) -> set[bytes]:
    """Every exact key name a JSON report gives: examples and top keys, by text, `key_b64` or `key_ref`."""
    long_names = [base64.b64decode(entry["b64"]) for entry in data["long_names"]]
    records = [e for f in data["findings"] for e in f["examples"]]
    if data["keyspace"] is not None:
        records += data["keyspace"]["top_by_memory"] + data["keyspace"]["top_by_length"]
    names: set[bytes] = set()
    for record in records:
        if "key_ref" in record:
            names.add(long_names[record["key_ref"]])
        elif "key_b64" in record:
            names.add(base64.b64decode(record["key_b64"]))
        elif "key_length" not in record:
            names.add(record["key"].encode("utf-8"))
    return names


def _patterns_of(report: Report, key: bytes) -> list[bytes]:
    return [f.pattern for f in report.findings if f.pattern is not None and any(e.name == key for e in f.examples)]


SOURCES = ("live", "rdb", "keys")


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("color", [False, True], ids=["never", "always"])
def test_text(reports: dict[str, Report], source: str, color: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "2000")  # a wide terminal: colour output is wrapped at the terminal's width
    text = _render(reports[source], "text", color)
    body = SGR.sub("", text) if color else text
    assert _unsafe(body) == [], f"raw characters in the {source} text report"
    for key in HOSTILE:
        assert display_bytes(key, NAME_LIMIT) in body, f"{key[:40]!r} not named in the {source} text report"
    if source != "keys":
        sections = ("memory by type", "TTL left", "namespaces by memory", "biggest keys by memory")
        assert all(title in body for title in sections)
        assert "biggest collections by elements" in body
        # The namespaces table: first levels of the hostile patterns (glob escapes kept), escaped.
        assert all(namespace in body for namespace in SHOWN_NAMESPACES)
        # The biggest-keys table shows names of at most QUOTE_LIMIT characters (folded in their column).
        table = body[body.index("biggest keys by memory") :]
        assert "Long:" + "Q" * 40 in table and "…(300,005 bytes)" in table
    if source == "live":
        assert "evil\\x1b[2J\\u202euser" in body  # the ACL user named by the security rules
        assert "KEYS \\x1b[2J*" in body  # the slow-log entry's arguments


@pytest.mark.parametrize("source", SOURCES)
def test_json(reports: dict[str, Report], source: str) -> None:
    text = _render(reports[source], "json")
    assert _unsafe(text) == []
    data = json.loads(text)
    assert set(HOSTILE) <= _exact_names(data)
    if source != "keys":
        namespaces = {n["namespace"] for n in data["keyspace"]["namespaces"]}
        assert set(JSON_NAMESPACES) <= namespaces  # the values as they are, JSON-escaped in the file


@pytest.mark.parametrize("source", SOURCES)
def test_sarif(reports: dict[str, Report], source: str) -> None:
    text = _render(reports[source], "sarif")
    assert _unsafe(text) == []
    log = json.loads(text)
    jsonschema.validate(log, SARIF_SCHEMA)
    results = log["runs"][0]["results"]
    examples = [e for r in results for e in r["properties"].get("examples", [])]
    for key in HOSTILE:
        assert name_fields("key", key) in examples, f"{key[:40]!r} not named in the {source} SARIF log"
    messages = [r["message"]["text"] for r in results]
    assert all(re.search(r"(?<!\\)\[", m) is None for m in messages), "an unescaped [ could open an embedded link"


@pytest.mark.parametrize("source", SOURCES)
def test_github(reports: dict[str, Report], source: str) -> None:
    report = reports[source]
    text = _render(report, "github")
    assert _unsafe(text) == []
    lines = text.splitlines()
    assert len(lines) == len(report.findings)
    command = re.compile(r"::(error|warning|notice) [^:\n]*::")
    assert all(command.match(line) for line in lines), "a property ended the command early"
    for key in HOSTILE:
        shown = [escape_data(display_bytes(pattern, NAME_LIMIT)) for pattern in _patterns_of(report, key)]
        assert any(s in text for s in shown), f"{key[:40]!r} not named in the {source} annotations"


@pytest.mark.parametrize("source", SOURCES)
def test_markdown(reports: dict[str, Report], source: str) -> None:
    """Every finding is a row of six cells whose place is its pattern, nothing became a link, an image or
    HTML, and the keyspace block lists the namespaces holding the most memory."""
    report = reports[source]
    text = _render(report, "markdown")
    assert _unsafe(text) == []
    page = render(text)
    assert page.foreign == set() and page.github_links == []
    findings = next(table for table in page.tables if table[0][0].text == "severity")
    assert len(findings) == 1 + min(len(report.findings), 50)
    assert all(len(row) == 6 for row in findings)
    for row, finding in zip(findings[1:], report.findings, strict=False):  # a key pattern, or what else it is about
        name = display_bytes(finding.pattern, NAME_LIMIT) if finding.pattern is not None else finding.subject
        assert row[2].codes == ([name] if name else [])
    for key in HOSTILE:
        shown = {display_bytes(pattern, NAME_LIMIT) for pattern in _patterns_of(report, key)}
        assert shown & set(page.codes), f"{key[:40]!r} not named in the {source} Markdown report"
    if source != "keys":
        keyspace = report.stats.keyspace
        assert keyspace is not None
        namespaces = next(table for table in page.tables if table[0][0].text == "namespace")
        shown_namespaces = [(row[0].codes, row[1].text) for row in namespaces[1:]]
        expected = [([inert(b.label, QUOTE_LIMIT)], f"{b.keys:,}") for b in keyspace.namespaces[:5]]
        assert shown_namespaces == expected
        assert set(SHOWN_NAMESPACES) & {codes[0] for codes, _keys in shown_namespaces}


def test_cli_scan_text_never_color(hostile_server: ServerProcess, tmp_path: Path) -> None:
    """The command a user runs: `scan URL --format text --color never`, its namespaces table included."""
    result = run_scan(hostile_server.url, "--color", "never", cwd=tmp_path, fmt="text")
    assert result.returncode == 1, result.describe()
    text = result.stdout.decode("utf-8")
    assert _unsafe(text) == []
    table = text[text.index("namespaces by memory") : text.index("biggest keys by memory")]
    assert all(namespace in table for namespace in SHOWN_NAMESPACES)
