"""`rediscipline scan` end to end, as a subprocess, against real servers of every installed kind.

The dataset's manifest is the ground truth: every seed must be reported with its rule, code and pattern; no
finding may touch a clean key; the scan must be read-only (MONITOR + commandstats); bad input ends in exit 2
and one line on stderr.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.live.conftest import (
    ScanResult,
    cli_env,
    connect,
    example_keys,
    name_of,
    one_error_line,
    require_kind,
    run_scan,
    scan_command,
    scan_dataset,
    summarize,
)
from tests.support.dataset import Manifest, bulk, pattern_of, populate, reset_idle
from tests.support.monitor import MonitorRecorder, calls_between, commandstats, forbidden_commands, forbidden_in_stats
from tests.support.servers import ServerProcess, refused_port, start_server, supports_tls, tls_files

# ---- the main scan, once per kind ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def scanned(server: ServerProcess, dataset: Manifest, tmp_path_factory: pytest.TempPathFactory) -> ScanResult:
    return scan_dataset(server, dataset, cwd=tmp_path_factory.mktemp("scan"))


def _matches(finding: dict[str, Any], rule: str, code: str | None, pattern: bytes | None) -> bool:
    if finding["rule"] != rule or (code is not None and finding["code"] != code):
        return False
    return pattern is None or name_of(finding, "pattern") == pattern


def missing_seeds(findings: list[dict[str, Any]], manifest: Manifest, skip: set[str] | None = None) -> list[str]:
    """Seeds without a finding of their rule, code and pattern counting at least their keys."""
    missing = []
    for seed in manifest.seeds:
        if skip and seed.rule in skip:
            continue
        hits = [f for f in findings if _matches(f, seed.rule, seed.code, seed.pattern)]
        if seed.pattern is not None:  # a key finding counts keys; an instance finding counts 1
            hits = [f for f in hits if f["count"] >= len(seed.keys)]
        if not hits:
            missing.append(f"{seed.rule} {seed.code} pattern={(seed.pattern or b'')[:60]!r} keys={len(seed.keys)}")
    return missing


def test_scan_exits_1_with_a_report_of_every_key(scanned: ScanResult, dataset: Manifest) -> None:
    assert scanned.returncode == 1, scanned.describe()
    assert "Traceback" not in scanned.stderr.decode(errors="replace")
    report = scanned.report
    assert report["schema"] == "rediscipline.report"
    assert report["run"]["command"] == "scan"
    assert report["summary"]["keys"] == sum(dataset.keys_per_db.values())
    assert report["summary"]["max_severity"] == "error"


def test_every_seed_is_found(scanned: ScanResult, dataset: Manifest) -> None:
    missing = missing_seeds(scanned.findings, dataset)
    assert not missing, "missing:\n  " + "\n  ".join(missing) + "\nfindings:\n" + summarize(scanned.findings)


def test_no_finding_touches_clean_keys(scanned: ScanResult, dataset: Manifest) -> None:
    bad = []
    for finding in scanned.findings:
        pattern = name_of(finding, "pattern")
        clean_examples = [key[:40] for key in example_keys(finding) if dataset.is_clean_name(key)]
        if pattern in dataset.clean_patterns or clean_examples:
            bad.append(f"{finding['rule']} {finding['code']} {pattern!r} examples {clean_examples}")
    assert not bad, "findings on clean keys:\n  " + "\n  ".join(bad)


def test_seed_keys_trip_only_their_rules(scanned: ScanResult, dataset: Manifest) -> None:
    expected: dict[bytes, set[tuple[str, str | None]]] = {}
    for seed in dataset.seeds:
        if seed.pattern is not None:
            expected.setdefault(seed.pattern, set()).add((seed.rule, seed.code))
    seed_patterns = {pattern_of(key) for (_db, key) in dataset.shapes}
    unexpected = []
    for finding in scanned.findings:
        if "pattern" not in finding:
            continue
        pattern = name_of(finding, "pattern")
        allowed = expected.get(pattern, set())
        if (finding["rule"], finding["code"]) in allowed or (finding["rule"], None) in allowed:
            continue
        if pattern in seed_patterns or pattern in expected:
            unexpected.append(f"{finding['rule']} {finding['code']} on {pattern[:60]!r}")
    assert not unexpected, "seed keys tripped rules the manifest does not list:\n  " + "\n  ".join(unexpected)


# ---- read-only by construction -------------------------------------------------------------------------------------

ACL_RULES = ["on", ">pw", "~*", "&*", "-@all", "+@read", "+info", "+config|get"]


def _add_scanner_user(client: redis.Redis) -> None:
    try:
        client.execute_command("ACL", "SETUSER", "scanner", "reset", *ACL_RULES)
    except redis.ResponseError:  # a server without pub/sub channel rules (`&*`)
        client.execute_command("ACL", "SETUSER", "scanner", "reset", *(r for r in ACL_RULES if r != "&*"))


def test_read_only_acl_user_suffices(server: ServerProcess, dataset: Manifest, tmp_path: Path) -> None:
    with connect(server) as client:
        _add_scanner_user(client)
    result = scan_dataset(server, dataset, cwd=tmp_path, url=server.url_for("scanner", "pw"))
    assert result.returncode == 1, result.describe()
    assert "Traceback" not in result.stderr.decode(errors="replace")
    missing = missing_seeds(result.findings, dataset)
    assert not missing, "missing with a read-only user:\n  " + "\n  ".join(missing)


def test_scan_sends_no_forbidden_or_write_command(server: ServerProcess, dataset: Manifest, tmp_path: Path) -> None:
    with connect(server) as client:
        reset_idle(client, dataset)
        before = commandstats(client)
        with MonitorRecorder(server) as recorder:
            result = run_scan(server.url, cwd=tmp_path)
        calls = calls_between(before, commandstats(client))
        calls["monitor"] = calls.get("monitor", 1) - 1  # the recorder's own
        calls = {name: count for name, count in calls.items() if count > 0}
        records = recorder.records
        assert result.returncode == 1, result.describe()
        assert any(r.name == "scan" for r in records), "MONITOR saw no SCAN"
        problems = forbidden_commands(records, client) + forbidden_in_stats(calls, client)
    assert not problems, "\n".join(problems[:30])


def test_a_second_scan_still_sees_idle_keys(server: ServerProcess, dataset: Manifest, tmp_path: Path) -> None:
    """Probes must not reset the LRU clock: CLIENT NO-TOUCH (7.2+) makes every probe harmless.

    Before 7.2 nothing can read a length without touching the key, so the scan reads OBJECT IDLETIME first
    (the first scan is right), and the report says the later probes refreshed LRU/LFU data.
    """
    first = scan_dataset(server, dataset, "--select", "TTL004", cwd=tmp_path)
    second = run_scan(server.url, "--select", "TTL004", cwd=tmp_path)
    no_touch = tuple(int(p) for p in server.version.split(".")[:2]) >= (7, 2)
    scans = (("first", first), ("second", second)) if no_touch else (("first", first),)
    for label, result in scans:
        missing = missing_seeds(result.findings, dataset, skip=dataset.rules() - {"TTL004"})
        assert not missing, f"{label} scan: idle keys not reported (LRU clock reset by an earlier probe?): {missing}"
        assert result.returncode == 1, result.describe()
    if not no_touch:
        assert "CLIENT NO-TOUCH" in first.report["server"]["unavailable"]
        assert any("CLIENT NO-TOUCH is unavailable" in note for note in first.report["notes"])


# ---- addresses and credentials ---------------------------------------------------------------------------------

SECRET = "Sup3r-Secret-Passw0rd"


@pytest.fixture(scope="module")
def protected(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A Redis 7.0 with a password, a unix socket, TLS when the binary has it, and a small dataset."""
    require_kind("redis70")
    tls = supports_tls("redis70")
    server = start_server("redis70", password=SECRET, unixsocket=True, tls=tls)
    try:
        with server.client() as client:
            manifest = populate(client, 500)
        yield server, manifest
    finally:
        server.stop()


def _no_secret(result: ScanResult) -> None:
    assert SECRET.encode() not in result.stdout
    assert SECRET.encode() not in result.stderr


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_password_env_works_and_is_never_printed(protected: Any, tmp_path: Path, fmt: str) -> None:
    server, manifest = protected
    env = {"RD_TEST_PW": SECRET}
    result = scan_dataset(server, manifest, "--password-env", "RD_TEST_PW", cwd=tmp_path, env=env, fmt=fmt)
    assert result.returncode == 1, result.describe()
    _no_secret(result)
    if fmt == "json":
        assert not missing_seeds(result.findings, manifest)


def test_password_in_url_is_never_printed(protected: Any, tmp_path: Path) -> None:
    server, _manifest = protected
    for fmt in ("json", "text"):
        result = run_scan(server.url_for(None, SECRET), cwd=tmp_path, fmt=fmt)
        assert result.returncode == 1, result.describe()
        _no_secret(result)


def test_unix_socket_url(protected: Any, tmp_path: Path) -> None:
    server, manifest = protected
    env = {"RD_TEST_PW": SECRET}
    result = scan_dataset(server, manifest, "--password-env", "RD_TEST_PW", url=server.unix_url, cwd=tmp_path, env=env)
    assert result.returncode == 1, result.describe()
    assert not missing_seeds(result.findings, manifest)


def test_tls_url(protected: Any, tmp_path: Path) -> None:
    server, manifest = protected
    if server.tls_port is None:
        pytest.skip("this redis-server was built without TLS")
    env = {"RD_TEST_PW": SECRET, "SSL_CERT_FILE": str(tls_files().cert)}  # trust the self-signed test CA
    result = scan_dataset(server, manifest, "--password-env", "RD_TEST_PW", url=server.tls_url, cwd=tmp_path, env=env)
    assert result.returncode == 1, result.describe()
    assert not missing_seeds(result.findings, manifest)


# ---- bad input: exit 2, one line, no traceback -----------------------------------------------------------------


def _fails_cleanly(result: ScanResult) -> str:
    assert result.returncode == 2, result.describe()
    assert result.stdout == b"", result.stdout[:500]
    line = one_error_line(result.stderr)
    assert "internal error" not in line, line  # an expected failure deserves a real message
    _no_secret(result)
    return line


def test_unreachable_port(tmp_path: Path) -> None:
    line = _fails_cleanly(run_scan(f"redis://127.0.0.1:{refused_port()}", cwd=tmp_path, timeout=60))
    assert "127.0.0.1" in line


def test_wrong_password(protected: Any, tmp_path: Path) -> None:
    server, _ = protected
    _fails_cleanly(run_scan(server.url_for(None, "wrong"), cwd=tmp_path, timeout=60))


def test_password_required_but_missing(protected: Any, tmp_path: Path) -> None:
    server, _ = protected
    _fails_cleanly(run_scan(server.url, cwd=tmp_path, timeout=60))


def test_password_env_variable_unset(protected: Any, tmp_path: Path) -> None:
    server, _ = protected
    line = _fails_cleanly(run_scan(server.url, "--password-env", "RD_TEST_UNSET_VARIABLE", cwd=tmp_path, timeout=60))
    assert "RD_TEST_UNSET_VARIABLE" in line


def test_unknown_scheme(tmp_path: Path) -> None:
    line = _fails_cleanly(run_scan(f"http://127.0.0.1:{refused_port()}", cwd=tmp_path, timeout=60))
    assert "http" in line


def test_tls_to_a_plain_port(protected: Any, tmp_path: Path) -> None:
    server, _ = protected
    started = time.monotonic()
    _fails_cleanly(run_scan(f"rediss://127.0.0.1:{server.port}", "--timeout", "2", cwd=tmp_path, timeout=120))
    assert time.monotonic() - started < 30


def test_missing_unix_socket(tmp_path: Path) -> None:
    _fails_cleanly(run_scan(f"unix://{tmp_path}/nope.sock", cwd=tmp_path, timeout=60))


def test_server_killed_mid_scan(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            bulk(client, 100_000)
        process = subprocess.Popen(
            scan_command(server.url),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env=cli_env(),
        )
        try:
            with server.client(socket_timeout=5) as client:
                deadline = time.monotonic() + 60
                # several SCAN rounds: the first batches' probes are answered, so some keys are in the report
                while commandstats(client).get("scan", 0) < 5 and process.poll() is None:
                    assert time.monotonic() < deadline, "the scan never started"
                    time.sleep(0.01)
            assert process.poll() is None, "the scan finished before the server could be killed"
            server.kill()
            stdout, stderr = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    # the server is gone for good: the partial report is written, then one line and exit 2
    result = ScanResult(process.returncode, stdout, stderr)
    assert result.returncode == 2, result.describe()
    line = one_error_line(result.stderr)
    server_part = result.report["server"]
    assert server_part["partial"] == ["connection-lost"]
    cursor = server_part["resume_cursor"]
    assert cursor is not None and cursor.startswith("0:")
    assert line.endswith(f"resume with --resume {cursor}"), line
    assert "connection refused" in server_part["stopped"]
    assert 0 < result.report["summary"]["keys"] < 100_000
    assert any(note.startswith("scan stopped: lost the connection") for note in result.report["notes"])


# ---- a 2,000,000-member sorted set -----------------------------------------------------------------------------


def test_two_million_member_zset(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            manifest = populate(client, 2_000, huge=True)
        result = run_scan(server.url, cwd=tmp_path)
    assert result.returncode == 1, result.describe()
    assert not missing_seeds(result.findings, manifest)
