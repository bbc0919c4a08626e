"""CMD001 keys-command."""

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
    "CMD001",
    "keys-command",
    title=("KEYS command", "使用了 KEYS 命令"),
    severity=Severity.ERROR,
    where=COMMAND_CHECKS,
    sources=(
        "001 §命令使用 — 1. 禁止使用的命令",
        "002 §命令使用规范 — 规范一：线上禁用部分命令",
        "000 §使用的命令请求遵守哪些规范？ — 慎用的命令",
    ),
)
class KeysCommand(CommandRule[RuleOptions]):
    """Checks for the KEYS command.

    ## What it does
    Reports every KEYS call (code `keys`): in source code, through the runtime guard, or on a server, where
    `INFO commandstats` counts the calls (the value) and the slow log shows the slowest ones (the value is
    then the duration in microseconds).

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

    def check(self, fact: CommandFact, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        if fact.name.lower() != "keys":
            return
        how = seen(fact)
        yield Violation(
            "keys",
            Text(
                f"KEYS scans the whole keyspace and blocks the server{how.en}: use SCAN with MATCH and COUNT "
                "(scan_iter(match=…, count=…)) or keep the keys in a set",
                f"KEYS 会遍历整个键空间并阻塞服务{how.zh}：请使用带 MATCH 和 COUNT 的 SCAN"
                "（scan_iter(match=…, count=…)），或用集合记录这些 Key",
            ),
            value=measured(fact),
        )
