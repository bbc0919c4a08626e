"""The browser harness catches what it is there to catch: each check fails on a page that breaks it.

The pages are written here, in tmp_path: a clean one shaped like the HTML report (one inline style and one
inline script allowed by their sha256 in a strict Content-Security-Policy), and one page per fault.
"""

from __future__ import annotations

import base64
import hashlib
import html
import struct
from pathlib import Path

import pytest

from tests.browser.conftest import OpenPage
from tests.browser.harness import (
    XSS_PAYLOADS,
    assert_clean,
    assert_no_console_problems,
    assert_no_network,
    assert_no_script_from_data,
)

STYLE = """
body { background: rgb(255, 255, 255); color: rgb(0, 0, 0); }
@media (prefers-color-scheme: dark) { body { background: rgb(16, 16, 16); color: rgb(230, 230, 230); } }
@media print { #controls { display: none; } }
.tall { height: 3000px; }
"""

SCRIPT = """
const search = document.getElementById("search");
search.addEventListener("input", () => {
  let shown = 0;
  for (const item of document.querySelectorAll("li.item")) {
    item.hidden = !item.textContent.includes(search.value);
    if (!item.hidden) shown += 1;
  }
  document.getElementById("shown-count").textContent = String(shown);
});
document.getElementById("more").addEventListener("click", (event) => {
  event.target.textContent = "clicked";
});
"""

BODY = """
<div id="controls"><input id="search" type="search"><button id="more">more</button></div>
<p>shown: <span id="shown-count">3</span></p>
<ul><li class="item">user:profile</li><li class="item">user:session</li><li class="item">order:items</li></ul>
<div class="tall"></div>
"""


def sha256_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def write_page(folder: Path, body: str, *, style: str = STYLE, script: str = "", csp: bool = True) -> Path:
    """A page with one inline style and one inline script; under `csp`, only those two may run or apply."""
    policy = (
        f"default-src 'none'; script-src {sha256_source(script)}; style-src {sha256_source(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">' if csp else ""
    path = folder / "page.html"
    path.write_text(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">{meta}<title>t</title>'
        f"<style>{style}</style></head><body>{body}<script>{script}</script></body></html>",
        encoding="utf-8",
    )
    return path


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_clean_page_passes_and_the_helpers_drive_it(
    open_page: OpenPage, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    page = open_page(write_page(tmp_path, BODY, script=SCRIPT))
    assert request.node.get_closest_marker("browser") is not None
    assert_clean(page)

    assert (page.count("li.item"), page.count_visible("li.item")) == (3, 3)
    page.search("user:")
    assert page.count_visible("li.item") == 2
    assert page.texts("li.item:not([hidden])") == ["user:profile", "user:session"]
    assert page.text("#shown-count") == "2"
    page.search("nothing")
    assert (page.count("li.item"), page.count_visible("li.item"), page.text("#shown-count")) == (3, 0, "0")

    page.click("#more")
    assert page.text("#more") == "clicked"

    assert page.style("body", "background-color") == "rgb(255, 255, 255)"
    page.color_scheme("dark")
    assert page.style("body", "background-color") == "rgb(16, 16, 16)"
    page.color_scheme("light")
    assert page.style("body", "background-color") == "rgb(255, 255, 255)"

    assert page.count_visible("#controls") == 1
    page.print_media()
    assert page.count_visible("#controls") == 0
    page.print_media(on=False)

    shot = page.screenshot(tmp_path / "page.png")
    assert (tmp_path / "page.png").read_bytes() == shot
    width, height = png_size(shot)
    assert width == 1280
    assert height > 3000  # the whole page, not the 800 px viewport
    assert_clean(page)


def test_a_console_error_and_a_warning_are_caught(open_page: OpenPage, tmp_path: Path) -> None:
    script = 'console.error("boom", 42); console.warn("careful"); console.log("fine");'
    page = open_page(write_page(tmp_path, "<p>x</p>", script=script))
    assert page.problems == ["error: boom 42", "warning: careful"]
    with pytest.raises(AssertionError, match="boom 42"):
        assert_no_console_problems(page)
    with pytest.raises(AssertionError, match="careful"):
        assert_clean(page)


def test_an_uncaught_exception_is_caught(open_page: OpenPage, tmp_path: Path) -> None:
    page = open_page(write_page(tmp_path, "<p>x</p>", script='throw new TypeError("kaput");'))
    assert page.page_errors == ["kaput"]
    with pytest.raises(AssertionError, match="uncaught: kaput"):
        assert_no_console_problems(page)


def test_a_network_request_is_recorded_and_aborted(open_page: OpenPage, tmp_path: Path) -> None:
    page = open_page(write_page(tmp_path, '<img id="i" src="http://203.0.113.1/x.png">', csp=False))
    assert page.requests == ["image http://203.0.113.1/x.png"]
    assert page.page.locator("#i").evaluate("img => img.complete && img.naturalWidth") == 0
    assert page.problems == ["error: Failed to load resource: net::ERR_FAILED"]
    with pytest.raises(AssertionError, match=r"the page made requests:\n  image http://203\.0\.113\.1/x\.png"):
        assert_no_network(page)


def test_a_script_request_and_a_file_beside_the_page_are_requests_too(open_page: OpenPage, tmp_path: Path) -> None:
    (tmp_path / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    script = 'window.fetched = fetch("https://203.0.113.2/api").then(() => "loaded", () => "failed");'
    page = open_page(write_page(tmp_path, '<img src="pic.png">', script=script, csp=False))
    assert page.page.evaluate("window.fetched") == "failed"
    assert sorted(page.requests) == ["fetch https://203.0.113.2/api", f"image {(tmp_path / 'pic.png').as_uri()}"]


def test_a_favicon_is_never_requested_but_its_reference_is_found(open_page: OpenPage, tmp_path: Path) -> None:
    page = open_page(write_page(tmp_path, '<link rel="icon" href="http://203.0.113.1/favicon.ico">', csp=False))
    assert page.requests == []  # headless Chromium fetches no favicon
    assert page.external_references() == ["link[href]=http://203.0.113.1/favicon.ico"]
    with pytest.raises(AssertionError, match=r"the page references other hosts:\n  link\[href\]=http://"):
        assert_no_network(page)


def test_style_urls_are_requests_and_references(open_page: OpenPage, tmp_path: Path) -> None:
    style = "@import url('https://203.0.113.1/font.css');" + STYLE
    body = '<img src="//203.0.113.1/a.png"><p style="background: url(//203.0.113.1/b.png)">x</p>'
    page = open_page(write_page(tmp_path, body, style=style, csp=False))
    # both hold up the load event; a protocol-relative URL on a file:// page is a file:// URL with a host. A
    # background image may be asked for after the load event: it is only certain to show in the DOM.
    assert {"image file://203.0.113.1/a.png", "stylesheet https://203.0.113.1/font.css"} <= set(page.requests)
    assert page.external_references() == [
        "img[src]=//203.0.113.1/a.png",
        "p[style]=background: url(//203.0.113.1/b.png)",
        "style=https://203.0.113.1/font.css",
    ]


def test_an_executed_payload_is_caught(open_page: OpenPage, tmp_path: Path) -> None:
    page = open_page(write_page(tmp_path, '<p><img src=x onerror="window.__pwned=1"></p>', csp=False))
    assert page.global_value("__pwned") == 1
    with pytest.raises(AssertionError, match=r"a payload ran: window\.__pwned set"):
        assert_no_script_from_data(page)


def test_a_dialog_is_recorded_and_dismissed(open_page: OpenPage, tmp_path: Path) -> None:
    page = open_page(write_page(tmp_path, "<p>x</p>", script="alert('hi'); window.__after = confirm('sure?');"))
    assert page.dialogs == ["alert: hi", "confirm: sure?"]
    assert page.global_value("__after") is False  # dismissed
    with pytest.raises(AssertionError, match="a payload opened dialogs"):
        assert_no_script_from_data(page)


def test_the_csp_blocks_a_payload_and_bypass_csp_lets_it_run(open_page: OpenPage, tmp_path: Path) -> None:
    path = write_page(tmp_path, '<p><img src=x onerror="window.__pwned=1"></p>')
    guarded = open_page(path)
    assert guarded.global_value("__pwned") is None
    assert any("Content Security Policy" in problem for problem in guarded.problems), guarded.problems
    exposed = open_page(path, bypass_csp=True)
    assert exposed.global_value("__pwned") == 1


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_each_payload_runs_when_unescaped_and_stays_text_when_escaped(
    open_page: OpenPage, tmp_path: Path, payload: str
) -> None:
    raw = open_page(write_page(tmp_path, f'<p>{payload}</p><input title="{payload}">'), bypass_csp=True)
    with pytest.raises(AssertionError, match=r"a payload (ran|opened dialogs)"):
        assert_no_script_from_data(raw)

    escaped = html.escape(payload)
    page = open_page(write_page(tmp_path, f'<p id="p">{escaped}</p><input title="{escaped}">'), bypass_csp=True)
    assert_clean(page)
    assert page.text("#p") == payload
    assert page.attribute("input", "title") == payload
