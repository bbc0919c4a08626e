"""Tell a redis.conf or an ACL file from the other files `check` is given, by name and then by content.

`.conf` is a common suffix (nginx, supervisor, sentinel), so a name alone decides only when it says Redis:
`redis.conf`, a `.conf` naming redis or valkey (`redis-6379.conf`, `valkey.conf`), or a `.acl` file.
Any other file is a redis.conf when its first directives are mostly ones redis.conf uses (or it carries
the stock header), and an ACL file when every line is a `user` line (a file of `user` lines and comments
is left alone: ACL files take no comments, and a redis.conf of users only is rare). Sentinel
configurations are not server configurations and are left alone too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final, Literal

from rediscipline.sources.config.syntax import SyntaxProblem, directive_lines

ConfigKind = Literal["redis-conf", "acl"]
REDIS_CONF: Final = "redis-conf"
ACL_FILE: Final = "acl"

#: How much of a file a caller should pass as `head`: enough for the stock header or a few directives.
HEAD_BYTES = 4096
#: Directives judged, at most, and the share of them that must be known redis.conf directives.
SAMPLE = 40
KNOWN_SHARE = 0.8
_STOCK_HEADER = b"Redis configuration file example"

#: Directives of the stock redis.conf (7.x) that configurations usually set.
_KNOWN = """
    include loadmodule bind bind-source-addr protected-mode port tcp-backlog unixsocket unixsocketperm timeout
    tcp-keepalive daemonize supervised pidfile loglevel logfile syslog-enabled syslog-ident databases
    always-show-logo set-proc-title save stop-writes-on-bgsave-error rdbcompression rdbchecksum dbfilename
    rdb-del-sync-files dir replicaof slaveof masterauth masteruser replica-serve-stale-data replica-read-only
    repl-diskless-sync repl-diskless-sync-delay repl-diskless-load repl-backlog-size repl-backlog-ttl
    repl-timeout repl-disable-tcp-nodelay replica-priority min-replicas-to-write min-replicas-max-lag
    acllog-max-len aclfile requirepass rename-command user maxclients maxmemory maxmemory-policy
    maxmemory-samples maxmemory-eviction-tenacity maxmemory-clients replica-ignore-maxmemory
    active-expire-effort lazyfree-lazy-eviction lazyfree-lazy-expire lazyfree-lazy-server-del
    replica-lazy-flush lazyfree-lazy-user-del lazyfree-lazy-user-flush io-threads io-threads-do-reads
    oom-score-adj oom-score-adj-values disable-thp appendonly appendfilename appenddirname appendfsync
    no-appendfsync-on-rewrite auto-aof-rewrite-percentage auto-aof-rewrite-min-size aof-load-truncated
    aof-use-rdb-preamble aof-timestamp-enabled lua-time-limit busy-reply-threshold cluster-enabled
    cluster-config-file cluster-node-timeout cluster-port slowlog-log-slower-than slowlog-max-len
    latency-monitor-threshold notify-keyspace-events hash-max-listpack-entries hash-max-listpack-value
    hash-max-ziplist-entries hash-max-ziplist-value list-max-listpack-size list-max-ziplist-size
    list-compress-depth set-max-intset-entries zset-max-listpack-entries zset-max-listpack-value
    zset-max-ziplist-entries zset-max-ziplist-value hll-sparse-max-bytes stream-node-max-bytes
    stream-node-max-entries activerehashing client-output-buffer-limit client-query-buffer-limit
    proto-max-bulk-len hz dynamic-hz aof-rewrite-incremental-fsync rdb-save-incremental-fsync lfu-log-factor
    lfu-decay-time activedefrag jemalloc-bg-thread tls-port tls-cert-file tls-key-file tls-ca-cert-file
    enable-debug-command enable-protected-configs enable-module-command proc-title-template
"""
KNOWN_DIRECTIVES = frozenset(_KNOWN.split())


def config_kind(path: str | Path, head: bytes) -> ConfigKind | None:
    """`redis-conf`, `acl`, or None for a file that is neither; `head` is its first HEAD_BYTES bytes."""
    name = os.path.basename(str(path)).lower()
    if name.endswith(".acl"):
        return ACL_FILE
    if "sentinel" in name:  # sentinel.conf, redis-sentinel.conf: Sentinel's own settings
        return None
    if name.endswith(".conf") and ("redis" in name or "valkey" in name):
        return REDIS_CONF
    return _by_content(head)


def _by_content(head: bytes) -> ConfigKind | None:
    if b"\n" in head and not head.endswith(b"\n"):
        head = head[: head.rindex(b"\n")]  # the last line may be cut short: judge the whole ones
    names: list[bytes] = []
    users = 0
    try:
        for _number, args in directive_lines(head, comments=False):
            if args[0].startswith(b"#"):
                continue
            names.append(args[0].lower())
            users += args[0] == b"user" and len(args) >= 2
            if len(names) >= SAMPLE:
                break
    except SyntaxProblem:
        pass  # a quote cut by the end of `head`, or a file of another syntax: judge what was read
    if b"sentinel" in names:
        return None
    if names and users == len(names):
        # Only `user` lines: an ACL file, unless it has comments, which ACL files cannot have but a redis.conf
        # fragment of users could: too ambiguous to judge without a telling name.
        return None if _has_comments(head) else ACL_FILE
    known = sum(name.decode("utf-8", "replace") in KNOWN_DIRECTIVES for name in names)
    if _STOCK_HEADER in head or (known and known >= KNOWN_SHARE * len(names)):
        return REDIS_CONF
    return None


def _has_comments(head: bytes) -> bool:
    return any(line.lstrip()[:1] == b"#" for line in head.split(b"\n"))
