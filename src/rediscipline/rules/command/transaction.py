"""CMD007 transaction."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.facts import CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.evidence import CLIENT_CHECKS, from_client
from rediscipline.rules.options import RuleOptions, option

_MESSAGES = {
    "multi": Text(
        "MULTI/EXEC transaction: Redis transactions never roll back, the server holds every queued command "
        "until EXEC, and in a cluster they fail with CROSSSLOT unless all keys share a slot; use a plain "
        "pipeline (pipeline(transaction=False)), a Lua script or one multi-key command",
        "MULTI/EXEC 事务：Redis 事务不支持回滚，EXEC 前服务端要缓存全部命令，"
        "集群中键不在同一槽位时会报 CROSSSLOT 错误；请改用普通 Pipeline（pipeline(transaction=False)）、"
        "Lua 脚本或一条多键命令",
    ),
    "watch": Text(
        "WATCH (optimistic locking): the transaction is retried again and again while other clients write the "
        "keys, and in a cluster every watched key must share a slot; do the check-and-set in a Lua script "
        "(register_script) instead",
        "WATCH（乐观锁）：其他客户端写入这些键时事务会反复重试，集群中所有被 WATCH 的键必须在同一槽位；"
        "请改用 Lua 脚本（register_script）完成检查并设置",
    ),
}


@dataclass(frozen=True)
class TransactionOptions(RuleOptions):
    watch: bool = option(False, "Also report WATCH (optimistic locking), which precedes the MULTI reported anyway.")


@rule(
    "CMD007",
    "transaction",
    title=("Redis transaction", "使用了 Redis 事务"),
    severity=Severity.WARNING,
    where=CLIENT_CHECKS,
    sources=("001 §命令使用 — 3. 不建议使用redis事务",),
)
class Transaction(CommandRule[TransactionOptions]):
    """Checks for MULTI/EXEC transactions and WATCH.

    ## What it does
    Reports MULTI (code `multi`) sent by the application, and with `watch` also WATCH (code `watch`): in
    code, `pipeline(transaction=True)` written out, `pipe.multi()` and `r.transaction(fn, …)`; at run
    time (the guard), `pipe.multi()`, a MULTI sent through `execute_command`, and each WATCH sent. A
    WATCH is followed by the MULTI it guards, so one transaction is one finding unless `watch` is on.
    `r.pipeline()` without `transaction` is a transaction in redis-py too, but code is not reported for
    it: most code means a plain batch by it (pass `transaction=False` to say so, and save the
    MULTI/EXEC). The guard cannot tell that default from `transaction=True` written out, so at run time
    neither is reported unless it calls `multi()`.

    A server's `INFO commandstats` and slow log are never reported: they count the MULTI of every
    redis-py default pipeline and cannot tell who sent it.

    ## Why is this bad?
    Redis transactions are weak: a command that fails inside one does not roll the others back, the
    server queues every command until EXEC, and WATCH-based optimistic locking retries in a loop under
    contention. In a cluster, every key of a transaction must hash to one slot, or it fails with
    CROSSSLOT; proxies such as Codis and twemproxy do not support transactions at all.

    ## Example
    ```python
    pipe = r.pipeline(transaction=True)
    pipe.decrby(f"stock:item:{sku}", 1)
    pipe.lpush(f"order:queue:{shop}", order_id)
    pipe.execute()
    ```

    ## Use instead
    A plain pipeline when the commands need not be atomic, or a Lua script (`r.register_script`) when
    they must be, with all its keys passed in `KEYS` and sharing a hashtag in a cluster:
    ```python
    pipe = r.pipeline(transaction=False)
    ```

    ## Options
    - `watch`: also report WATCH (default false).

    ## Source
    - 001 §命令使用 — 3. 不建议使用redis事务: Redis transactions are weak and do not support rollback.
    """

    commands = frozenset(_MESSAGES)

    Options = TransactionOptions

    def check(self, fact: CommandFact, ctx: RuleContext[TransactionOptions]) -> Iterator[Violation]:
        name = fact.name.lower()
        message = _MESSAGES.get(name)
        if name == "watch" and not ctx.options.watch:
            return
        if message is not None and from_client(fact):
            yield Violation(name, message)
