"""The real config rules (SEC/CFG rules checked on `config`) run on files through the engine: the exact
findings, and the setting each violation names with the line `check` will point at."""

from __future__ import annotations

import os

import pytest

from rediscipline.sources.config import read_acl_file, read_redis_conf
from tests.sources.config.support import CASES, findings, settings

LAZYFREE = (
    "lazyfree-lazy-eviction",
    "lazyfree-lazy-expire",
    "lazyfree-lazy-server-del",
    "lazyfree-lazy-user-del",
    "lazyfree-lazy-user-flush",
    "replica-lazy-flush",
)
OPEN_COMMANDS = ("config", "flushall", "flushdb", "keys", "monitor")
DEBIAN_CONF = "/etc/redis/redis.conf"


def test_stock_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_redis_conf("default-7.0.conf")
    assert findings(server) == [
        ("CFG001", "unset", "error"),
        *[("CFG003", name, "warning") for name in LAZYFREE],
        *[("SEC001", name, "error") for name in OPEN_COMMANDS],
        ("SEC002", "nopass", "error"),
    ]
    lines = {"lazyfree-lazy-eviction": 60, "lazyfree-lazy-expire": 61, "lazyfree-lazy-server-del": 62}
    lines |= {"replica-lazy-flush": 63, "lazyfree-lazy-user-del": 65, "lazyfree-lazy-user-flush": 67}
    assert settings(server) == [
        ("CFG001", "unset", "maxmemory", None, None),  # not written: the finding is about the file
        *[("CFG003", name, name, "default-7.0.conf", lines[name]) for name in sorted(LAZYFREE)],
        *[("SEC001", name, "user default", None, None) for name in OPEN_COMMANDS],
        ("SEC002", "nopass", "user default", None, None),
    ]


def test_no_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_redis_conf("no-limits.conf")
    assert findings(server) == [
        ("CFG001", "unset", "error"),
        *[("CFG003", name, "warning") for name in LAZYFREE],
        ("CFG004", "dynamic-hz-off", "note"),
        ("CFG004", "high-hz", "note"),
        *[("SEC001", name, "error") for name in OPEN_COMMANDS],
    ]  # requirepass gives the default user a password: no SEC002
    assert settings(server) == [
        ("CFG001", "unset", "maxmemory", "no-limits.conf", 8),
        *[
            ("CFG003", name, name, *(("no-limits.conf", 15) if name == "replica-lazy-flush" else (None, None)))
            for name in sorted(LAZYFREE)
        ],
        ("CFG004", "dynamic-hz-off", "dynamic-hz", "no-limits.conf", 12),
        ("CFG004", "high-hz", "hz", "no-limits.conf", 11),
        *[("SEC001", name, "user default", None, None) for name in OPEN_COMMANDS],
    ]


def test_well_configured_has_no_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    assert findings(read_redis_conf("well-configured.conf")) == []


def test_hardened_with_includes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES / "hardened")
    server = read_redis_conf("redis.conf")
    assert findings(server) == [
        ("CFG005", "too-large", "warning"),
        ("SEC001", "flushdb", "error"),
        ("SEC001", "monitor", "error"),
    ]
    assert settings(server) == [
        ("CFG005", "too-large", "maxmemory", "conf.d/20-big.conf", 2),
        ("SEC001", "flushdb", "user default", None, None),
        ("SEC001", "monitor", "user default", None, None),
    ]


def test_aclfile_named_by_the_conf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_redis_conf("with-aclfile.conf")
    assert findings(server) == [
        *[("CFG003", name, "warning") for name in LAZYFREE],
        *[("SEC001", name, "error") for name in ("config", "debug", "flushall", "flushdb", "monitor")],
        ("SEC002", "nopass", "error"),
    ]
    assert ("SEC002", "nopass", "user default", "open.acl", 1) in settings(server)
    assert ("SEC001", "debug", "user default", "open.acl", 1) in settings(server)


def test_acl_files_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    users = read_acl_file("users.acl")
    assert findings(users) == [("SEC002", "nopass", "error")]  # app and default: no password
    assert settings(users) == [("SEC002", "nopass", "user app", "users.acl", 2)]
    opened = read_acl_file("open.acl")
    assert findings(opened) == [
        *[("SEC001", name, "error") for name in ("config", "flushall", "flushdb", "monitor")],
        ("SEC002", "nopass", "error"),
    ]
    assert settings(opened) == [
        *[("SEC001", name, "user default", "open.acl", 1) for name in ("config", "flushall", "flushdb", "monitor")],
        ("SEC002", "nopass", "user default", "open.acl", 1),
    ]


def test_debian_stock_file_if_installed() -> None:
    if not os.access(DEBIAN_CONF, os.R_OK):
        pytest.skip(f"no readable {DEBIAN_CONF} (apt-get install redis-server)")
    server = read_redis_conf(DEBIAN_CONF)
    assert findings(server) == [
        ("CFG001", "unset", "error"),
        *[("CFG003", name, "warning") for name in LAZYFREE],
        *[("SEC001", name, "error") for name in OPEN_COMMANDS],
        ("SEC002", "nopass", "error"),
    ]
