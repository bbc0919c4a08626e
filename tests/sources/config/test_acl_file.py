"""ACL files read on their own, and the ACL rule evaluation, checked against Redis 7.0's ACL DRYRUN."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rediscipline.model.location import Location
from rediscipline.model.server import CHECK_CONFIG, CHECK_INFO
from rediscipline.redis_meta.commands import DANGEROUS_COMMANDS
from rediscipline.sources.config import read_acl_file
from rediscipline.sources.config.acl import PROBES, AclUser
from rediscipline.sources.errors import SourceError
from tests.sources.config.support import CASES


def test_users_acl(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_acl_file("users.acl")
    ops = hashlib.sha256(b"correct-horse").hexdigest()
    assert server.origin == Location("config", "users.acl")
    assert server.config is None
    assert server.acl_users == (
        "user app on nopass ~app:* &* +@read +@write -keys",
        "user default on nopass ~* &* +@all -@dangerous",
        f"user ops on #{ops} ~* &* +@all",
    )
    assert server.user == "default"
    assert server.callable == dict.fromkeys(("keys", "flushall", "flushdb", "monitor", "debug", "config"), False)
    assert server.unavailable == {
        CHECK_CONFIG: "an ACL file holds users only; give redis.conf to check its settings",
        CHECK_INFO: "a file holds settings, not the server's state (memory in use, keyspace)",
    }
    assert server.settings_origin == {
        "user default": Location("config", "users.acl", 1),
        "user app": Location("config", "users.acl", 2),
        "user ops": Location("config", "users.acl", 3),
    }


def test_open_acl_debug_is_left_to_redis_conf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)
    server = read_acl_file("open.acl")
    assert server.callable == {
        "keys": False,
        "flushall": True,
        "flushdb": True,
        "monitor": True,
        "debug": None,  # allowed by the ACL; enable-debug-command (in redis.conf) decides
        "config": True,
    }


def test_a_file_without_default_user_gets_the_servers_own(tmp_path: Path) -> None:
    path = tmp_path / "app.acl"
    path.write_bytes(b"user app on >pw ~* +@all\n")
    server = read_acl_file(path)
    assert server.acl_users == (
        f"user app on #{hashlib.sha256(b'pw').hexdigest()} ~* +@all",
        "user default on nopass ~* &* +@all",
    )
    assert server.callable == {
        "keys": True,
        "flushall": True,
        "flushdb": True,
        "monitor": True,
        "debug": None,
        "config": True,
    }
    assert server.settings_origin == {"user app": Location("config", str(path), 1)}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"# users of the cache\nuser app on\n", "x.acl:1: every line of an ACL file must be `user <name> <rules>` "
         "(Redis accepts no comments there and refuses to start)"),
        (b"user app on\n\nUser ops on\n", "x.acl:3: every line of an ACL file must be `user <name> <rules>` "
         "(Redis accepts no comments there and refuses to start)"),
        (b"user\n", "x.acl:1: every line of an ACL file must be `user <name> <rules>` (Redis accepts no comments "
         "there and refuses to start)"),
        (b"user app on\nuser app off\n", "x.acl:2: user 'app' is defined twice; Redis refuses to start"),
        (b"user app on 'unbalanced\n", "x.acl:1: unbalanced quotes (or a closing quote not followed by a blank)"),
        (b"user app on +@all ~* allkeyz\n", "x.acl:1: unknown ACL rule 'allkeyz'"),
    ],
)  # fmt: skip
def test_bad_acl_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, message: str) -> None:
    (tmp_path / "x.acl").write_bytes(content)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SourceError) as raised:
        read_acl_file("x.acl")
    assert str(raised.value) == message


#: Rules → the dangerous commands they allow, each observed with ACL DRYRUN on Redis 7.0.15
#: (DEBUG probed as `debug sleep 0`, CONFIG as `config set maxmemory 0`).
DRYRUN = [
    ("+@all -@dangerous", set()),
    ("+@all -@dangerous +keys", {"keys"}),
    ("-@all +@read", {"keys"}),
    ("+@all -config|set", {"keys", "flushall", "flushdb", "monitor", "debug"}),
    ("-@all +config|get", set()),
    ("-@all +config", {"config"}),
    ("+@all -@admin", {"keys", "flushall", "flushdb"}),
    ("-@all (+@all ~*)", {"keys", "flushall", "flushdb", "monitor", "debug", "config"}),
    ("allcommands -@keyspace", {"monitor", "debug", "config"}),
    ("-@all +@slow -flushall", {"keys", "flushdb", "monitor", "debug", "config"}),
    ("-@all +debug|sleep", {"debug"}),
    ("+@all -debug", {"keys", "flushall", "flushdb", "monitor", "config"}),
    ("+@all nocommands", set()),
    ("+@ALL -KEYS", {"flushall", "flushdb", "monitor", "debug", "config"}),
    ("+@all reset on", set()),
    ("(+@all) clearselectors", set()),
]


def test_every_dangerous_command_has_its_categories() -> None:
    assert tuple(PROBES) == DANGEROUS_COMMANDS


@pytest.mark.parametrize(("rules", "allowed"), DRYRUN)
def test_command_rules_match_acl_dryrun(rules: str, allowed: set[str]) -> None:
    user = AclUser("t", enabled=True)
    user.apply(rules.encode().split())
    assert {c for c in ("keys", "flushall", "flushdb", "monitor", "debug", "config") if user.may_run(c)} == allowed


@pytest.mark.parametrize(
    ("rules", "line"),
    [
        ("on nopass", "user t on nopass"),
        ("on nopass >pw", f"user t on #{hashlib.sha256(b'pw').hexdigest()}"),
        ("on >pw nopass", "user t on nopass"),
        ("on >pw resetpass", "user t on"),
        ("on >a >b <a", f"user t on #{hashlib.sha256(b'b').hexdigest()}"),
        ("on off", "user t off"),
        ("on nopass reset", "user t off sanitize-payload resetchannels -@all"),
    ],
)
def test_acl_list_lines(rules: str, line: str) -> None:
    user = AclUser("t")
    user.apply(rules.encode().split())
    assert user.acl_line() == line
