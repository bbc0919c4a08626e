"""The text layout of code and config findings: `path:line:col: RULE [severity] message`, grouped by file,
then the rules broken and the summary; compared with snapshots, in colour and without."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

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


def test_one_line_per_finding_grouped_by_file() -> None:
    lines = _text(code_report()).splitlines()
    sites = [line for line in lines if re.match(r"^.+:\d+:\d+: [A-Z]{3}\d{3} \[", line)]
    assert [line.split(":")[0] for line in sites] == [
        "/opt/vendor/redis_helpers.py",
        "/project/src/app/cart.py",
        "src/app/cache.py",
        "src/app/cache.py",
        "src/legacy dir/\\xffold.py",
    ]
    assert sites[0] == (
        "/opt/vendor/redis_helpers.py:40:5: CMD001 [error] KEYS scans the whole keyspace and blocks the server: "
        "use SCAN with MATCH and COUNT (scan_iter(match=…, count=…)) or keep the keys in a set"
    )
    assert sites[3] == (
        "src/app/cache.py:30:17: KEY006 [warning] upper-case letters in the key name: `Profile` (→ `profile`); "
        "use lower case  (key user:*:Profile)"
    )
    # a blank line between files, none between two findings of one file
    assert lines[lines.index(sites[2]) + 1] == sites[3]
    assert lines[lines.index(sites[1]) + 1] == ""


def test_summary_comes_after_the_findings_without_key_counts() -> None:
    text = _text(code_report())
    assert text.index("Rules broken") < text.index("rediscipline 0.1.0 · check") < text.index("Summary: error 2")
    assert "0 keys in 0 patterns" not in text  # code has no keys to count
    assert "5 findings\n" in text


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
