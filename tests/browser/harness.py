"""A page opened from a file in a real Chromium, with everything it tried recorded: the browser tests' harness.

`open_file(browser, path)` loads `file://PATH` in a new browser context and returns a `WatchedPage`:

- every request other than the page itself is recorded (`requests`) and aborted, file:// ones included (a
  self-contained page needs no other file either). Chromium makes no request for a favicon on a file:// page,
  not even for `<link rel="icon" href="http://...">` (headless has no favicon service): `external_references`
  reads such references from the DOM instead;
- console messages (`console`; `problems` keeps errors and warnings) and uncaught exceptions (`page_errors`).
  Chromium reports each Content-Security-Policy violation as a console error ("... violates the following
  Content Security Policy directive ..."), and each aborted request as "Failed to load resource";
- dialogs (`dialogs`: alert, confirm, prompt, beforeunload), each dismissed at once.

A payload that reaches the markup unescaped is blocked by a strict CSP before it runs, so an XSS test that
only looks for its effect proves the CSP, not the escaping: open the page with `bypass_csp=True` as well (the
payload then runs if it is markup, and `assert_no_script_from_data` fails).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Dialog, Error, Page, Request, Route

from tests.support.chromium import TIMEOUT_MS

#: Globals the hostile payloads set; `assert_no_script_from_data` checks that none exists.
PROBE_GLOBALS = ("__pwned", "__xss")

#: Strings that run script if a page puts them into its markup unescaped (each sets `window.__pwned` or opens a
#: dialog, without any user action). Put them where data goes: key names, patterns, targets, examples.
XSS_PAYLOADS = (
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=1</script>",
    "<svg onload=window.__pwned=1>",
    '"><img src=x onerror=window.__pwned=1>',
    "'><img src=x onerror=window.__pwned=1>",
    '" autofocus onfocus="window.__pwned=1" x="',
    "</title></textarea></style><script>alert(1)</script>",
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    "<details open ontoggle=window.__pwned=1>",
)

#: The attributes whose value the browser loads or navigates to.
_URL_ATTRIBUTES = ("src", "href", "srcset", "action", "formaction", "poster", "data", "xlink:href", "background")
_EXTERNAL_REFERENCES_JS = """(attributes) => {
    const external = /^\\s*(?:[a-z][a-z0-9+.-]*:)?\\/\\//i;  // http://, https://, ws://, //host: not data:, #id
    const found = [];
    for (const el of document.querySelectorAll("*")) {
        for (const name of attributes) {
            const value = el.getAttribute(name);
            if (value !== null && external.test(value)) found.push(`${el.localName}[${name}]=${value}`);
        }
        const style = el.getAttribute("style");
        const offFile = /url\\(\\s*['"]?\\s*(?:[a-z]+:)?\\/\\//i;
        if (style && offFile.test(style)) found.push(`${el.localName}[style]=${style}`);
    }
    for (const sheet of document.querySelectorAll("style")) {
        for (const m of sheet.textContent.matchAll(/(?:url\\(|@import)\\s*['"]?\\s*((?:[a-z]+:)?\\/\\/[^'")\\s]*)/gi)) {
            found.push(`style=${m[1]}`);
        }
    }
    return found;
}"""


@dataclass(frozen=True)
class ConsoleEntry:
    type: str  # "log", "error", "warning", "info", "debug"...
    text: str

    def __str__(self) -> str:
        return f"{self.type}: {self.text}"


@dataclass
class WatchedPage:
    """A loaded page and what it did; the helpers wrap Playwright's calls that the report tests use."""

    page: Page
    url: str
    requests: list[str] = field(default_factory=list)  # "resource_type url", in order
    console: list[ConsoleEntry] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)  # "type: message"

    @property
    def problems(self) -> list[str]:
        """Console errors and warnings, then uncaught exceptions."""
        found = [str(entry) for entry in self.console if entry.type in ("error", "warning")]
        return found + [f"uncaught: {error}" for error in self.page_errors]

    # ---- reading -------------------------------------------------------------------------------------------

    def count(self, selector: str) -> int:
        """Elements matching the CSS selector, shown or not."""
        return self.page.locator(selector).count()

    def count_visible(self, selector: str) -> int:
        """Elements matching the CSS selector that are rendered (not `hidden`, not display:none, not empty)."""
        return self.page.locator(selector).filter(visible=True).count()

    def text(self, selector: str) -> str:
        """The rendered text of the one element matching `selector` (Playwright fails when there are more)."""
        return self.page.locator(selector).inner_text().strip()

    def texts(self, selector: str) -> list[str]:
        """The rendered text of every element matching `selector`, in document order."""
        return [text.strip() for text in self.page.locator(selector).all_inner_texts()]

    def attribute(self, selector: str, name: str) -> str | None:
        return self.page.locator(selector).get_attribute(name)

    def style(self, selector: str, prop: str) -> str:
        """The computed value of CSS property `prop` (e.g. "background-color") of the one matching element."""
        value: str = self.page.locator(selector).evaluate("(el, p) => getComputedStyle(el).getPropertyValue(p)", prop)
        return value

    def settle(self) -> None:
        """Wait for the next frame and the task after it: what a payload queued on load (a toggle event, an
        iframe's script, an error event) has run by then."""
        self.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")

    def global_value(self, name: str) -> object:
        """`window[name]` (None when unset)."""
        return self.page.evaluate("(name) => window[name] ?? null", name)

    # ---- acting --------------------------------------------------------------------------------------------

    def click(self, selector: str) -> None:
        self.page.locator(selector).click()

    def search(self, text: str, selector: str = "#search") -> None:
        """Type `text` into the search box key by key, as a person does (one input event per character)."""
        box = self.page.locator(selector)
        box.fill("")
        box.press_sequentially(text)

    def color_scheme(self, scheme: Literal["dark", "light", "no-preference"]) -> None:
        """Emulate `prefers-color-scheme` (media queries and matchMedia see it at once, no reload)."""
        self.page.emulate_media(color_scheme=scheme)

    def print_media(self, on: bool = True) -> None:
        """Emulate `@media print` (what the page looks like printed), or the screen again."""
        self.page.emulate_media(media="print" if on else "screen")

    def screenshot(self, path: Path, *, full_page: bool = True) -> bytes:
        """A PNG of the page (the whole scrolled height by default), written to `path` and returned."""
        return self.page.screenshot(path=path, full_page=full_page, animations="disabled")

    def external_references(self) -> list[str]:
        """`tag[attr]=value` for every URL attribute, style attribute or <style> that points off this file."""
        found: list[str] = self.page.evaluate(_EXTERNAL_REFERENCES_JS, list(_URL_ATTRIBUTES))
        return found


def open_file(
    browser: Browser,
    path: Path,
    *,
    bypass_csp: bool = False,
    color_scheme: Literal["dark", "light", "no-preference"] | None = None,
    width: int = 1280,
    height: int = 800,
    locale: str | None = None,
) -> tuple[BrowserContext, WatchedPage]:
    """Open `path` in a new context of `browser`, watched from its first request; the caller closes the context."""
    url = path.resolve().as_uri()
    context = browser.new_context(
        viewport={"width": width, "height": height},
        bypass_csp=bypass_csp,
        color_scheme=color_scheme,
        locale=locale,
        service_workers="block",
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    watched = WatchedPage(page=page, url=url)

    def route(handler: Route) -> None:
        request = handler.request
        if request.url == url and request.is_navigation_request() and request.frame == page.main_frame:
            handler.continue_()
        else:
            handler.abort()

    def on_request(request: Request) -> None:
        if not (request.url == url and request.is_navigation_request() and request.frame == page.main_frame):
            watched.requests.append(f"{request.resource_type} {request.url}")

    def on_console(message: ConsoleMessage) -> None:
        watched.console.append(ConsoleEntry(message.type, message.text))

    def on_page_error(error: Error) -> None:
        watched.page_errors.append(error.message)

    def on_dialog(dialog: Dialog) -> None:
        watched.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    try:
        context.route("**/*", route)
        context.on("request", on_request)
        page.on("console", on_console)
        page.on("pageerror", on_page_error)
        page.on("dialog", on_dialog)
        page.goto(url, wait_until="load")
    except BaseException:
        context.close()
        raise
    return context, watched


# ---- assertions ------------------------------------------------------------------------------------------------


def assert_no_network(watched: WatchedPage) -> None:
    """The page requested nothing but itself, and references nothing off this file."""
    assert watched.requests == [], "the page made requests:\n  " + "\n  ".join(watched.requests)
    references = watched.external_references()
    assert references == [], "the page references other hosts:\n  " + "\n  ".join(references)


def assert_no_console_problems(watched: WatchedPage) -> None:
    """No console error or warning (CSP violations and failed loads are errors), no uncaught exception."""
    assert watched.problems == [], "the page reported problems:\n  " + "\n  ".join(watched.problems)


def assert_no_script_from_data(watched: WatchedPage, probes: tuple[str, ...] = PROBE_GLOBALS) -> None:
    """No hostile payload ran: none of the `probes` globals is set and no dialog opened."""
    watched.settle()
    set_globals = [name for name in probes if watched.global_value(name) is not None]
    assert set_globals == [], f"a payload ran: window.{', window.'.join(set_globals)} set"
    assert watched.dialogs == [], "a payload opened dialogs:\n  " + "\n  ".join(watched.dialogs)


def assert_clean(watched: WatchedPage) -> None:
    """All of the above: no request, no external reference, no problem in the console, no payload run."""
    assert_no_network(watched)
    assert_no_console_problems(watched)
    assert_no_script_from_data(watched)
