"""SEC001 dangerous-commands."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.plan import SERVER_ACCESS
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.redis_meta.commands import DANGEROUS_COMMANDS
from rediscipline.rules.base import InstanceRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.security.users import shown_user

#: What running each command does to a production instance, for the message.
HARM = {
    "keys": ("scans the whole keyspace and blocks the server", "遍历整个键空间，阻塞服务"),
    "flushall": ("deletes every key of every database", "删除所有库的全部数据"),
    "flushdb": ("deletes every key of the database", "删除当前库的全部数据"),
    "monitor": ("streams every command and can exhaust memory", "输出所有命令，可能耗尽内存"),
    "debug": ("can block, crash or corrupt the server", "可能阻塞、崩溃或破坏服务"),
    "config": ("can change any setting, including persistence and passwords", "可修改任意配置，包括持久化和密码"),
}


@dataclass(frozen=True)
class DangerousCommandsOptions(RuleOptions):
    commands: tuple[str, ...] = option(
        DANGEROUS_COMMANDS, "Commands that clients must not be able to run.", choices=DANGEROUS_COMMANDS
    )


@rule(
    "SEC001",
    "dangerous-commands",
    title=("Dangerous commands are callable", "危险命令可被执行"),
    severity=Severity.ERROR,
    where=("live", "config"),
    sources=(
        "002 §命令使用规范 — 规范一：线上禁用部分命令",
        "001 §命令使用 — 1. 禁止使用的命令",
        "000 §使用的命令请求遵守哪些规范？ — 慎用的命令",
    ),
)
class DangerousCommands(InstanceRule[DangerousCommandsOptions]):
    """Checks that dangerous commands are renamed, disabled or denied by ACL.

    ## What it does
    For each of `commands` (KEYS, FLUSHALL, FLUSHDB, MONITOR, DEBUG, CONFIG), reports when the user the
    scan connected as may run it, with the command as the code. The source decides this without running
    the command: `ACL DRYRUN` or the user's ACL rules, `rename-command`, and `enable-debug-command` for
    DEBUG. A command whose status could not be determined is not reported. Scan with the same user (or
    the same ACL rules) as the applications: an administrator account can run everything by design.

    ## Why is this bad?
    A convention that bans KEYS or FLUSHALL is only as strong as the server that still accepts them: one
    debugging session, a copied script or a misconfigured tool runs them on production. KEYS blocks the
    server for the whole keyspace, FLUSHALL and FLUSHDB delete everything (and block while they do),
    MONITOR fills an output buffer without limit, DEBUG can crash the process, and CONFIG can rewrite
    persistence, memory limits and passwords.

    ## Example
    ```
    user app on >secret ~* &* +@all
    ```

    ## Use instead
    ```
    user app on >secret ~* &* +@all -@dangerous
    rename-command KEYS ""        # servers without ACLs (before 6.0)
    ```

    ## Options
    - `commands`: the commands clients must not be able to run (default all six: keys, flushall, flushdb,
      monitor, debug, config).

    ## Source
    - 002 §命令使用规范 — 规范一：线上禁用部分命令: disable KEYS, FLUSHALL and FLUSHDB on production by
      renaming them with rename-command, so that clients cannot use them.
    - 001 §命令使用 — 1. 禁止使用的命令: keys, flushall and flushdb are banned.
    - 000 §使用的命令请求遵守哪些规范？ — 慎用的命令: use DEBUG, MONITOR and KEYS only with care.
    """

    Options = DangerousCommandsOptions

    reads_server = frozenset({SERVER_ACCESS})

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[DangerousCommandsOptions]
    ) -> Iterator[Violation]:
        user = f"user {shown_user(server.user)}" if server.user else "the scanning user"
        user_zh = f"用户 {shown_user(server.user)} " if server.user else "扫描所用的用户"
        setting = f"user {server.user}" if server.user else None  # the user's line in an ACL or config file
        for command in ctx.options.commands:
            if server.callable.get(command) is not True:
                continue
            harm_en, harm_zh = HARM[command]
            name = command.upper()
            yield Violation(
                command,
                Text(
                    f"{user} can run {name}, which {harm_en}: deny it by ACL (-{command} or -@dangerous) or "
                    "rename-command",
                    f"{user_zh}可以执行 {name}（{harm_zh}）：请用 ACL（-{command} 或 -@dangerous）或 "
                    "rename-command 禁用",
                ),
                value=1,
                setting=setting,
            )
