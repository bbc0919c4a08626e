"""The traffic section of a report in every format: byte for byte against snapshots (text and JSON here, the
Markdown in test_markdown_snapshots), a window whose counters went backwards, refused sources, and hostile
values from the server (terminal escapes, rich markup, bytes that are not UTF-8, a 10 KB client name, HTML)
shown escaped and bounded by each format's one escaping path."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

import pytest

from rediscipline.model.display import NAME_LIMIT
from rediscipline.model.report import Report
from rediscipline.model.traffic import ClientInfo, CommandWindow, HotKey, QueueStat, SlowCall, TrafficSourceInfo
from rediscipline.render import RENDERERS
from rediscipline.render.markdown import markdown_document, size
from rediscipline.sources.traffic.source import BLIND_SPOTS
from tests.render.gfm import render as render_markdown
from tests.render.html.page_parts import render as render_page
from tests.render.html.test_html_escaping import OUR_TAGS
from tests.render.test_live_snapshot import _report as live_report
from tests.render.test_snapshots import _check
from tests.render.test_snapshots import _report as keys_report
from tests.render.traffic_reports import STARTED, monitored_report, traffic_report, traffic_view

LONG_NAME = "n" * 10_000
LONG_ARG = b"A" * 10_000
SCRIPT = "<script>alert(1)</script>"


def _rendered(report: Report, fmt: str, lang: str = "en") -> str:
    out = io.StringIO()
    RENDERERS[fmt](report, out, lang, False)
    return out.getvalue()


def _hostile_report() -> Report:
    view = traffic_view(
        commands=(CommandWindow("get\x1b[2J", 5, 10), CommandWindow("[bold]x[/bold]", 3, 9)),
        errors={"ERR\x1b]0;pwned\x07": 1, SCRIPT: 2},
        stats={},
        clients=(
            ClientInfo(1, "10.0.0.1:1\x1b[31m", LONG_NAME, "P", "subscribe", sub=60, omem=100),
            ClientInfo(2, SCRIPT, "[bold]boss[/bold]", "b", "blpop\x1b[0m", idle=1),
            ClientInfo(3, "10.0.0.3:3", "a|b`c`@octocat #12", "O", "monitor"),
        ),
        clients_total=3,
        slow_calls=(
            SlowCall(
                1,
                int(STARTED) + 1,
                20_000,
                "hgetall",
                (b"\x1b[31mred", b"\xff\xfe", LONG_ARG, b"<script>x</script>"),
                "1.2.3.4:5\x1b[1m",
                "[bold]c[/bold]",
            ),
        ),
        sources=(
            TrafficSourceInfo("CLIENT LIST", BLIND_SPOTS["CLIENT LIST"]),
            TrafficSourceInfo("SLOWLOG GET", BLIND_SPOTS["SLOWLOG GET"]),
            TrafficSourceInfo("CONFIG GET", BLIND_SPOTS["CONFIG GET"], "NOPERM\x1b[31m\nsecond line <b>"),
        ),
        hot_keys=(HotKey(0, b"hot:\x1b[5m", 9_000.0, "OBJECT FREQ", 1, 2),),
        queues=(QueueStat(0, b"q:\xff", "list", "--queue", 1, 2),),
    )
    return traffic_report(view)


# ---- exact output ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "lang"), [("text", "en"), ("text", "zh"), ("json", "en")])
def test_traffic_snapshot(fmt: str, lang: str) -> None:
    _check(f"traffic.{lang}.{'txt' if fmt == 'text' else 'json'}", _rendered(traffic_report(), fmt, lang))


@pytest.mark.parametrize(("fmt", "lang"), [("text", "en"), ("text", "zh"), ("json", "en"), ("markdown", "en")])
def test_monitored_traffic_snapshot(fmt: str, lang: str) -> None:
    """A window with a MONITOR sample: its findings (BAT001, BAT003, TTL006, TTL007, PUB001, HOT001, HOT002 with
    the key's size, CMD001 sent by its client), the hot keys with their error and size, and every table of the
    sample, each escaped."""
    extension = {"text": "txt", "json": "json", "markdown": "md"}[fmt]
    _check(f"traffic-monitor.{lang}.{extension}", _rendered(monitored_report(), fmt, lang))


def test_the_sample_s_shapes_are_findings_of_their_rules() -> None:
    report = monitored_report()
    found = {(f.rule_id, f.code, f.pattern, f.worst) for f in report.findings if f.rule_id != "CMD001"}
    assert {
        ("BAT001", "keys", b"user:profile:*", 500),
        ("BAT003", "queued", None, 250),
        ("TTL006", "set", b"cache:item:*", None),
        ("TTL007", "loop", b"promo:stock:*", 3600),
        ("PUB001", "timeout-zero", b"jobs:queue", None),
        ("HOT001", "hot-key", None, 4000.0),
        ("HOT002", "hot-big", None, 4000.0),
    } <= found


def test_the_json_monitor_object_is_documented() -> None:
    """docs/json-report.md: each field of `traffic[].monitor` has its row."""
    docs = (Path(__file__).parents[2] / "docs" / "json-report.md").read_text(encoding="utf-8")
    section = docs[docs.index("#### `traffic[].monitor`") : docs.index("### `simulation`")]
    rows = [line.split(" | ")[0].lstrip("| ") for line in section.splitlines() if line.startswith("| `")]
    documented = {name.strip("`").split("[")[0] for row in rows for name in row.split(", ")}
    [window] = json.loads(_rendered(monitored_report(), "json"))["traffic"]
    assert documented == set(window["monitor"])


def test_a_report_of_no_traffic_window_has_no_traffic_section() -> None:
    for report in (keys_report(), live_report(False)):
        assert report.stats.traffic == ()
        assert "traffic" not in json.loads(_rendered(report, "json"))
        assert "Traffic:" not in _rendered(report, "text")
        assert "Traffic" not in markdown_document(report, "en")
        assert "traffic-1" not in _rendered(report, "html")


def test_the_json_traffic_list() -> None:
    """One object per window, every item the view kept, rates per second where they mean something."""
    [window] = json.loads(_rendered(traffic_report(), "json"))["traffic"]
    assert (window["address"], window["started"], window["seconds"], window["reset"]) == (
        "redis://127.0.0.1:6379",
        STARTED,
        10.0,
        False,
    )
    assert [c["name"] for c in window["commands"]][:3] == ["get", "set", "hgetall"]
    assert window["commands"][1] == {
        "name": "set",
        "calls": 4_000,
        "calls_per_second": 400.0,
        "usec": 20_000,
        "usec_per_call": 5.0,
        "failed": 2,
        "rejected": 1,
        "p50_us": 2.0,
        "p99_us": 5.0,
    }
    assert window["errors"] == [{"error": "ERR", "count": 5}, {"error": "WRONGTYPE", "count": 2}]
    assert window["stats"]["keyspace_hits"] == {"count": 11_000, "per_second": 1_100.0}
    assert window["stats"]["rejected_connections"] == {"count": 1, "per_second": None}
    assert (window["clients"]["total"], window["clients"]["listed"]) == (6, 5)
    assert window["clients"]["items"][0] == {
        "id": 5,
        "addr": "10.0.0.7:51022",
        "name": "feed",
        "flags": "P",
        "cmd": "subscribe",
        "db": 0,
        "age": 600,
        "idle": 0,
        "sub": 120,
        "psub": 2,
        "ssub": 0,
        "multi": -1,
        "watch": None,
        "omem": 9_000_000,
        "class": "pubsub",
        "lib": "",
    }
    assert window["output_limits"]["pubsub"] == {"hard": 32 << 20, "soft": 8 << 20, "soft_seconds": 60}
    assert [call["id"] for call in window["slow_calls"]] == [103, 102, 101]  # as the server lists them
    assert window["slow_calls"][2]["args"] == [{"arg": "cart:\\xff:1", "arg_b64": "Y2FydDr/OjE="}]
    assert window["slowlog"] == {"history": 40, "since": 1_794_996_400, "threshold_us": 10_000}
    assert window["sources"][3] == {
        "name": "CONFIG GET",
        "blind_spots": {"en": BLIND_SPOTS["CONFIG GET"].en, "zh": BLIND_SPOTS["CONFIG GET"].zh},
        "error": "NOPERM this user has no permissions",
    }


def test_a_window_whose_counters_went_backwards_says_so_and_shows_no_rates() -> None:
    report = traffic_report(traffic_view(reset=True, commands=(), errors={}, stats={}))
    text = _rendered(report, "text")
    assert "  the server's counters went backwards inside the window (a restart" in text
    assert "calls (" not in text and "Commands by calls" not in text and "Server counters" not in text
    assert "Slow calls in the window (3 slowest of 3)" in text  # the slow log and the clients are still there
    [window] = json.loads(_rendered(report, "json"))["traffic"]
    assert (window["reset"], window["commands"], window["errors"], window["stats"]) == (True, [], [], {})
    markdown = markdown_document(report, "en")
    assert "> [!WARNING]\n> the server's counters went backwards" in markdown
    page = render_page(report)
    assert [e.attrs["class"] for e in page.all("p") if "counters went backwards" in "".join(e.text)] == ["warning"]


def test_a_refused_source_is_said_where_its_part_would_be() -> None:
    error = "NOPERM this user has no permissions to run the 'client|list' command"
    sources = (TrafficSourceInfo("CLIENT LIST", BLIND_SPOTS["CLIENT LIST"], error),)
    text = _rendered(traffic_report(traffic_view(clients=(), clients_total=0, sources=sources)), "text")
    assert f"Clients\n  not read: {error}\n" in text
    assert f"  CLIENT LIST: not read: {error} · the connections at one instant" in text
    assert "connections at the end of the window" not in text


# ---- hostile values ----------------------------------------------------------------------------------------


def _squeezed(text: str) -> str:
    """Text without its white space: a table's cell may be folded over several lines of 120 columns."""
    return "".join(text.split())


def test_hostile_values_in_the_text_report() -> None:
    text = _rendered(_hostile_report(), "text")
    assert "\x1b" not in text and "\x07" not in text
    section = text[text.index("Traffic: ") : text.index("\nrediscipline ")]
    assert max(len(line) for line in section.splitlines()) < 500  # tables fold a long cell at 120 columns
    squeezed = _squeezed(text)
    shown = [
        "get\\x1b[2J",
        "[bold]x[/bold]",  # rich markup is shown as it is
        "ERR\\x1b]0;pwned\\x07",
        SCRIPT,
        "10.0.0.1:1\\x1b[31m (" + "n" * 80 + "…(10,000 characters))",
        f"{SCRIPT} ([bold]boss[/bold])",
        "blpop\\x1b[0m",
        "hgetall \\x1b[31mred \\xff\\xfe",  # the slow call's cell, folded over three lines
        "A" * 40 + "…(10,000 bytes)",
        "<script>x</script>",
        "1.2.3.4:5\\x1b[1m ([bold]c[/bold])",
        "CONFIG GET: not read: NOPERM\\x1b[31m\\nsecond line <b> · ",
        "hot:\\x1b[5m",
        "q:\\xff",
    ]
    assert [piece for piece in shown if _squeezed(piece) not in squeezed] == []
    assert "n" * 81 not in squeezed


def test_hostile_values_in_the_json_report() -> None:
    rendered = _rendered(_hostile_report(), "json")
    assert "\x1b" not in rendered and "\x07" not in rendered
    document: dict[str, Any] = json.loads(rendered)
    [window] = document["traffic"]
    assert [c["name"] for c in window["commands"]] == ["get\x1b[2J", "[bold]x[/bold]"]  # exact within bounds
    assert {e["error"] for e in window["errors"]} == {"ERR\x1b]0;pwned\x07", SCRIPT}
    clients = window["clients"]["items"]
    assert clients[0]["addr"] == "10.0.0.1:1\x1b[31m"
    assert clients[0]["name"] == "n" * NAME_LIMIT + "…(10,000 characters)"
    assert (clients[1]["addr"], clients[1]["name"], clients[1]["cmd"]) == (SCRIPT, "[bold]boss[/bold]", "blpop\x1b[0m")
    [call] = window["slow_calls"]
    red, binary, long, script = call["args"]
    assert red == {"arg": "\x1b[31mred"} and script == {"arg": "<script>x</script>"}
    assert binary == {"arg": "\\xff\\xfe", "arg_b64": base64.b64encode(b"\xff\xfe").decode()}
    assert long["arg"] == "A" * NAME_LIMIT + "…(10,000 bytes)" and long["arg_length"] == 10_000
    assert base64.b64decode(document["long_names"][long["arg_ref"]]["b64"]) == LONG_ARG
    assert (call["client"], call["client_name"]) == ("1.2.3.4:5\x1b[1m", "[bold]c[/bold]")
    assert window["sources"][2]["error"] == "NOPERM\x1b[31m\nsecond line <b>"
    assert window["hot_keys"][0]["key"] == "hot:\x1b[5m"
    assert window["queues"][0]["key_b64"] == base64.b64encode(b"q:\xff").decode()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_values_in_the_markdown_report(lang: str) -> None:
    markdown = markdown_document(_hostile_report(), lang)
    assert "\x1b" not in markdown
    page = render_markdown(markdown)
    assert page.foreign == set() and page.github_links == []
    cells = {cell.codes[0] for table in page.tables for row in table for cell in row if cell.codes}
    assert "10.0.0.1:1\\x1b[31m (" + "n" * 80 + "…(10,000 characters))" in cells
    assert f"{SCRIPT} ([bold]boss[/bold])" in cells
    assert "a|b`c`@octocat #12" in {cell.split(" (", 1)[-1].rstrip(")") for cell in cells}
    assert "hgetall \\x1b[31mred \\xff\\xfe " + "A" * 40 + "…(10,000 bytes) <script>x</script>" in cells


def test_the_markdown_traffic_section_stays_within_its_share() -> None:
    """A small document: the traffic section is cut at a line, and says where the rest is."""
    for limit in (4_000, 8_000):
        markdown = markdown_document(_hostile_report(), "en", limit=limit)
        assert size(markdown) <= limit
        assert markdown.rstrip("\n").endswith("has all of it\\.")
        page = render_markdown(markdown)
        assert page.foreign == set() and page.github_links == []
    assert "has all of it" not in markdown_document(_hostile_report(), "en")


def test_hostile_values_in_the_html_report() -> None:
    page = render_page(_hostile_report())
    assert {element.tag for element in page.elements} <= OUR_TAGS
    assert [s.attrs.get("type") for s in page.all("script")] == ["application/json", None]
    assert "\x1b" not in page.source and "\x07" not in page.source
    [section] = page.all("section", id="traffic-1")
    assert section.attrs["data-address"] == "redis://127.0.0.1:6379"
    cells = ["".join(e.text) for e in page.all("td")]
    assert "10.0.0.1:1\\x1b[31m (" + "n" * 80 + "…(10,000 characters))" in cells
    assert f"{SCRIPT} ([bold]boss[/bold])" in cells
    assert "hgetall \\x1b[31mred \\xff\\xfe " + "A" * 40 + "…(10,000 bytes) <script>x</script>" in cells
    assert "n" * 81 not in page.source
    tables = [table.attrs["data-table"] for table in page.all("table") if table.attrs.get("data-table")]
    assert tables == [
        "commands-by-calls",
        "commands-by-cpu",
        "errors",
        "pubsub",
        "blocked",
        "monitors",
        "buffers",
        "slow-calls",
        "latency",
        "hot-keys",
        "queues",
    ]


def test_every_field_of_a_window_is_documented() -> None:
    """docs/json-report.md: each field of a window has its row, and a client's fields are those its row lists."""
    docs = (Path(__file__).parents[2] / "docs" / "json-report.md").read_text(encoding="utf-8")
    section = docs[docs.index("### `traffic`") : docs.index("#### `traffic[].monitor`")]
    rows = [line.split(" | ")[0].lstrip("| ") for line in section.splitlines() if line.startswith("| `")]
    documented = {name.strip("`").split("[")[0] for row in rows for name in row.split(", ")}
    [window] = json.loads(_rendered(traffic_report(), "json"))["traffic"]
    assert documented == set(window) | {"clients.items"}
    [client_row] = [line for line in section.splitlines() if line.startswith("| `clients.items[]`")]
    listed = client_row.split("`{", 1)[1].split("}`", 1)[0].split(", ")
    assert listed == list(window["clients"]["items"][0])
