"""Debian's Chromium driven by Playwright: the one way the tests, the benchmark and the screenshots start a browser.

Playwright (PyPI, the dev extra) talks to `/usr/bin/chromium` from Debian's `chromium` package; it never
downloads a browser of its own (`playwright install` is never run: this machine and CI reach PyPI, Debian and
npm only). The flags suit a sandboxed machine without a network, run as root:

- `--headless`, `--no-sandbox` (root has no user namespace sandbox here), `--disable-gpu`;
- no connection of Chromium's own: `--disable-background-networking`, `--disable-component-update`,
  `--disable-sync`, `--disable-quic`, `--no-first-run` (without them it tries Google's hosts at every start,
  and the closed network refuses them many at a time).

Each launch gets a fresh, empty user-data directory, which Playwright makes and removes itself (it refuses a
`--user-data-dir` flag). Playwright's node driver starts in ~0.4 s and Chromium in ~0.3-0.8 s on this machine.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Playwright, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
INSTALL_HINT = "apt-get install chromium chromium-driver"
LAUNCH_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: What a page waits for at most, in milliseconds (Playwright's default of 30 s hides a hang for too long).
TIMEOUT_MS = 15_000


def installed() -> bool:
    return CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)


def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless, with the flags above and a fresh profile."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=list(LAUNCH_ARGS))


@contextmanager
def chromium_browser() -> Iterator[Browser]:
    """Playwright's driver and one Chromium for the `with` block; both are stopped when it ends."""
    if not installed():
        raise FileNotFoundError(f"{CHROMIUM} not found: {INSTALL_HINT}")
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()
