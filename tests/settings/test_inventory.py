"""The fleet inventory: a valid file read into targets, and every bad input as its one exact line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rediscipline.settings.errors import ConfigError
from rediscipline.settings.inventory import Inventory, InventoryTarget, load_inventory

SECRET = "s3cr3t-Pa55"
ENVIRON = {"REDIS_AUDIT_PASSWORD": SECRET, "ORDERS_REDIS_PASSWORD": SECRET}

VALID = """\
[defaults]
user = "audit"
password-env = "REDIS_AUDIT_PASSWORD"
tags = { env = "prod", tier = "gold" }
match = "orders:*"
deep = true

[[target]]
name = "orders-cache"
url = "rediss://orders.internal:6379/0"
tags = { team = "orders", env = "staging" }
password-env = "ORDERS_REDIS_PASSWORD"
db = 0
type = "hash"
sample = 5000
max-ops = 2000
batch = 100
timeout = 5
prefer = "replicas"
cluster = true
map = ["10.0.0.5:7000=127.0.0.1:17000", "[fd00::5]:7001=127.0.0.1:17001"]

[[target]]
name = "sessions"
url = "redis://audit@sessions.internal:6380"

[[target]]
name = "orders-backup"
dump = "backups/orders/"
verify = false
allocator = "jemalloc16"

[[target]]
name = "nightly 夜间"
dump = ["/srv/dumps/a.rdb", "../shared/b.rdb"]
tags = { team = "platform" }
match = "*"
"""


def _inventory(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> Inventory:
    path = tmp_path / "fleet.toml"
    path.write_text(text, encoding="utf-8")
    return load_inventory(path, ENVIRON if environ is None else environ)


def test_a_valid_inventory_reads_into_targets(tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, VALID)
    assert inventory == Inventory(
        str(tmp_path / "fleet.toml"),
        (
            InventoryTarget(
                name="orders-cache",
                kind="live",
                url="rediss://orders.internal:6379/0",
                paths=(),
                tags=(("env", "staging"), ("tier", "gold"), ("team", "orders")),
                options=(
                    ("user", "audit"),
                    ("password_env", "ORDERS_REDIS_PASSWORD"),
                    ("db", 0),
                    ("match", "orders:*"),
                    ("type", "hash"),
                    ("sample", 5000),
                    ("max_ops", 2000),
                    ("batch", 100),
                    ("timeout", 5.0),
                    ("prefer", "replicas"),
                    ("cluster", True),
                    ("map", ("10.0.0.5:7000=127.0.0.1:17000", "[fd00::5]:7001=127.0.0.1:17001")),
                ),
            ),
            InventoryTarget(
                name="sessions",
                kind="live",
                url="redis://audit@sessions.internal:6380",
                paths=(),
                tags=(("env", "prod"), ("tier", "gold")),
                options=(("user", "audit"), ("password_env", "REDIS_AUDIT_PASSWORD"), ("match", "orders:*")),
            ),
            InventoryTarget(
                name="orders-backup",
                kind="dump",
                url=None,
                paths=(str(tmp_path / "backups" / "orders"),),
                tags=(("env", "prod"), ("tier", "gold")),
                options=(("match", "orders:*"), ("deep", True), ("verify", False), ("allocator", "jemalloc16")),
            ),
            InventoryTarget(
                name="nightly 夜间",
                kind="dump",
                url=None,
                paths=("/srv/dumps/a.rdb", str(tmp_path.parent / "shared" / "b.rdb")),
                tags=(("env", "prod"), ("tier", "gold"), ("team", "platform")),
                options=(("match", "*"), ("deep", True)),
            ),
        ),
    )
    assert SECRET not in repr(inventory)


def test_relative_dump_paths_are_relative_to_the_inventory_not_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "fleet.toml").write_text('[[target]]\nname = "a"\ndump = "dumps"\n')
    monkeypatch.chdir(tmp_path)
    inventory = load_inventory("conf/fleet.toml", {})
    assert inventory.path == "conf/fleet.toml"
    assert inventory.targets[0].paths == (str(tmp_path / "conf" / "dumps"),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            '[[target]]\nname = "orders-cache"\nurl = "redis://h"\npasword-env = "X"\n',
            "[[target]] #1 \"orders-cache\": unknown key 'pasword-env' (did you mean 'password-env'?)",
            id="unknown-key-suggested",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\nweight = 3\n',
            "[[target]] #1 \"a\": unknown key 'weight' (allowed: name, url, dump, tags, user, password-env, db, "
            "match, type, sample, max-ops, batch, timeout, prefer, cluster, map, deep, verify, allocator)",
            id="unknown-key-listed",
        ),
        pytest.param(
            '[defaults]\nconcurrency = 4\n[[target]]\nname = "a"\nurl = "redis://h"\n',
            "[defaults]: unknown key 'concurrency' (allowed: tags, user, password-env, db, match, type, sample, "
            "max-ops, batch, timeout, prefer, cluster, map, deep, verify, allocator)",
            id="unknown-key-in-defaults",
        ),
        pytest.param(
            '[[targets]]\nname = "a"\nurl = "redis://h"\n',
            "unknown key 'targets' (did you mean 'target'?)",
            id="unknown-top-level-key",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\n[[target]]\nname = "b"\nurl = "redis://h2"\n'
            '[[target]]\nname = "a"\ndump = "x.rdb"\n',
            '[[target]] #3 "a": name: "a" is already the name of [[target]] #1',
            id="duplicate-name",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\ndump = "x.rdb"\n',
            '[[target]] #1 "a": give url (a live server) or dump (dump files), not both',
            id="url-and-dump",
        ),
        pytest.param(
            '[[target]]\nname = "a"\ndb = 1\n',
            '[[target]] #1 "a": no url or dump: give url = "redis://host:port" or dump = "path/to/dumps"',
            id="neither-url-nor-dump",
        ),
        pytest.param(
            '[[target]]\nname = "orders-cache"\nurl = "redis://h"\npassword-env = "ORDERS_PASSWORD"\n',
            '[[target]] #1 "orders-cache": password-env: the environment variable ORDERS_PASSWORD is not set',
            id="password-env-not-set",
        ),
        pytest.param(
            '[defaults]\npassword-env = "AUDIT_PASSWORD"\n[[target]]\nname = "d"\ndump = "x.rdb"\n'
            '[[target]]\nname = "a"\nurl = "redis://h"\n',
            '[[target]] #2 "a": password-env (from [defaults]): the environment variable AUDIT_PASSWORD is not set',
            id="password-env-from-defaults-not-set",
        ),
        pytest.param(
            f'[[target]]\nname = "a"\nurl = "redis://audit:{SECRET}@h:6379/0"\n',
            '[[target]] #1 "a": url: a password written in the URL is refused: credentials come from environment'
            ' variables (password-env = "VARIABLE")',
            id="password-in-url",
        ),
        pytest.param(
            f'[[target]]\nname = "a"\nurl = "rediss://h:6379?password={SECRET}"\n',
            '[[target]] #1 "a": url: a password written in the URL is refused: credentials come from environment'
            ' variables (password-env = "VARIABLE")',
            id="password-in-url-query",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "http://h:6379"\n',
            "[[target]] #1 \"a\": url: unsupported URL scheme 'http': use redis://host:port, rediss://host:port"
            " (TLS) or unix:///path",
            id="url-not-a-server",
        ),
        pytest.param(
            '[[target]]\nname = "backup"\ndump = "x.rdb"\nuser = "audit"\n',
            '[[target]] #1 "backup": user: only for a live server (url); this target is dump files (dump), whose'
            " options are db, match, type, deep, verify, allocator",
            id="live-option-on-dump",
        ),
        pytest.param(
            '[[target]]\nname = "cache"\nurl = "redis://h"\ndeep = true\n',
            '[[target]] #1 "cache": deep: only for dump files (dump); this target is a live server (url), whose'
            " options are user, password-env, db, match, type, sample, max-ops, batch, timeout, prefer, cluster, map",
            id="dump-option-on-live",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\ndb = -1\n',
            '[[target]] #1 "a": db: expected an integer ≥ 0, got -1',
            id="db-negative",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\nsample = true\n',
            '[[target]] #1 "a": sample: expected an integer ≥ 1, got True',
            id="sample-boolean",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\nmax-ops = 5\n',
            '[[target]] #1 "a": max-ops: expected an integer ≥ 100, got 5',
            id="max-ops-too-low",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\nbatch = 5000\n',
            '[[target]] #1 "a": batch: expected an integer from 10 to 1000, got 5000',
            id="batch-too-high",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\ntimeout = 0\n',
            '[[target]] #1 "a": timeout: expected a number of seconds ≥ 0.5, got 0',
            id="timeout-zero",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\nprefer = "leaders"\n',
            "[[target]] #1 \"a\": prefer: 'leaders' is not allowed (allowed: masters, replicas)",
            id="prefer-unknown",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\ncluster = "yes"\n',
            "[[target]] #1 \"a\": cluster: expected true or false, got 'yes'",
            id="cluster-not-boolean",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\ntype = "map"\n',
            "[[target]] #1 \"a\": type: 'map' is not allowed (allowed: string, list, hash, set, zset, stream)",
            id="type-unknown",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\nmap = ["10.0.0.5:7000=127.0.0.1"]\n',
            '[[target]] #1 "a": map: expected "host:port=host:port", got \'10.0.0.5:7000=127.0.0.1\'',
            id="map-without-port",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\nuser = ""\n',
            "[[target]] #1 \"a\": user: expected a non-empty string, got ''",
            id="user-empty",
        ),
        pytest.param(
            '[[target]]\nname = "a"\ndump = "x.rdb"\nallocator = "tcmalloc"\n',
            "[[target]] #1 \"a\": allocator: 'tcmalloc' is not allowed (allowed: jemalloc, jemalloc16, libc)",
            id="allocator-unknown",
        ),
        pytest.param(
            '[defaults]\nsample = 0\n[[target]]\nname = "a"\nurl = "redis://h"\n',
            "[defaults]: sample: expected an integer ≥ 1, got 0",
            id="defaults-wrong-type",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\ntags = { team = 3 }\n',
            '[[target]] #1 "a": tags.team: expected a string, got 3',
            id="tag-not-a-string",
        ),
        pytest.param(
            '[[target]]\nname = "a"\nurl = "redis://h"\ntags = ["orders"]\n',
            '[[target]] #1 "a": tags: expected a table of strings, such as tags = { team = "orders" }',
            id="tags-not-a-table",
        ),
        pytest.param(
            '[[target]]\nname = "a"\ndump = []\n',
            '[[target]] #1 "a": dump: expected a path or a list of paths (files or folders of *.rdb)',
            id="dump-empty-list",
        ),
        pytest.param(
            '[[target]]\nurl = "redis://h"\n',
            "[[target]] #1: name: required (a unique name for the target, shown in the fleet report)",
            id="name-missing",
        ),
        pytest.param(
            '[[target]]\nname = "  "\nurl = "redis://h"\n',
            "[[target]] #1: name: must not be empty",
            id="name-empty",
        ),
        pytest.param(
            f'[[target]]\nname = "{"n" * 101}"\nurl = "redis://h"\n',
            "[[target]] #1: name: at most 100 characters, got 101",
            id="name-too-long",
        ),
        pytest.param(
            '[[target]]\nname = "a\\u001b[31mb"\nurl = "redis://h"\n',
            "[[target]] #1: name: control characters are not allowed",
            id="name-control-character",
        ),
        pytest.param(
            '[[target]]\nname = 7\nurl = "redis://h"\n',
            "[[target]] #1: name: expected a string, got 7",
            id="name-not-a-string",
        ),
        pytest.param(
            "[defaults]\nuser = 'audit'\n",
            "no [[target]] entries: list the servers and dumps to audit",
            id="no-targets",
        ),
        pytest.param('target = "a"\n', "target: expected [[target]] tables", id="target-not-tables"),
        pytest.param("defaults = 1\n", "defaults: expected a table ([defaults])", id="defaults-not-a-table"),
        pytest.param(
            '[[target]]\nname = "a"\nurl "redis://h"\n',
            "invalid TOML: Expected '=' after a key in a key/value pair (at line 3, column 5)",
            id="not-toml",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_file_entry_and_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        _inventory(tmp_path, text)
    assert str(raised.value) == f"{tmp_path / 'fleet.toml'}: {message}"
    assert SECRET not in str(raised.value)


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        load_inventory(tmp_path / "nope.toml", {})
    assert str(raised.value) == f"{tmp_path / 'nope.toml'}: no such file"
