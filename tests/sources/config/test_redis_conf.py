"""redis.conf files read into the exact ServerFact a server started from them describes.

Every expectation here was checked against a Redis 7.0.15 server started from the same file (CONFIG GET,
ACL LIST and ACL DRYRUN), except where a comment says otherwise.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rediscipline.model.location import Location
from rediscipline.model.server import CHECK_ACCESS, CHECK_ACL, CHECK_INFO
from rediscipline.sources.config import read_config_file, read_redis_conf
from rediscipline.sources.errors import SourceError
from tests.sources.config.support import CASES

RULE_SETTINGS = (
    "maxmemory",
    "maxmemory-policy",
    "lazyfree-lazy-eviction",
    "lazyfree-lazy-expire",
    "lazyfree-lazy-server-del",
    "lazyfree-lazy-user-del",
    "lazyfree-lazy-user-flush",
    "replica-lazy-flush",
    "hz",
    "dynamic-hz",
    "requirepass",
    "enable-debug-command",
)
INFO_ONLY = {
    CHECK_INFO: "a configuration file holds settings, not the server's state (memory in use, fragmentation, keyspace)"
}
OPEN = {"keys": True, "flushall": True, "flushdb": True, "monitor": True, "debug": False, "config": True}


def _settings(config: object) -> dict[str, str]:
    assert isinstance(config, dict)
    return {name: config[name] for name in RULE_SETTINGS}


def _at(path: str, line: int) -> Location:
    return Location("config", path, line)


def test_stock_redis_7_excerpt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_redis_conf("default-7.0.conf")
    assert server.origin == Location("config", "default-7.0.conf")
    assert _settings(server.config) == {
        "maxmemory": "0",
        "maxmemory-policy": "noeviction",
        "lazyfree-lazy-eviction": "no",
        "lazyfree-lazy-expire": "no",
        "lazyfree-lazy-server-del": "no",
        "lazyfree-lazy-user-del": "no",
        "lazyfree-lazy-user-flush": "no",
        "replica-lazy-flush": "no",
        "hz": "10",
        "dynamic-hz": "yes",
        "requirepass": "",
        "enable-debug-command": "no",
    }
    assert server.config is not None
    assert server.config["bind"] == "127.0.0.1 -::1"
    assert server.config["proc-title-template"] == "{title} {listen-addr} {server-mode}"
    assert server.config["notify-keyspace-events"] == ""
    assert server.config["hash-max-listpack-value"] == "64"
    assert server.config["slave-lazy-flush"] == "no"  # CONFIG GET answers under the old name too
    assert server.config["client-output-buffer-limit"] == (
        "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"
    )
    assert server.acl_users == ("user default on nopass ~* &* +@all",)
    assert server.user == "default"
    assert server.callable == OPEN
    assert server.unavailable == INFO_ONLY
    assert server.info == {}
    origin = server.settings_origin
    assert origin["hz"] == _at("default-7.0.conf", 96)
    assert origin["lazyfree-lazy-user-flush"] == _at("default-7.0.conf", 67)
    assert origin["client-output-buffer-limit"] == _at("default-7.0.conf", 94)  # the last of the three lines
    assert "maxmemory" not in origin and "user default" not in origin  # defaults: written nowhere


def test_no_limits_case_insensitive_names_and_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_redis_conf("no-limits.conf")
    assert _settings(server.config) == {
        "maxmemory": "0",
        "maxmemory-policy": "volatile-lru",
        "lazyfree-lazy-eviction": "no",
        "lazyfree-lazy-expire": "no",
        "lazyfree-lazy-server-del": "no",
        "lazyfree-lazy-user-del": "no",
        "lazyfree-lazy-user-flush": "no",
        "replica-lazy-flush": "no",
        "hz": "200",
        "dynamic-hz": "no",
        "requirepass": "(redacted)",  # CONFIG GET prints the password; a fact never carries it
        "enable-debug-command": "no",
    }
    assert server.config is not None and server.config["save"] == "900 1 300 10"
    digest = hashlib.sha256(b"tr0ub4dor&3").hexdigest()
    assert server.acl_users == (f"user default on #{digest} ~* &* +@all",)
    assert server.callable == OPEN
    assert server.settings_origin["maxmemory"] == _at("no-limits.conf", 8)
    assert server.settings_origin["maxmemory-policy"] == _at("no-limits.conf", 9)
    assert server.settings_origin["replica-lazy-flush"] == _at("no-limits.conf", 15)  # written `slave-lazy-flush`
    assert server.settings_origin["save"] == _at("no-limits.conf", 5)


def test_well_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_redis_conf("well-configured.conf")
    assert _settings(server.config) == {
        "maxmemory": "4294967296",
        "maxmemory-policy": "allkeys-lru",
        "lazyfree-lazy-eviction": "yes",
        "lazyfree-lazy-expire": "yes",
        "lazyfree-lazy-server-del": "yes",
        "lazyfree-lazy-user-del": "yes",
        "lazyfree-lazy-user-flush": "yes",
        "replica-lazy-flush": "yes",
        "hz": "10",
        "dynamic-hz": "yes",
        "requirepass": "",
        "enable-debug-command": "no",
    }
    assert server.config is not None and server.config["save"] == ""
    assert server.acl_users == (
        "user app on #6b3a55e0261b0304143f805a24924d0c1c44524821305f31d9277843b8a10f4e ~session:* &* +@all -@dangerous",
        "user default off",
        "user ops on #5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8 ~* &* +@all",
    )
    # The default user is off: no client can use it, so it can run nothing (ops may, by design).
    assert server.callable == dict.fromkeys(OPEN, False)
    assert server.settings_origin["user default"] == _at("well-configured.conf", 26)
    assert server.settings_origin["user app"] == _at("well-configured.conf", 27)


def test_includes_renames_and_escaped_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES / "hardened")  # where the server would be started, so includes resolve from here
    server = read_redis_conf("redis.conf")
    assert _settings(server.config) == {
        "maxmemory": "8589934592",  # conf.d/20-big.conf, read after 10-memory.conf
        "maxmemory-policy": "allkeys-lfu",
        "lazyfree-lazy-eviction": "yes",
        "lazyfree-lazy-expire": "yes",
        "lazyfree-lazy-server-del": "yes",
        "lazyfree-lazy-user-del": "yes",
        "lazyfree-lazy-user-flush": "yes",
        "replica-lazy-flush": "yes",
        "hz": "10",
        "dynamic-hz": "yes",
        "requirepass": "(redacted)",
        "enable-debug-command": "no",
    }
    digest = hashlib.sha256(b"s3cret").hexdigest()  # "s3cr\x65t" in the file
    assert server.acl_users == (f"user default on #{digest} ~* &* +@all",)
    assert server.callable == {
        "keys": False,  # rename-command KEYS ""
        "flushall": False,  # rename-command FLUSHALL ""
        "flushdb": True,
        "monitor": True,
        "debug": False,  # enable-debug-command no (default)
        "config": False,  # renamed to c0nf1g-7f3a
    }
    origin = server.settings_origin
    assert origin["maxmemory"] == _at("conf.d/20-big.conf", 2)
    assert origin["hz"] == _at("common.conf", 8)
    assert origin["rename-command keys"] == _at("redis.conf", 6)
    assert origin["rename-command config"] == _at("redis.conf", 8)
    assert origin["rename-command"] == _at("redis.conf", 8)


def test_relative_includes_fall_back_to_the_conf_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Audited from elsewhere (a CI checkout), `include common.conf` is found next to redis.conf."""
    monkeypatch.chdir(tmp_path)
    conf = CASES / "hardened" / "redis.conf"
    server = read_redis_conf(conf)
    assert server.config is not None and server.config["maxmemory"] == "8589934592"
    assert server.settings_origin["maxmemory"] == _at(str(CASES / "hardened" / "conf.d" / "20-big.conf"), 2)


def test_dir_moves_where_later_includes_are_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "extra.conf").write_bytes(b"hz 42\n")
    (tmp_path / "extra.conf").write_bytes(b"hz 7\n")
    (tmp_path / "main.conf").write_bytes(b"include extra.conf\ndir data\ninclude extra.conf\n")
    monkeypatch.chdir(tmp_path)
    server = read_redis_conf("main.conf")
    assert server.config is not None and server.config["hz"] == "42"
    assert server.settings_origin["hz"] == _at("data/extra.conf", 1)


def test_an_empty_glob_include_is_fine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "conf.d").mkdir()
    (tmp_path / "redis.conf").write_bytes(b"include conf.d/*.conf\nmaxmemory 1mb\n")
    monkeypatch.chdir(tmp_path)
    server = read_redis_conf("redis.conf")
    assert server.config is not None and server.config["maxmemory"] == "1048576"


def test_aclfile_users_replace_requirepass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_redis_conf("with-aclfile.conf")
    assert server.config is not None
    assert server.config["aclfile"] == "open.acl"
    assert server.config["enable-debug-command"] == "yes"
    assert server.acl_users == (
        "user default on nopass ~* &* +@all -keys",
        "user worker on #a4ab2a8cfd01e55f6e2e3dfcba5a5d57f3b7292bc1b5a13f6bc16f7cca07bb98 ~jobs:* -@all +@list "
        "+@connection",
    )
    assert server.callable == {
        "keys": False,
        "flushall": True,
        "flushdb": True,
        "monitor": True,
        "debug": True,  # enable-debug-command yes, and the ACL allows it
        "config": True,
    }
    assert server.settings_origin["user default"] == _at("open.acl", 1)
    assert server.settings_origin["aclfile"] == _at("with-aclfile.conf", 4)


def test_a_missing_aclfile_leaves_users_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "redis.conf").write_bytes(b'aclfile /etc/redis/users-not-here.acl\nrename-command DEBUG ""\n')
    monkeypatch.chdir(tmp_path)
    server = read_redis_conf("redis.conf")
    assert server.acl_users is None
    assert server.callable == {
        "keys": None,
        "flushall": None,
        "flushdb": None,
        "monitor": None,
        "debug": False,
        "config": None,
    }
    reason = "aclfile /etc/redis/users-not-here.acl not found: give the ACL file to check as well"
    assert server.unavailable == {**INFO_ONLY, CHECK_ACL: reason, CHECK_ACCESS: reason}


def test_acl_rules_of_the_default_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "redis.conf").write_bytes(
        b"requirepass ignored\n"
        b"user default on nopass ~* +@all -@admin (+monitor ~*) >now-a-password\n"
        b"user reader on >r ~* -@all +@read\n"
        b"enable-debug-command local\n"
    )
    monkeypatch.chdir(tmp_path)
    server = read_redis_conf("redis.conf")
    digest = hashlib.sha256(b"now-a-password").hexdigest()
    assert server.acl_users == (
        f"user default on #{digest} ~* +@all -@admin (+monitor ~*)",
        f"user reader on #{hashlib.sha256(b'r').hexdigest()} ~* -@all +@read",
    )
    # -@admin denies MONITOR, DEBUG and CONFIG SET; the selector gives MONITOR back.
    assert server.callable == {
        "keys": True,
        "flushall": True,
        "flushdb": True,
        "monitor": True,
        "debug": False,
        "config": False,
    }


def test_unknown_directives_are_kept(tmp_path: Path) -> None:
    conf = tmp_path / "redis.conf"
    conf.write_bytes(b"loadmodule /opt/redis/rejson.so\nsearch.timeout 500\nfuture-directive a 'b c'\n")
    server = read_redis_conf(conf)
    assert server.config is not None
    assert server.config["loadmodule"] == "/opt/redis/rejson.so"
    assert server.config["search.timeout"] == "500"
    assert server.config["future-directive"] == "a b c"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"port 6379\nrequirepass \"abc\n", "x.conf:2: unbalanced quotes (or a closing quote not followed by a blank)"),
        (b"maxmemory 2GiB\n", "x.conf:1: maxmemory 2GiB: argument must be a memory value (bytes, or a number with "
         "k, kb, m, mb, g or gb)"),
        (b"\n\nmaxmemory 2gb # two gigs\n", "x.conf:3: maxmemory 2gb # two gigs: maxmemory takes exactly one "
         "argument, got 4"),
        (b"lazyfree-lazy-expire on\n", "x.conf:1: lazyfree-lazy-expire on: argument must be 'yes' or 'no'"),
        (b"maxmemory-policy lru\n", "x.conf:1: maxmemory-policy lru: argument must be one of: volatile-lru, "
         "volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction"),
        (b"include\n", "x.conf:1: `include` takes one file"),
        (b"include missing.conf\n", "x.conf:1: include missing.conf: no such file (Redis refuses to start)"),
        (b"rename-command KEYS\n", "x.conf:1: `rename-command` takes a command and its new name (\"\" to disable it)"),
        (b"rename-command KEYS \"\"\nrename-command keys k2\n", "x.conf:2: keys is already renamed; Redis refuses to "
         "start (no such command)"),
        (b"rename-command keys flushall\n", "x.conf:1: rename-command keys flushall: target command name already "
         "exists"),
        (b"user app on\nuser app off\n", "x.conf:2: user 'app' is defined twice; Redis refuses to start"),
        (b"user app on +@all ~* frobnicate\n", "x.conf:1: unknown ACL rule 'frobnicate'"),
        (b'user app on "\\x1b[2J"\n', "x.conf:1: unknown ACL rule '\\x1b[2J'"),  # escaped: no terminal control
        (b'include "\\x1b]0;x\\x07.conf"\n', "x.conf:1: include \\x1b]0;x\\x07.conf: no such file (Redis refuses to "
         "start)"),
        (b"user app on (+@all ~*\n", "x.conf:1: unmatched parenthesis in ACL selector starting at '(+@all'"),
        (b"user app on #abc\n", "x.conf:1: the password hash must be 64 lowercase hexadecimal characters: '#abc'"),
        (b"user app on <never-set\n", "x.conf:1: removes a password the user does not have"),
        (b'user "a b" on\n', "x.conf:1: user names can't be empty or contain spaces or null characters"),
        (b"user app on\naclfile users.acl\n", "x.conf: users are declared both with `user` lines and in aclfile "
         "users.acl (x.conf:2); Redis refuses to start"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_naming_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, message: str
) -> None:
    (tmp_path / "x.conf").write_bytes(content)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SourceError) as raised:
        read_redis_conf("x.conf")
    assert str(raised.value) == message


def test_include_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.conf").write_bytes(b"port 1\ninclude b.conf\n")
    (tmp_path / "b.conf").write_bytes(b"\ninclude a.conf\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SourceError) as raised:
        read_redis_conf("a.conf")
    assert str(raised.value) == "b.conf:2: include loop (a.conf → b.conf → a.conf)"


def test_include_depth_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for level in range(20):
        (tmp_path / f"{level}.conf").write_bytes(f"include {level + 1}.conf\n".encode())
    (tmp_path / "20.conf").write_bytes(b"hz 10\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SourceError) as raised:
        read_redis_conf("0.conf")
    assert str(raised.value) == "15.conf:1: includes nest more than 16 deep"


@pytest.mark.parametrize("name", ["absent.conf", "folder"])
def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    (tmp_path / "folder").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SourceError) as raised:
        read_redis_conf(name)
    reason = "No such file or directory" if name == "absent.conf" else "Is a directory"
    assert str(raised.value) == f"{name}: cannot read: {reason}"


def test_debian_redis_conf_if_installed() -> None:
    """The stock configuration the Debian redis-server package installs (Redis 7.0)."""
    path = Path("/etc/redis/redis.conf")
    try:
        text = path.read_bytes()
    except OSError:
        pytest.skip("no readable /etc/redis/redis.conf (apt-get install redis-server)")
    server = read_redis_conf(path)
    assert server.config is not None
    assert server.config["maxmemory"] == "0"
    assert server.config["maxmemory-policy"] == "noeviction"
    assert server.config["dir"] == "/var/lib/redis"
    assert server.acl_users == ("user default on nopass ~* &* +@all",)
    assert server.callable == OPEN
    hz_line = server.settings_origin["hz"].line
    assert hz_line is not None and text.split(b"\n")[hz_line - 1].strip() == b"hz 10"


def test_shown_names_every_file_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` opens a file by its path and shows it relative to the project: includes follow suit."""
    monkeypatch.chdir(tmp_path)
    server = read_config_file(CASES / "hardened" / "redis.conf", "deploy/redis.conf", "redis-conf")
    assert server.origin == Location("config", "deploy/redis.conf")
    assert server.settings_origin["maxmemory"] == _at("deploy/conf.d/20-big.conf", 2)
    assert server.settings_origin["hz"] == _at("deploy/common.conf", 8)
    assert server.settings_origin["rename-command keys"] == _at("deploy/redis.conf", 6)
    acl = read_config_file(CASES / "open.acl", "deploy/open.acl", "acl")
    assert acl.settings_origin["user default"] == _at("deploy/open.acl", 1)
    aclfile = read_config_file(CASES / "with-aclfile.conf", "deploy/with-aclfile.conf", "redis-conf")
    assert aclfile.settings_origin["user default"] == _at("deploy/open.acl", 1)
    (tmp_path / "bad.conf").write_bytes(b"hz fast\n")
    with pytest.raises(SourceError) as raised:
        read_config_file(tmp_path / "bad.conf", "deploy/bad.conf", "redis-conf")
    assert str(raised.value) == "deploy/bad.conf:1: hz fast: argument couldn't be parsed into an integer"
    with pytest.raises(ValueError, match="unknown config file kind 'ini'"):
        read_config_file(tmp_path / "bad.conf", None, "ini")
