"""CMD003 monitor-command."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.facts import CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.common import COMMAND_CHECKS, measured, seen
from rediscipline.rules.options import RuleOptions


@rule(
    "CMD003",
    "monitor-command",
    title=("MONITOR command", "使用了 MONITOR 命令"),
    severity=Severity.WARNING,
    where=COMMAND_CHECKS,
    sources=(
        "001 §命令使用 — 5. monitor命令",
        "002 §命令使用规范 — 规范二：慎用 MONITOR 命令",
        "000 §使用的命令请求遵守哪些规范？ — 慎用的命令",
    ),
)
class MonitorCommand(CommandRule[RuleOptions]):
    """Checks for the MONITOR command.

    ## What it does
    Reports MONITOR (code `monitor`) in code, through the runtime guard, and in `INFO commandstats`
    (someone ran it on the server; the value is the number of calls).

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

    def check(self, fact: CommandFact, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        if fact.name.lower() != "monitor":
            return
        how = seen(fact)
        yield Violation(
            "monitor",
            Text(
                f"MONITOR copies every command to one client and costs 5–10% CPU{how.en}: use the slow log or "
                "INFO commandstats, or run MONITOR for at most 10 s while debugging",
                f"MONITOR 会把所有命令复制给一个客户端，增加 5%–10% 的 CPU{how.zh}：请使用慢日志或 "
                "INFO commandstats，或仅在调试时运行不超过 10 秒",
            ),
            value=measured(fact),
        )
