"""Which files `check` audits as redis.conf or ACL files."""

from __future__ import annotations

import pytest

from rediscipline.sources.config import HEAD_BYTES, config_kind
from tests.sources.config.support import CASES

NGINX = b"user www-data;\nworker_processes auto;\npid /run/nginx.pid\n\nevents {\n    worker_connections 768;\n}\n"
SENTINEL = b"port 26379\ndaemonize no\nsentinel monitor mymaster 127.0.0.1 6379 2\n"
SUPERVISOR = b"[program:redis]\ncommand=/usr/bin/redis-server /etc/redis/redis.conf\nautorestart=true\n"


@pytest.mark.parametrize(
    ("path", "head", "kind"),
    [
        ("redis.conf", b"", "redis-conf"),
        ("deploy/Redis-6379.conf", b"", "redis-conf"),
        ("valkey.conf", b"", "redis-conf"),
        ("users.acl", b"", "acl"),
        ("ops/cache.ACL", b"# anything", "acl"),
        ("sentinel.conf", SENTINEL, None),
        ("deploy/redis-sentinel.conf", b"", None),
        ("6379.conf", SENTINEL, None),
        ("nginx.conf", NGINX, None),
        ("supervisor/redis.ini", SUPERVISOR, None),
        ("cache.conf", b"# shard 3\nport 7003\nmaxmemory 2gb\nmaxmemory-policy allkeys-lru\n", "redis-conf"),
        ("cache.conf", b"port 7003\nworker_processes 4\nfoo bar\nbaz 1\nmaxmemory 1\n", None),
        ("users", b"user default off\nuser app on >x ~* +@all\n", "acl"),
        ("users", b"# users\nuser default off\n", None),  # ambiguous: ACL files take no comments, configs more
        ("6379.conf", b"", None),
        ("README.md", b"# Redis\n\nSet `maxmemory` in redis.conf.\n", None),
    ],
)
def test_config_kind(path: str, head: bytes, kind: str | None) -> None:
    assert config_kind(path, head) == kind


def test_stock_header_is_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    head = (CASES / "default-7.0.conf").read_bytes()[:HEAD_BYTES]
    assert config_kind("node-a.cfg", head) == "redis-conf"
    assert config_kind("node-a.cfg", head.replace(b"Redis configuration file example", b"")) == "redis-conf"


def test_a_cut_last_line_does_not_count() -> None:
    directives = b"port 6379\nmaxmemory 1gb\n"
    cut = b"worker_processes"[:3]  # 2 known of 3 would be below the share
    head = b"#" * (HEAD_BYTES - len(directives) - len(cut) - 1) + b"\n" + directives + cut
    assert len(head) == HEAD_BYTES
    assert config_kind("a.cfg", head) == "redis-conf"
    assert config_kind("a.cfg", head + b"\n") is None  # a whole last line counts
