"""The Markdown report byte for byte (UPDATE_SNAPSHOTS=1 rewrites the snapshots): key names, code and config
files, a live scan with its keyspace block, a partial live scan, and a traffic window, in English and Chinese."""

from __future__ import annotations

import pytest

from rediscipline.model.report import Report
from rediscipline.render.markdown import markdown_document
from tests.render import site_reports
from tests.render.gfm import render
from tests.render.test_live_partial import _partial
from tests.render.test_live_snapshot import _report as live_report
from tests.render.test_snapshots import _check
from tests.render.test_snapshots import _report as keys_report
from tests.render.traffic_reports import traffic_report

REPORTS = {
    "keys": keys_report,
    "live": lambda: live_report(False),
    "live-sampled": lambda: live_report(True),
    "live-partial": _partial,
    "sites-code": site_reports.code_report,
    "sites-config": site_reports.config_report,
    "sites-clean": site_reports.clean_check_report,
    "traffic": traffic_report,
}
CASES = [(name, "en") for name in REPORTS] + [("keys", "zh"), ("live", "zh"), ("sites-code", "zh"), ("traffic", "zh")]


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_snapshot(name: str, lang: str) -> None:
    report: Report = REPORTS[name]()
    text = markdown_document(report, lang, cwd=site_reports.CWD)
    _check(f"{name}.{lang}.md", text)
    page = render(text)
    assert page.foreign == set() and page.github_links == []
