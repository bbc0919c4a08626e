"""A traffic window's section of the HTML report in a real Chromium: script payloads the server could hand back
(client names and addresses, commands, slow-call arguments, error prefixes) are shown as text and never run,
with and without the page's Content-Security-Policy."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rediscipline.model.traffic import ClientInfo, CommandWindow, SlowCall
from rediscipline.render.html import render_html
from tests.browser.conftest import OpenPage
from tests.browser.harness import XSS_PAYLOADS, assert_clean
from tests.render.traffic_reports import STARTED, traffic_report, traffic_view


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    payloads = XSS_PAYLOADS
    view = traffic_view(
        commands=tuple(CommandWindow(payload, 10 + index, 5) for index, payload in enumerate(payloads)),
        errors=dict.fromkeys(payloads, 1),
        clients=tuple(
            ClientInfo(index + 1, payload, payload, "P", payload, sub=60, omem=1_000 * (index + 1))
            for index, payload in enumerate(payloads[:5])
        ),
        clients_total=5,
        slow_calls=(
            SlowCall(1, int(STARTED), 20_000, "get", tuple(p.encode() for p in payloads), "1.2.3.4:5", payloads[1]),
        ),
    )
    stream = io.StringIO()
    render_html(traffic_report(view), stream, "en")
    path = tmp_path_factory.mktemp("traffic") / "traffic.html"
    path.write_text(stream.getvalue(), encoding="utf-8")
    return path


def test_payloads_in_the_traffic_section_are_text(page_file: Path, open_page: OpenPage) -> None:
    for bypass in (False, True):  # without the CSP, only the escaping stands between a payload and the page
        page = open_page(page_file, bypass_csp=bypass)
        page.settle()
        assert_clean(page)
        assert page.count_visible("#traffic-1 table") == 11  # every table of the section
        cells = page.texts("#traffic-1 td")
        assert set(XSS_PAYLOADS[:5]) <= set(cells)  # the commands by calls, one cell each
        assert f"{XSS_PAYLOADS[0]} ({XSS_PAYLOADS[0]})" in cells  # a client: its address and its name
