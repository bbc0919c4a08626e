"""redis.conf and ACL files, read into the ServerFact a server started from them would describe."""

from __future__ import annotations

from pathlib import Path

from rediscipline.model.server import ServerFact
from rediscipline.sources.config.acl_file import read_acl_file
from rediscipline.sources.config.detect import ACL_FILE, HEAD_BYTES, REDIS_CONF, ConfigKind, config_kind
from rediscipline.sources.config.redis_conf import read_redis_conf

__all__ = [
    "ACL_FILE",
    "HEAD_BYTES",
    "REDIS_CONF",
    "ConfigKind",
    "config_kind",
    "read_acl_file",
    "read_config_file",
    "read_redis_conf",
]


def read_config_file(path: str | Path, shown: str | None = None, kind: str = REDIS_CONF) -> ServerFact:
    """A file `config_kind` recognised, read by the reader of its kind; `shown` names it in findings."""
    if kind == ACL_FILE:
        return read_acl_file(path, shown)
    if kind == REDIS_CONF:
        return read_redis_conf(path, shown)
    raise ValueError(f"unknown config file kind {kind!r}")
