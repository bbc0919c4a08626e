"""CMD006 select-command."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.facts import EVIDENCE_COMMANDSTATS, CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.evidence import COMMAND_CHECKS, measured, seen
from rediscipline.rules.options import RuleOptions

#: Commands that only make sense with several logical databases.
MULTI_DB_COMMANDS = ("move", "swapdb")


@rule(
    "CMD006",
    "select-command",
    title=("Database other than 0", "使用了 db0 以外的数据库"),
    severity=Severity.WARNING,
    where=COMMAND_CHECKS,
    sources=("001 §命令使用 — 2. 禁止使用select", "002 §规范一：key 的命名规范"),
)
class SelectCommand(CommandRule[RuleOptions]):
    """Checks for commands that use a logical database other than 0.

    ## What it does
    Reports:

    - `SELECT n` with n other than 0 (code `non-zero-db`); `SELECT 0` passes;
    - a SELECT whose database is unknown (code `select`): a non-literal argument in code, or the calls
      counted by `INFO commandstats`. Client libraries (redis-py, Jedis, Lettuce, go-redis) send SELECT
      only when a connection is configured for a database other than 0, so calls there mean some client
      uses another database. rediscipline's own scan of databases other than 0, redis-cli `-n` and GUI
      tools count too;
    - MOVE and SWAPDB (code: the command), which exist only to move data between databases.

    At run time (the guard), every SELECT, MOVE and SWAPDB sent is judged, and so is a client made for a
    database other than 0 (`redis.Redis(db=3)`): redis-py sends its SELECT on each new connection, out of
    the guard's sight, so it is judged as `SELECT 3` at the line that guarded the client (or made it,
    under the pytest plugin).

    ## Why is this bad?
    Logical databases share one thread, one memory limit and one eviction pool, so they isolate nothing.
    Redis Cluster and most proxies support only database 0, so code that selects another database cannot
    move to a cluster. Pooled connections remember the selected database: one code path that forgets to
    select reads or writes the wrong data without any error.

    ## Example
    ```python
    r = redis.Redis(db=3)
    r.select(2)
    ```

    ## Use instead
    Database 0 with the business as the key prefix (`order:…`), or one instance per business.

    ## Options
    None.

    ## Source
    - 001 §命令使用 — 2. 禁止使用select: only db0 is allowed; do not use SELECT to reach other databases.
    - 002 §规范一：key 的命名规范: SELECT is an extra operation; separate businesses by key prefix instead of
      by database.
    """

    commands = frozenset({"select", *MULTI_DB_COMMANDS})

    def check(self, fact: CommandFact, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        name = fact.name.lower()
        how = seen(fact)
        if name in MULTI_DB_COMMANDS:
            yield Violation(
                name,
                Text(
                    f"{name.upper()} moves data between logical databases{how.en}: keep all data in db0",
                    f"{name.upper()} 在逻辑数据库之间移动数据{how.zh}：请把数据全部放在 db0",
                ),
                value=measured(fact),
            )
            return
        if name != "select":
            return
        db = fact.args[0] if fact.args else None
        number = int(db) if db is not None and db.isdigit() else None
        if number == 0:
            return
        if number is not None:
            yield Violation(
                "non-zero-db",
                Text(
                    f"SELECT {number} switches to a database other than 0{how.en}: keep all data in db0 and "
                    "separate businesses by key prefix",
                    f"SELECT {number} 切换到 db0 以外的数据库{how.zh}：请把数据全部放在 db0，用 Key 前缀区分业务",
                ),
                value=measured(fact),
            )
            return
        if fact.evidence == EVIDENCE_COMMANDSTATS:
            reason = Text(
                "clients send SELECT only to use a database other than 0",
                "客户端只有在使用 db0 以外的数据库时才会发送 SELECT",
            )
        else:
            reason = Text("the database is not known here", "此处无法确定数据库编号")
        yield Violation(
            "select",
            Text(
                f"SELECT of an unknown database{how.en}: {reason.en}; keep all data in db0 and separate "
                "businesses by key prefix",
                f"SELECT 的数据库编号未知{how.zh}：{reason.zh}；请把数据全部放在 db0，用 Key 前缀区分业务",
            ),
            value=measured(fact),
        )
