"""Arguments that cannot work are refused before the scan starts: one line, exit 2, and no SCAN sent."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.conftest import ScanResult, one_error_line, run_scan
from tests.support.kinds import require_kind
from tests.support.monitor import commandstats
from tests.support.servers import ServerProcess, refused_port, start_server


@pytest.fixture(scope="module")
def small() -> Iterator[ServerProcess]:
    """A Redis 7.0 with 16 databases (the default) and a few keys in db 0 and db 3."""
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            client.mset({b"user:%d" % i: b"x" for i in range(50)})
        with server.client(db=3) as client:
            client.set(b"job:1", b"x")
        yield server


def _refused(result: ScanResult) -> str:
    """The last line of a refusal (option errors are click's, whose layout is not ours to assert here)."""
    assert result.returncode == 2, result.describe()
    assert result.stdout == b""
    text = result.stderr.decode()
    assert "Traceback" not in text and "internal error" not in text, text
    return text.strip().splitlines()[-1]


def _scans(server: ServerProcess) -> int:
    with server.client() as client:
        return commandstats(client).get("scan", 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--db", "99"), "--db 99: redis://127.0.0.1:{port} has databases 0-15"),
        (("--db", "16"), "--db 16: redis://127.0.0.1:{port} has databases 0-15"),
        (("--resume", "99:0"), "--resume 99:0: redis://127.0.0.1:{port} has databases 0-15"),
        (("--resume", "0"), "--resume '0': expected DB:CURSOR"),
        (("--resume", "0:x"), "--resume '0:x': expected DB:CURSOR"),
        (("--resume", "-1:5"), "--resume '-1:5': expected DB:CURSOR"),
        (("--db", "2", "--resume", "3:0"), "--resume 3:0 continues database 3, not --db 2"),
        (("--match", ""), "--match '' matches no key"),
    ],
)
def test_bad_database_or_cursor(small: ServerProcess, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    before = _scans(small)
    result = run_scan(small.url, *args, cwd=tmp_path, timeout=60)
    assert result.returncode == 2, result.describe()
    assert one_error_line(result.stderr).startswith("rediscipline: error: " + message.format(port=small.port))
    assert _scans(small) == before, "the scan started before the argument was refused"


def test_database_in_the_url_out_of_range(small: ServerProcess, tmp_path: Path) -> None:
    result = run_scan(f"{small.url}/42", cwd=tmp_path, timeout=60)
    line = one_error_line(result.stderr)
    assert result.returncode == 2
    assert line == f"rediscipline: error: database 42 in the URL: redis://127.0.0.1:{small.port} has databases 0-15"


def test_an_empty_database_that_exists_is_scanned(small: ServerProcess, tmp_path: Path) -> None:
    result = run_scan(small.url, "--db", "15", "--select", "KEY", cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.describe()
    assert result.report["summary"]["keys"] == 0
    assert result.report["notes"][-1] == "no keys were read from the input"


def test_resume_into_a_database_emptied_since(small: ServerProcess, tmp_path: Path) -> None:
    """db 7 holds nothing (any more): the continuation scans it, finds nothing, and is labelled."""
    result = run_scan(small.url, "--resume", "7:12", "--select", "KEY", cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.describe()
    assert result.report["server"]["resumed_from"] == "7:12"


def test_database_count_without_config_get(small: ServerProcess, tmp_path: Path) -> None:
    """A user without CONFIG GET: the range is found with SELECT, which answers out of range past the end."""
    with small.client() as client:
        client.execute_command("ACL", "SETUSER", "noconfig", "reset", "on", ">pw", "~*", "&*", "+@all", "-config")
    line = one_error_line(run_scan(small.url_for("noconfig", "pw"), "--db", "20", cwd=tmp_path, timeout=60).stderr)
    assert line.endswith(f"--db 20: redis://noconfig@127.0.0.1:{small.port} has databases 0-15")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("redis://127.0.0.1:0", "bad port in redis://127.0.0.1:0: ports are 1-65535"),
        ("redis://[::1:6379", "bad address in redis://[::1:6379"),
        ("redis://127.0.0.1:6379/abc", "bad database 'abc' in redis://127.0.0.1:6379/abc: expected a number"),
        ("redis://127.0.0.1:6379?foo=bar", "unknown URL query option 'foo'"),
        ("redis://127.0.0.1:6379?protocol=3", "unknown URL query option 'protocol'"),
        ("redis://127.0.0.1:6379?ssl_cert_reqs=none", "URL query option 'ssl_cert_reqs' needs a TLS address"),
        ("redis://:pa#ss@127.0.0.1:notaport", "bad port in redis://127.0.0.1:notaport"),
        ("redis://:pa/ss@[::1:6379", "bad address in redis://[::1:6379"),
        ("redis://127.0.0.1:1?password=pa%23ss&foo=1", "unknown URL query option 'foo'"),
    ],
)
def test_malformed_urls_are_user_errors(tmp_path: Path, url: str, message: str) -> None:
    result = run_scan(url, cwd=tmp_path, timeout=60)
    assert one_error_line(result.stderr).startswith(f"rediscipline: error: {message}")
    _refused(result)
    for secret in ("pa#ss", "pa/ss", "pa%23ss"):
        assert secret.encode() not in result.stderr


def test_port_zero_never_reaches_the_default_port(tmp_path: Path) -> None:
    """Whatever listens on 6379 here, `:0` is refused, not silently replaced."""
    line = _refused(run_scan("redis://127.0.0.1:0", cwd=tmp_path, timeout=60))
    assert "6379" not in line


@pytest.mark.parametrize(
    "args",
    [("--batch", "0"), ("--batch", "5"), ("--sample", "-3"), ("--sample", "0"), ("--max-ops", "0"), ("--db", "-1")],
)
def test_out_of_range_options(small: ServerProcess, tmp_path: Path, args: tuple[str, ...]) -> None:
    before = _scans(small)
    line = _refused(run_scan(small.url, *args, cwd=tmp_path, timeout=60))
    assert args[0] in line
    assert _scans(small) == before


def test_output_into_a_missing_folder_is_refused_before_scanning(small: ServerProcess, tmp_path: Path) -> None:
    before = _scans(small)
    target = tmp_path / "no" / "such" / "folder" / "report.json"
    line = _refused(run_scan(small.url, "--output", str(target), cwd=tmp_path, timeout=60))
    assert f"the folder {target.parent} does not exist" in line
    assert _scans(small) == before
    assert not target.parent.exists()


@pytest.mark.parametrize("command", [("keys", "keys.txt"), ("check", "."), ("baseline", "create", ".")])
def test_output_into_a_missing_folder_every_command(tmp_path: Path, command: tuple[str, ...]) -> None:
    (tmp_path / "keys.txt").write_text("user:1\n")
    target = tmp_path / "missing" / "out.json"
    result = subprocess.run(
        [sys.executable, "-m", "rediscipline", *command, "--output", str(target), "--isolated"],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert f"the folder {target.parent} does not exist" in result.stderr.decode()
    assert "Traceback" not in result.stderr.decode()


def test_unreachable_port_mentions_no_default(tmp_path: Path) -> None:
    port = refused_port()
    line = _refused(run_scan(f"redis://127.0.0.1:{port}", cwd=tmp_path, timeout=60))
    assert line == f"rediscipline: error: cannot connect to redis://127.0.0.1:{port}: connection refused"


def test_resume_into_another_database_than_the_urls(small: ServerProcess, tmp_path: Path) -> None:
    result = run_scan(f"{small.url}/2", "--resume", "3:0", cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert one_error_line(result.stderr) == (
        "rediscipline: error: --resume 3:0 continues database 3, not database 2 in the URL"
    )
