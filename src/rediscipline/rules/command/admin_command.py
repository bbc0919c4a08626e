"""CMD004 admin-command."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.facts import EVIDENCE_CODE, EVIDENCE_RUNTIME, CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.common import COMMAND_CHECKS, call_of, code_of, listed, measured, seen, shown
from rediscipline.rules.options import RuleOptions, option

#: Evidence that the application itself sends the command (as opposed to an operator or Sentinel).
APPLICATION = (EVIDENCE_CODE, EVIDENCE_RUNTIME)


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
        "Commands reported only when the application sends them (code or runtime guard).",
    )


@rule(
    "CMD004",
    "admin-command",
    title=("Administrative command", "使用了管理类命令"),
    severity=Severity.WARNING,
    where=COMMAND_CHECKS,
    sources=("000 §使用的命令请求遵守哪些规范？ — 慎用的命令", "002 §命令使用规范 — 规范一：线上禁用部分命令"),
)
class AdminCommand(CommandRule[AdminCommandOptions]):
    """Checks for administrative commands: the operator's tools, not the application's.

    ## What it does
    Reports a command (code: its name with `-` for the subcommand, `config-set`) in one of two lists:

    - `commands` are reported wherever they are seen, including `INFO commandstats` and the slow log:
      DEBUG and SAVE block or endanger the server whoever sends them, and nothing in normal operation
      does (Redis saves in the background without counting a SAVE call).
    - `application-commands` are reported only in code and through the runtime guard. On a server these
      are routine: operators change settings with CONFIG SET, Sentinel sends REPLICAOF, CLIENT KILL and
      CONFIG REWRITE on every failover, backup jobs send BGSAVE. An application sending them, however,
      reconfigures or stops a shared server behind its operators' backs.

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
    - `application-commands`: commands reported only when the application sends them, in code or through
      the runtime guard (default: config|set, config|rewrite, config|resetstat, shutdown, bgsave,
      bgrewriteaof, slaveof, replicaof, failover, client|kill, client|pause, script|flush, function|flush,
      module, acl|setuser, acl|deluser, cluster|reset, cluster|failover).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 慎用的命令: be careful with DEBUG commands (DEBUG DIGEST, DEBUG
      OBJECT), which can block; check sizes with MEMORY instead.
    - 002 §命令使用规范 — 规范一：线上禁用部分命令: Redis serves requests on one thread, so long-running
      commands (SAVE writes the whole data set) block everyone; administrators take such commands away
      from clients.
    """

    Options = AdminCommandOptions

    def check(self, fact: CommandFact, ctx: RuleContext[AdminCommandOptions]) -> Iterator[Violation]:
        opts = ctx.options
        name = call_of(fact).name
        if listed(name, opts.commands):
            where = Text("", "")
        elif fact.evidence in APPLICATION and listed(name, opts.application_commands):
            where = Text(" from the application", "（由应用发出）")
        else:
            return
        how = seen(fact)
        command = shown(name)
        yield Violation(
            code_of(name),
            Text(
                f"{command} is an administrative command{where.en}{how.en}: leave it to operators and deny it "
                "to application users by ACL (-@admin, -@dangerous)",
                f"{command} 是管理类命令{where.zh}{how.zh}：应交给运维执行，并用 ACL（-@admin、-@dangerous）"
                "禁止应用用户使用",
            ),
            value=measured(fact),
        )
