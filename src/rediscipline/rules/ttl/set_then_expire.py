"""TTL008 set-then-expire."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.code import EXPIRY_SAME_SCOPE, CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions
from rediscipline.rules.ttl.code_ttls import CODE_CHECKS, command_name, keys_text

#: The string writes that can take their TTL in the same command, and that one command.
ONE_COMMAND = {
    "set": "set(key, value, ex=…)",
    "setnx": "set(key, value, nx=True, ex=…)",
    "getset": "set(key, value, get=True, ex=…)",
}


@rule(
    "TTL008",
    "set-then-expire",
    title=("SET followed by a separate EXPIRE", "SET 之后单独调用 EXPIRE"),
    severity=Severity.NOTE,
    where=CODE_CHECKS,
    sources=("003 §过期策略 — Key过期机制概述", "001 §2.3 控制key的生命周期"),
)
class SetThenExpire(CallRule[RuleOptions]):
    """Checks for a string write whose TTL is set by a second command.

    ## What it does
    Reports SET, SETNX and GETSET calls (the code is the command) whose TTL comes from a separate
    EXPIRE, PEXPIRE or EXPIREAT on the same key later in the same function or pipeline; the message
    names the line of that EXPIRE. SET takes the TTL as an option, and `set(…, nx=True, ex=…)` and
    `set(…, get=True, ex=…)` replace SETNX and GETSET (Redis ≥ 2.6.12 and ≥ 6.2). At run time (the
    guard), such a write queued on a pipeline or in a transaction with an EXPIRE of the same key queued
    after it; one sent at once is judged before any EXPIRE follows, and is reported by
    `write-without-ttl` (TTL006) instead.

    Pairs inside a MULTI/EXEC transaction are reported too: there both commands run together, but one
    `SET … EX` is simpler, costs one command instead of two, and needs no transaction.

    ## Why is this bad?
    Two commands are not atomic. If the process crashes, the connection drops or the EXPIRE raises
    between them, the key stays without a TTL for ever. The classic case is a lock: `setnx(lock, 1)`
    followed by `expire(lock, 10)` leaves a lock that is never released when the holder dies in between.

    ## Example
    ```python
    if r.setnx(f"order:lock:{oid}", token):
        r.expire(f"order:lock:{oid}", 10)
    r.set(f"sms:code:{phone}", code)
    r.expire(f"sms:code:{phone}", 300)
    ```

    ## Use instead
    ```python
    if r.set(f"order:lock:{oid}", token, nx=True, ex=10):
        ...
    r.set(f"sms:code:{phone}", code, ex=300)
    ```

    ## Options
    None.

    ## Source
    - 003 §Key过期机制概述: SETEX (`SET … EX`) sets the expiry when the key is created, and SET or GETSET
      on an existing key clears the expiry an earlier EXPIRE gave it.
    - 001 §2.3: every key must get its expiry; a key left without one is a zombie key.
    """

    def check(self, call: CodeCall, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        one = ONE_COMMAND.get(call.command)
        if one is None or call.expiry != EXPIRY_SAME_SCOPE:
            return
        command, keys = command_name(call), keys_text(call)
        line = call.expire_line
        expire = Text(f"its EXPIRE on line {line}", f"第 {line} 行的 EXPIRE") if line else Text("its EXPIRE", "EXPIRE")
        if call.transaction:
            why = Text(
                "the transaction keeps them together, but one command is simpler",
                "事务能让两者一起执行，但一条命令更简单",
            )
        else:
            why = Text(
                "a crash or a lost connection between them leaves the key without a TTL",
                "两者之间进程崩溃或连接中断会让 Key 永不过期",
            )
        yield Violation(
            call.command,
            Text(
                f"{command} of {keys.en} and {expire.en} are two commands: {why.en}; write `{one}` instead",
                f"{keys.zh} 的 {command} 与{expire.zh} 是两条命令：{why.zh}；请改为 `{one}`",
            ),
        )
