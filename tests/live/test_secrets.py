"""A password with any characters, written into the URL in any of the ways people write it, authenticates the
scan (when it is a URL redis-py would read the same way) and never appears in an error or in any report."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rediscipline.api import LiveScanOptions, scan_live, settings_for
from rediscipline.render import RENDERERS
from rediscipline.settings.loader import Overrides
from rediscipline.sources.errors import SourceError
from tests.live.conftest import run_scan
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

SETTINGS = settings_for(Overrides(isolated=True, select=("KEY001", "SEC")))
USER = "scanner"
RAW_SHAPES = (
    "redis://{user}:{raw}@127.0.0.1:{port}",
    "redis://{user}:{raw}@127.0.0.1:{port}/0",
    "redis://{user}:{raw}@127.0.0.1:{port}?db=0",
    "unix://{user}:{raw}@{socket}",
)
ENCODED_SHAPES = (
    "redis://{user}:{encoded}@127.0.0.1:{port}",
    "redis://127.0.0.1:{port}/0?username={user}&password={encoded}",
    "unix://{socket}?username={user}&password={encoded}&db=0",
)
BROKEN_SHAPES = (
    "redis://{user}:{raw}@127.0.0.1:{port}x",
    "redis://{user}:{raw}@[::1:{port}",
    "redis://{user}:{raw}@127.0.0.1:0",
    "redis://{user}:{raw}@127.0.0.1:{port}/abc",
    "redis://{user}:{encoded}@127.0.0.1:{port}?nonsense=1",
    "redis://127.0.0.1:{port}?password={encoded}&username={user}&db=x",
    "redis://{user}:{encoded}@127.0.0.1:1",  # nothing listens on port 1
    "redis://{user}:wrong{encoded}@127.0.0.1:{port}",
)


@pytest.fixture(scope="module")
def guarded() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70", unixsocket=True) as server:
        with server.client() as client:
            client.mset({b"user:%d" % i: b"x" for i in range(20)})
        yield server


@pytest.fixture(scope="module")
def vocabulary(guarded: ServerProcess) -> str:
    """Everything a scan of this server shows when the password is one no report could contain: the tool's
    own words (`unreadable`, rule titles, the port), which a password may happen to spell."""
    password = "Zq7-no-report-says-this"
    _set_password(guarded, password)
    shown, scanned = _outputs(f"redis://{USER}:{password}@127.0.0.1:{guarded.port}")
    assert scanned and password not in shown
    return shown


def _set_password(server: ServerProcess, password: str) -> None:
    with server.client() as client:
        client.execute_command("ACL", "SETUSER", USER, "reset", "on", f">{password}", "~*", "&*", "+@read", "+info")


def _outputs(url: str) -> tuple[str, bool]:
    """Everything the scan shows (error, or every report format), and whether it read the server."""
    try:
        report = scan_live(LiveScanOptions(url, timeout=5), SETTINGS)
    except SourceError as error:
        return str(error), False
    shown = []
    for name, render in RENDERERS.items():
        stream = io.StringIO()
        render(report, stream, "en", name == "text")
        shown.append(stream.getvalue())
    return "\n".join(shown), report.stats.keys == 20


PASSWORDS = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=8, max_size=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(password=PASSWORDS, shape=st.sampled_from(RAW_SHAPES + ENCODED_SHAPES + BROKEN_SHAPES))
def test_no_output_ever_holds_the_password(guarded: ServerProcess, vocabulary: str, password: str, shape: str) -> None:
    assume(password.strip() == password)  # ACL passwords are arguments; keep the test about URLs
    assume(password not in vocabulary and quote(password, safe="") not in vocabulary)  # not a leak if always shown
    _set_password(guarded, password)
    fields = {"user": USER, "raw": password, "encoded": quote(password, safe=""), "port": guarded.port}
    url = shape.format(socket=guarded.unixsocket, **fields)
    shown, scanned = _outputs(url)
    for secret in (password, quote(password, safe="")):
        assert secret not in shown, (url, shown[:500])
    if shape in ENCODED_SHAPES or (shape in RAW_SHAPES and "%" not in password):
        assert scanned, (url, shown[:500])  # the URL means that password: the scan authenticated with it
    if shape in BROKEN_SHAPES:
        assert not scanned


@pytest.mark.parametrize("password", ["pa#ss:w0rd", "pa/ss?x=1", "p@ss@word", "a b+c&d=e", "naïve密码"])
def test_cli_with_special_characters_in_the_password(guarded: ServerProcess, tmp_path: Path, password: str) -> None:
    _set_password(guarded, password)
    for url in (
        f"redis://{USER}:{password}@127.0.0.1:{guarded.port}",
        f"redis://127.0.0.1:{guarded.port}?username={USER}&password={quote(password, safe='')}",
    ):
        for fmt in ("json", "text"):
            result = run_scan(url, cwd=tmp_path, fmt=fmt, timeout=60)
            assert result.returncode in (0, 1), result.describe()
            for output in (result.stdout, result.stderr):
                assert password.encode() not in output
                assert quote(password, safe="").encode() not in output
        broken = run_scan(url.replace(f":{guarded.port}", ":0"), cwd=tmp_path, timeout=60)
        assert broken.returncode == 2 and password.encode() not in broken.stderr
