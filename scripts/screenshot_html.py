"""Screenshot HTML reports in headless Chromium: the whole page, 1280 px wide, as PNG (`make demo-html`).

    python scripts/screenshot_html.py PAGE.html IMAGE.png [PAGE.html IMAGE.png ...] [--width 1280]
                                      [--max-height N]

Each page is opened from its file in Debian's Chromium (tests/support/chromium.py) with the browser tests'
harness (tests/browser/harness.py): every request is aborted and every problem the page reports (a request,
a console error or warning, an uncaught exception, a dialog) is printed; the image is written all the same,
and the exit code is 1. A page in Chinese (`<html lang="zh…">`) needs a CJK font, or its text is drawn as
boxes: without one (fontconfig's `fc-list :lang=zh` finds none) the page is refused with the package to
install.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support and tests.browser live in the repository

from tests.browser.harness import open_file  # noqa: E402
from tests.support import chromium  # noqa: E402

CJK_FONT_HINT = "apt-get install fonts-noto-cjk"


def has_cjk_font() -> bool:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    found = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True, check=False)
    return bool(found.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("pairs", nargs="+", metavar="PAGE IMAGE", help="an HTML file and the PNG to write")
    parser.add_argument("--width", type=int, default=1280, help="viewport width in CSS pixels (default 1280)")
    parser.add_argument(
        "--max-height", type=int, default=0, help="keep only the top N CSS pixels of the page (default: all of it)"
    )
    args = parser.parse_args(argv)
    if len(args.pairs) % 2:
        parser.error("give pages and images in pairs: PAGE.html IMAGE.png ...")
    pairs = [(Path(page), Path(image)) for page, image in zip(args.pairs[::2], args.pairs[1::2], strict=True)]
    missing = [str(page) for page, _ in pairs if not page.is_file()]
    if missing:
        print(f"screenshot: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    if not chromium.installed():
        print(f"screenshot: {chromium.CHROMIUM} not found: {chromium.INSTALL_HINT}", file=sys.stderr)
        return 2
    failed = False
    with chromium.chromium_browser() as browser:
        for page_path, image in pairs:
            context, page = open_file(browser, page_path, width=args.width)
            try:
                lang = page.attribute("html", "lang") or ""
                if lang.lower().startswith("zh") and not has_cjk_font():
                    print(
                        f"screenshot: {page_path} is in Chinese and no CJK font is installed: {CJK_FONT_HINT}",
                        file=sys.stderr,
                    )
                    return 2
                page.page.evaluate("document.fonts.ready.then(() => true)")
                image.parent.mkdir(parents=True, exist_ok=True)
                width = page.page.evaluate("document.documentElement.scrollWidth")
                height = page.page.evaluate("document.documentElement.scrollHeight")
                if args.max_height and height > args.max_height:
                    height = args.max_height
                    clip = {"x": 0, "y": 0, "width": width, "height": height}
                    page.page.screenshot(path=image, full_page=True, clip=clip, animations="disabled")
                else:
                    page.screenshot(image)
                print(f"screenshot: {image} ({width} x {height} CSS px) from {page_path}")
                problems = [f"request {r}" for r in page.requests] + page.problems + page.dialogs
                for problem in problems:
                    print(f"screenshot: {page_path}: {problem}", file=sys.stderr)
                failed = failed or bool(problems)
            finally:
                context.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
