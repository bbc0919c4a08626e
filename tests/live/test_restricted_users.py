"""Users who may not read everything: keys outside their ACL key patterns are reported as unreadable (not as
vanished), with their patterns and what they cost; a user without INFO still finds every database; databases
that cannot be selected are named. Every server kind with ACLs (6.0+) is tried."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.live.conftest import name_of, run_scan
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, start_server

APP_KEYS = 40
UNREADABLE = {b"session:%d" % i: b"s" for i in range(25)} | {b"Billing:Invoice:%d" % i: b"b" for i in range(15)}


def _user(client: redis.Redis, name: str, *rules: str) -> None:
    """An ACL user with a password; `&*` (channel rules) only where the server knows it (6.2+)."""
    try:
        client.execute_command("ACL", "SETUSER", name, "reset", "on", ">pw", "&*", *rules)
    except redis.ResponseError:
        client.execute_command("ACL", "SETUSER", name, "reset", "on", ">pw", *rules)


@pytest.fixture
def filled(kind: str) -> Iterator[ServerProcess]:
    """A server of `kind` with app keys and others in db0, and a few keys in db3 and db5."""
    require_kind(kind)
    with start_server(kind) as server:
        with server.client() as client:
            client.mset({b"app:user:%d" % i: b"v" * 20 for i in range(APP_KEYS)})
            client.mset(UNREADABLE)
        for db, count in ((3, 7), (5, 11)):
            with server.client(db=db) as client:
                client.mset({b"jobs:%d:%d" % (db, i): b"j" for i in range(count)})
        yield server


def test_keys_outside_the_users_patterns_are_unreadable_not_vanished(filled: ServerProcess, tmp_path: Path) -> None:
    with filled.client() as client:
        _user(client, "app", "~app:*", "-@all", "+@read", "+scan", "+info", "+config|get")
    result = run_scan(filled.url_for("app", "pw"), "--db", "0", cwd=tmp_path)
    assert result.returncode == 1, result.describe()
    report = result.report
    server = report["server"]
    assert server["partial"] == ["unreadable-keys"]
    unreadable = server["unreadable"]
    assert unreadable["keys"] == len(UNREADABLE)
    patterns = {name_of(p, "pattern"): p["count"] for p in unreadable["patterns"]}
    assert patterns == {b"session:*": 25, b"Billing:Invoice:*": 15}
    assert "VAL001" in unreadable["rules_not_judged"] and "TTL001" in unreadable["rules_not_judged"]
    assert not any(rule.startswith("KEY") for rule in unreadable["rules_not_judged"])
    # names were judged: the upper-case keys are reported, with their database
    upper = [f for f in report["findings"] if f["rule"] == "KEY006"]
    assert len(upper) == 1 and upper[0]["count"] == 15 and upper[0]["examples"][0]["db"] == 0
    assert report["summary"]["keys"] == APP_KEYS + len(UNREADABLE)
    assert report["keyspace"]["keys"] == APP_KEYS
    assert report["keyspace"]["skipped"] == 0
    note = next(n for n in report["notes"] if "not readable by this user" in n)
    assert note.startswith(
        f"{len(UNREADABLE)} keys are not readable by this user (ACL key permissions), e.g. session:* (25)"
    )
    text = run_scan(filled.url_for("app", "pw"), "--db", "0", cwd=tmp_path, fmt="text").stdout.decode()
    assert "PARTIAL: unreadable-keys" in text
    assert "vanished" not in text


def test_user_without_info_finds_every_database(filled: ServerProcess, tmp_path: Path) -> None:
    with filled.client() as client:
        _user(client, "noinfo", "~*", "-@all", "+@read", "+scan", "+select", "+config|get")
    result = run_scan(filled.url_for("noinfo", "pw"), cwd=tmp_path)
    assert result.returncode == 1, result.describe()
    report = result.report
    server = report["server"]
    assert "INFO" in server["unavailable"]
    assert server["databases"] == {"0": APP_KEYS + len(UNREADABLE), "3": 7, "5": 11}
    assert server["version"] == filled.version  # from HELLO
    assert report["summary"]["keys"] == APP_KEYS + len(UNREADABLE) + 7 + 11
    assert server["partial"] == []
    assert any(note.startswith("INFO was refused:") for note in report["notes"])


def test_user_without_info_nor_select_says_what_was_not_scanned(filled: ServerProcess, tmp_path: Path) -> None:
    with filled.client() as client:
        _user(client, "db0only", "~*", "-@all", "+@read", "+scan", "+config|get")
    report = run_scan(filled.url_for("db0only", "pw"), cwd=tmp_path).report
    assert report["server"]["partial"] == ["databases-not-scanned"]
    assert report["summary"]["keys"] == APP_KEYS + len(UNREADABLE)
    expected = "INFO and SELECT were refused: databases other than db0 (db1-db15) could be neither counted nor scanned"
    assert expected in report["notes"]


def test_user_without_select_names_the_databases_not_scanned(filled: ServerProcess, tmp_path: Path) -> None:
    with filled.client() as client:
        _user(client, "noselect", "~*", "-@all", "+@read", "+scan", "+info", "+config|get")
    report = run_scan(filled.url_for("noselect", "pw"), cwd=tmp_path).report
    server = report["server"]
    assert server["databases_not_scanned"] == [3, 5]
    assert server["partial"] == ["databases-not-scanned"]
    assert any(
        n.startswith("databases not scanned (SELECT refused): db3, db5; their keys are missing")
        for n in report["notes"]
    )


def test_databases_not_scanned_are_not_mistaken_for_a_shrinking_keyspace(tmp_path: Path) -> None:
    require_kind("redis70")
    with start_server("redis70") as server:
        with server.client() as client:
            client.mset({b"app:%d" % i: b"v" for i in range(100)})
            _user(client, "noselect", "~*", "-@all", "+@read", "+scan", "+info", "+config|get")
        with server.client(db=3) as client:
            client.mset({b"jobs:%d" % i: b"j" for i in range(2_000)})
        report = run_scan(server.url_for("noselect", "pw"), cwd=tmp_path).report
    assert report["server"]["partial"] == ["databases-not-scanned"]
    assert report["server"]["databases_not_scanned"] == [3]
    assert report["summary"]["keys"] == 100
