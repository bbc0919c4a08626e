"""The text layout of code and config findings: `path:line:col: RULE [severity] message` in report order,
library code first and test code under its own heading, then the rules broken and the summary; compared
with snapshots, in colour and without."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from rediscipline.model.report import Report
from rediscipline.render import RENDERERS
from rediscipline.render.sites import relative_path
from tests.render.site_reports import clean_check_report, code_report, config_report, live_report
from tests.render.test_snapshots import _check

SGR = re.compile(r"\x1b\[[0-9;]*m")


def _text(report: Report, lang: str = "en", color: bool = False) -> str:
    out = io.StringIO()
    RENDERERS["text"](report, out, lang, color)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "report", "lang"),
    [
        ("code", code_report, "en"),
        ("code", code_report, "zh"),
        ("config", config_report, "en"),
        ("clean", clean_check_report, "en"),
    ],
)
def test_snapshot(name: str, report: Callable[[], Report], lang: str) -> None:
    _check(f"sites-{name}.{lang}.txt", _text(report(), lang))


def test_one_line_per_finding_in_report_order_test_code_last() -> None:
    lines = _text(code_report()).splitlines()
    sites = [line for line in lines if re.match(r"^.+:\d+:\d+: [A-Z]{3}\d{3} \[", line)]
    assert [line.split(": ")[0] for line in sites] == [
        "/opt/vendor/redis_helpers.py:40:5",
        "src/app/cache.py:12:9",
        "src/app/cache.py:30:17",
        "/project/src/app/cart.py:7:12",
        "src/legacy dir/\\xffold.py:3:1",
        "tests/test_cache.py:9:5",
    ]
    assert sites[0] == (
        "/opt/vendor/redis_helpers.py:40:5: CMD001 [error] KEYS scans the whole keyspace and blocks the server: "
        "use SCAN with MATCH and COUNT (scan_iter(match=…, count=…)) or keep the keys in a set"
    )
    assert sites[2] == (
        "src/app/cache.py:30:17: KEY006 [warning] upper-case letters in the key name: `Profile` (→ `profile`); "
        "use lower case  (key user:*:Profile)  and 2 more in this file (line 41, 57)"
    )
    # library code under its heading first, test code under its own after it
    assert lines.index("Library code") < lines.index(sites[0])
    assert lines.index(sites[4]) < lines.index("Test code") < lines.index(sites[5])
    assert lines[lines.index("Test code") - 1] == ""


def test_more_places_are_bounded_and_counted_in_chinese() -> None:
    report = code_report()
    folded = next(f for f in report.findings if f.related)
    many = replace(folded, count=120, related=tuple(replace(folded.location, line=100 + n) for n in range(50)))
    text = _text(replace(report, findings=(many,)), lang="zh")
    assert "本文件另有 119 处（第 100、101、102、103、104、… 行）" in text
    assert "Test code" not in text and "测试代码" not in text  # no test findings: no headings


def test_summary_comes_after_the_findings_without_key_counts() -> None:
    text = _text(code_report())
    assert text.index("Rules broken") < text.index("rediscipline 0.1.0 · check") < text.index("Summary: error 3")
    assert "0 keys in 0 patterns" not in text  # code has no keys to count
    assert "6 findings\n" in text


def test_escapes_what_reaches_the_terminal() -> None:
    for color in (False, True):
        text = _text(code_report(), color=color)
        assert "\x1b" not in SGR.sub("", text)
        assert "100% clearer\\nas user:profile \\x1b[31m" in text


def test_colour_only_when_asked() -> None:
    plain = _text(code_report())
    coloured = _text(code_report(), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31mCMD001" in coloured
    assert SGR.sub("", coloured).splitlines()[0] == plain.splitlines()[0]


def test_other_reports_keep_their_layout() -> None:
    """Key-pattern reports (no finding at a place in a file) are untouched by the site layout."""
    text = _text(live_report())
    assert text.startswith("rediscipline 0.1.0 · scan")
    assert "Rules broken" not in text


def test_relative_path() -> None:
    assert relative_path("/project/src/a.py", "/project") == ("src/a.py", True)
    assert relative_path("./src/../src/a.py", "/project") == ("src/a.py", True)
    assert relative_path("../other/a.py", "/project") == ("../other/a.py", True)
    assert relative_path("/elsewhere/a.py", "/project") == ("/elsewhere/a.py", False)
    assert relative_path("/project2/a.py", "/project") == ("/project2/a.py", False)
