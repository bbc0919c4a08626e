"""Fixtures for tests in a real browser: one Chromium for all of tests/browser, a new context for every page.

- `chromium`: the Playwright `Browser` (Debian's /usr/bin/chromium, tests/support/chromium.py), started on
  first use and stopped after the last test of this folder (package scope). Not later: while Playwright's
  sync API is started, its asyncio loop counts as running in this thread, and every `asyncio.run()` of the
  tests after it would fail. Skipped when Chromium is not installed, except under CI (CI=true), which fails
  instead: CI must run these tests.
- `open_page`: `open_page(path, *, bypass_csp=False, color_scheme=None, width=1280, height=800, locale=None)`
  opens a file in a new browser context and returns a `harness.WatchedPage`; every context is closed after
  the test.

Every test that uses `chromium` (or `open_page`) is marked `browser`: `pytest -m "not browser"` leaves them out.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.browser.harness import WatchedPage, open_file
from tests.support.chromium import CHROMIUM, INSTALL_HINT, chromium_browser, installed

OpenPage = Callable[..., WatchedPage]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="package")
def chromium() -> Iterator[Browser]:
    if not installed():
        reason = f"{CHROMIUM} is not installed ({INSTALL_HINT})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: required in CI", pytrace=False)
        pytest.skip(reason)
    with chromium_browser() as browser:
        yield browser


@pytest.fixture
def open_page(chromium: Browser) -> Iterator[OpenPage]:
    contexts: list[BrowserContext] = []

    def opener(path: Path, **options: Any) -> WatchedPage:
        context, watched = open_file(chromium, path, **options)
        contexts.append(context)
        return watched

    yield opener
    for context in contexts:
        context.close()
