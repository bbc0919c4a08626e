"""CMD002 flush-command."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.facts import CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.common import COMMAND_CHECKS, measured, seen
from rediscipline.rules.options import RuleOptions, option

FLUSH_COMMANDS = ("flushall", "flushdb")


@dataclass(frozen=True)
class FlushCommandOptions(RuleOptions):
    allow_async: bool = option(True, "Accept FLUSHALL/FLUSHDB with the ASYNC option.")


@rule(
    "CMD002",
    "flush-command",
    title=("FLUSHALL or FLUSHDB command", "使用了 FLUSHALL 或 FLUSHDB 命令"),
    severity=Severity.ERROR,
    where=COMMAND_CHECKS,
    sources=("001 §命令使用 — 1. 禁止使用的命令", "002 §命令使用规范 — 规范一：线上禁用部分命令"),
)
class FlushCommand(CommandRule[FlushCommandOptions]):
    """Checks for commands that delete a whole database.

    ## What it does
    Reports FLUSHALL and FLUSHDB calls (code `flushall` or `flushdb`) in code, through the runtime guard,
    in `INFO commandstats` and in the slow log. With `allow-async`, a call whose arguments are known and
    include `ASYNC` passes; a call whose arguments are unknown (commandstats) is still reported.

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

    Options = FlushCommandOptions

    def check(self, fact: CommandFact, ctx: RuleContext[FlushCommandOptions]) -> Iterator[Violation]:
        name = fact.name.lower()
        if name not in FLUSH_COMMANDS:
            return
        if ctx.options.allow_async and fact.args is not None and any(a.lower() == b"async" for a in fact.args):
            return
        how = seen(fact)
        what = (
            ("every key of the instance", "整个实例的全部 Key")
            if name == "flushall"
            else (
                "every key of the database",
                "当前库的全部 Key",
            )
        )
        yield Violation(
            name,
            Text(
                f"{name.upper()} deletes {what[0]}{how.en}: delete the job's own keys with SCAN and UNLINK, or "
                "give them a TTL",
                f"{name.upper()} 会删除{what[1]}{how.zh}：请用 SCAN 加 UNLINK 删除业务自己的 Key，或为其设置过期时间",
            ),
            value=measured(fact),
        )
