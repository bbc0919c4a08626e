"""The banned commands, one row each: CMD001 keys-command, CMD002 flush-command, CMD003 monitor-command and
CMD004 admin-command.

Every row is judged by the one implementation in `banned.py`; a row holds what makes it a rule of its own:
id, slug, severity, the commands, the message, the options and the documentation (`rediscipline rule
CMD001` and docs/rules print the row's `doc`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.command.banned import BannedCommand, banned_rule
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class FlushCommandOptions(RuleOptions):
    allow_async: bool = option(True, "Accept FLUSHALL/FLUSHDB with the ASYNC option.")


@dataclass(frozen=True)
class AdminCommandOptions(RuleOptions):
    commands: tuple[str, ...] = option(
        ("debug", "save"),
        "Commands reported wherever seen, server statistics included (`module` covers all its subcommands).",
    )
    application_commands: tuple[str, ...] = option(
        (
            "config|set",
            "config|rewrite",
            "config|resetstat",
            "shutdown",
            "bgsave",
            "bgrewriteaof",
            "slaveof",
            "replicaof",
            "failover",
            "client|kill",
            "client|pause",
            "script|flush",
            "function|flush",
            "module",
            "acl|setuser",
            "acl|deluser",
            "cluster|reset",
            "cluster|failover",
        ),
        "Commands reported only when the application sends them (in code or at run time).",
    )


KEYS_DOC = """\
Checks for the KEYS command.

## What it does
Reports every KEYS call (code `keys`): in source code, at run time (every KEYS the guard sees the
application send), or on a server, where `INFO commandstats` counts the calls (the value) and the slow
log shows the slowest ones (the value is then the duration in microseconds).

## Why is this bad?
KEYS walks the whole keyspace in one step, whatever the pattern: O(N) in the number of keys, on the
single thread that serves every client. On millions of keys it blocks the server for seconds, clients
time out and retry, and under high load the instance falls over. A KEYS that was harmless on a test
database becomes an outage as the data grows.

## Example
```python
for key in r.keys("session:*"):
    r.delete(key)
```

## Use instead
SCAN with MATCH and COUNT, which returns the keys in small batches between other clients' commands:
```python
for key in r.scan_iter(match="session:*", count=1000):
    r.unlink(key)
```
Better still, keep the keys you need to enumerate in a set or a sorted set.

## Options
None.

## Source
- 001 §命令使用 — 1. 禁止使用的命令: keys is banned; use scan instead.
- 002 §命令使用规范 — 规范一：线上禁用部分命令: KEYS scans the global hash table and blocks the main thread;
  use SCAN.
- 000 §使用的命令请求遵守哪些规范？ — 慎用的命令: avoid KEYS unless necessary (SCAN is recommended).
"""

FLUSH_DOC = """\
Checks for commands that delete a whole database.

## What it does
Reports FLUSHALL and FLUSHDB calls (code `flushall` or `flushdb`) in code, at run time (each one the
guard sees sent, with its arguments), in `INFO commandstats` and in the slow log. With `allow-async`, a
call whose arguments are known and include `ASYNC` passes; a call whose arguments are unknown
(commandstats) is still reported.

## Why is this bad?
One call deletes every key of the database (FLUSHDB) or of the instance (FLUSHALL), and replicas
follow. Without ASYNC the server frees everything on its main thread and blocks all clients while it
does, for seconds on a large data set. In application code it is almost always a test helper or a
cleanup script that reached production.

## Example
```python
r.flushall()
```

## Use instead
Delete the keys that belong to the job, by SCAN with a MATCH pattern and UNLINK, or give them a TTL.
Where a whole database must really go (002): `FLUSHALL ASYNC`.

## Options
- `allow-async`: accept FLUSHALL/FLUSHDB with the ASYNC option (default true, as 002 recommends ASYNC
  where a database must really be emptied; the strict preset sets it to false, as 001 bans both
  commands outright).

## Source
- 001 §命令使用 — 1. 禁止使用的命令: flushall and flushdb are banned.
- 002 §命令使用规范 — 规范一：线上禁用部分命令: FLUSHALL and FLUSHDB block the main thread on a large data
  set; rename them, or add ASYNC to delete in a background thread.
"""

MONITOR_DOC = """\
Checks for the MONITOR command.

## What it does
Reports MONITOR (code `monitor`) in code and in `INFO commandstats` (someone ran it on the server; the
value is the number of calls). At run time (the guard), a MONITOR sent through `execute_command`, and
redis-py's `monitor()` (judged before it opens its own connection).

## Why is this bad?
A monitoring client receives a copy of every command the server executes. That costs the server
CPU (001 measures 5–10%), and the copies pile up in the client's output buffer: on a busy server a
slow reader makes the buffer grow until memory runs out or the client is disconnected. In application
code MONITOR is never needed.

## Example
```python
with r.monitor() as m:
    for command in m.listen():
        log(command)
```

## Use instead
For a short debugging session on a quiet moment, `redis-cli monitor` for at most 10 seconds. To see
what clients send, use the slow log, `INFO commandstats`, latency monitoring, or client-side tracing.

## Options
None.

## Source
- 001 §命令使用 — 5. monitor命令: never run for long, keep it within 10 s; it adds 5–10% CPU.
- 002 §命令使用规范 — 规范二：慎用 MONITOR 命令: MONITOR keeps writing to the output buffer, which can
  overflow and crash the service; use it only briefly when really needed.
- 000 §使用的命令请求遵守哪些规范？ — 慎用的命令: do not use MONITOR unless necessary, and check the
  network traffic first.
"""

ADMIN_DOC = """\
Checks for administrative commands: the operator's tools, not the application's.

## What it does
Reports a command (code: its name with `-` for the subcommand, `config-set`) in one of two lists:

- `commands` are reported wherever they are seen, including `INFO commandstats` and the slow log:
  DEBUG and SAVE block or endanger the server whoever sends them, and nothing in normal operation
  does (Redis saves in the background without counting a SAVE call).
- `application-commands` are reported only where the application sends them: in code, and at run
  time (the commands the guard sees). On a server these are routine: operators change settings with
  CONFIG SET, Sentinel sends REPLICAOF, CLIENT KILL and CONFIG REWRITE on every failover, backup jobs
  send BGSAVE. An application sending them, however, reconfigures or stops a shared server behind its
  operators' backs.

An entry without a subcommand covers all of them (`module` covers `module|load` and
`module|unload`). A call seen as `CONFIG` with the subcommand in its first argument counts as
`config|set`.

## Why is this bad?
DEBUG can block the server (`DEBUG SLEEP`, `DEBUG RELOAD`), walk a big value (`DEBUG OBJECT`) or crash
it on purpose (`DEBUG SEGFAULT`); since Redis 7.0 it is disabled unless enabled in the configuration.
SAVE writes the snapshot on the main thread and blocks every client until it is on disk. The other
commands change how a shared server runs: its configuration, its persistence, its replication, its
connected clients, its scripts and modules. Application code that needs them is a sign of an
operations task living in the wrong place, and an ACL user that can run them widens what a bug or an
attacker can do.

## Example
```python
r.config_set("maxmemory-policy", "allkeys-lru")
r.debug_object("user:1")
r.save()
```

## Use instead
Settings in redis.conf or the cloud console; `MEMORY USAGE` and `OBJECT ENCODING` instead of
`DEBUG OBJECT`; `BGSAVE` scheduled by operations; ACL rules that deny `@admin` and `@dangerous` to
application users.

## Options
- `commands`: commands reported wherever they are seen, server statistics included (default debug,
  save).
- `application-commands`: commands reported only when the application sends them, in code or at run
  time (default: config|set, config|rewrite, config|resetstat, shutdown, bgsave, bgrewriteaof, slaveof,
  replicaof, failover, client|kill, client|pause, script|flush, function|flush, module, acl|setuser,
  acl|deluser, cluster|reset, cluster|failover).

## Source
- 000 §使用的命令请求遵守哪些规范？ — 慎用的命令: be careful with DEBUG commands (DEBUG DIGEST, DEBUG
  OBJECT), which can block; check sizes with MEMORY instead.
- 002 §命令使用规范 — 规范一：线上禁用部分命令: Redis serves requests on one thread, so long-running
  commands (SAVE writes the whole data set) block everyone; administrators take such commands away
  from clients.
"""

BANNED: tuple[BannedCommand, ...] = (
    BannedCommand(
        id="CMD001",
        slug="keys-command",
        title=("KEYS command", "使用了 KEYS 命令"),
        severity=Severity.ERROR,
        commands=("keys",),
        message=Text(
            "{command} scans the whole keyspace and blocks the server{seen}: use SCAN with MATCH and COUNT "
            "(scan_iter(match=…, count=…)) or keep the keys in a set",
            "{command} 会遍历整个键空间并阻塞服务{seen}：请使用带 MATCH 和 COUNT 的 SCAN"
            "（scan_iter(match=…, count=…)），或用集合记录这些 Key",
        ),
        sources=(
            "001 §命令使用 — 1. 禁止使用的命令",
            "002 §命令使用规范 — 规范一：线上禁用部分命令",
            "000 §使用的命令请求遵守哪些规范？ — 慎用的命令",
        ),
        doc=KEYS_DOC,
    ),
    BannedCommand(
        id="CMD002",
        slug="flush-command",
        title=("FLUSHALL or FLUSHDB command", "使用了 FLUSHALL 或 FLUSHDB 命令"),
        severity=Severity.ERROR,
        commands=("flushall", "flushdb"),
        targets={
            "flushall": Text("every key of the instance", "整个实例的全部 Key"),
            "flushdb": Text("every key of the database", "当前库的全部 Key"),
        },
        message=Text(
            "{command} deletes {target}{seen}: delete the job's own keys with SCAN and UNLINK, or give them a TTL",
            "{command} 会删除{target}{seen}：请用 SCAN 加 UNLINK 删除业务自己的 Key，或为其设置过期时间",
        ),
        options=FlushCommandOptions,
        sources=("001 §命令使用 — 1. 禁止使用的命令", "002 §命令使用规范 — 规范一：线上禁用部分命令"),
        doc=FLUSH_DOC,
    ),
    BannedCommand(
        id="CMD003",
        slug="monitor-command",
        title=("MONITOR command", "使用了 MONITOR 命令"),
        severity=Severity.WARNING,
        commands=("monitor",),
        message=Text(
            "{command} copies every command to one client and costs 5–10% CPU{seen}: use the slow log or "
            "INFO commandstats, or run MONITOR for at most 10 s while debugging",
            "{command} 会把所有命令复制给一个客户端，增加 5%–10% 的 CPU{seen}：请使用慢日志或 "
            "INFO commandstats，或仅在调试时运行不超过 10 秒",
        ),
        sources=(
            "001 §命令使用 — 5. monitor命令",
            "002 §命令使用规范 — 规范二：慎用 MONITOR 命令",
            "000 §使用的命令请求遵守哪些规范？ — 慎用的命令",
        ),
        doc=MONITOR_DOC,
    ),
    BannedCommand(
        id="CMD004",
        slug="admin-command",
        title=("Administrative command", "使用了管理类命令"),
        severity=Severity.WARNING,
        message=Text(
            "{command} is an administrative command{sender}{seen}: leave it to operators and deny it to "
            "application users by ACL (-@admin, -@dangerous)",
            "{command} 是管理类命令{sender}{seen}：应交给运维执行，并用 ACL（-@admin、-@dangerous）禁止应用用户使用",
        ),
        options=AdminCommandOptions,
        sources=("000 §使用的命令请求遵守哪些规范？ — 慎用的命令", "002 §命令使用规范 — 规范一：线上禁用部分命令"),
        doc=ADMIN_DOC,
    ),
)

KeysCommand = banned_rule(BANNED[0], "KeysCommand", __name__)
FlushCommand = banned_rule(BANNED[1], "FlushCommand", __name__)
MonitorCommand = banned_rule(BANNED[2], "MonitorCommand", __name__)
AdminCommand = banned_rule(BANNED[3], "AdminCommand", __name__)
