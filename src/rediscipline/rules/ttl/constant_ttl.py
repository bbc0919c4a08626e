"""TTL007 constant-ttl."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import EXPIRY_OPTION, CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.ttl.code_ttls import SENT_CHECKS, TTL_COMMANDS, command_name, keys_text, ttl_argument

_JITTER = "ttl + random.randint(0, ttl // 10)"


def _where(call: CodeCall) -> tuple[str, Text]:
    """The finding's code and the bulk path the call is on: a loop (with its size when known) or a pipeline;
    at run time, a run of writes that repeat one TTL over many keys of the pattern (however they were sent)."""
    if call.at_run_time:
        return "loop", Text("over many keys written within a second", "在一秒内的批量写入中")
    if call.loop_depth > 0:
        if call.loop_iterations is not None:
            times = f"{call.loop_iterations:,}"
            return "loop", Text(f"in a loop ({times} keys)", f"在循环中（{times} 个 Key）")
        return "loop", Text("in a loop", "在循环中")
    return "pipeline", Text("in a pipeline", "在 Pipeline 中")


@dataclass(frozen=True)
class ConstantTtlOptions(RuleOptions):
    pipelines: bool = option(
        False, "Also report constant TTLs queued on a pipeline outside any loop (one key is rarely bulk)."
    )


@rule(
    "TTL007",
    "constant-ttl",
    title=("Constant TTL on keys written in bulk", "批量写入的 Key 使用固定过期时间"),
    severity=Severity.WARNING,
    where=SENT_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 过期",
        "001 §2.3 控制key的生命周期",
        "001 §过期时间",
        "003 §大批量Key过期引发的性能问题 — 方案1: 设置随机过期时间",
    ),
)
class ConstantTtl(CallRule[ConstantTtlOptions]):
    """Checks that keys written in bulk get a TTL with random jitter.

    ## What it does
    Reports a call that gives a key a TTL written as a constant expression (`3600`, `ONE_HOUR`,
    `24 * 3600`: no random part can be in it) when the call runs in a loop or a comprehension (code
    `loop`), or, with `pipelines`, is queued on a pipeline outside any loop (code `pipeline`): EXPIRE,
    PEXPIRE, EXPIREAT, PEXPIREAT, SETEX, PSETEX, GETEX, or a write with its TTL option
    (`set(k, v, ex=3600)`). A write whose TTL comes from a separate EXPIRE is judged on that EXPIRE, once.
    In code, a TTL computed at run time (`ttl + random.randint(…)`, a function's result) is never
    reported.

    At run time (the guard), what counts is the TTL sent: one TTL (to the second) given by SET with EX,
    PX, EXAT or PXAT, SETEX, PSETEX, GETEX, EXPIRE, PEXPIRE, EXPIREAT or PEXPIREAT to 10 or more keys of
    one key pattern in a burst (each write less than 5 ms after the one before, all within one second: a
    loop or a pipeline) is reported from the tenth key on (code `loop`), whatever expression computed it.
    Steady traffic spreads its expiries as it spreads its writes and is not reported; `pipelines` plays no
    part. In a server's traffic (`rediscipline traffic --monitor`), the same bursts among the writes the
    MONITOR sample saw, timed by the server's clock, once per key pattern (with its longest burst).

    ## Why is this bad?
    Keys written together with the same TTL expire together. An absolute time (EXPIREAT) makes them
    expire in the very same second; a relative one makes a loop's keys expire within the seconds the loop
    took. Redis then deletes them in one burst: the active expiry cycle spends up to a quarter of the CPU
    on it and blocks other work, and every client misses the cache at once and hits the database
    together (a cache avalanche).

    ## Example
    ```python
    for pid in range(100_000):
        r.setex(f"seckill:stock:{pid}", 3600, 1000)
    ```

    ## Use instead
    Add a random part, about a tenth of the TTL:
    ```python
    for pid in range(100_000):
        r.setex(f"seckill:stock:{pid}", 3600 + random.randint(0, 360), 1000)
    ```

    ## Options
    - `pipelines`: also report a constant TTL queued on a pipeline outside any loop (default false: a
      pipeline of a few commands on one key, such as a rate limiter's INCR + EXPIRE, is not a bulk write).

    ## Source
    - 000 §过期: keys written in bulk (flash sales, campaigns) should get a TTL with a random value added,
      so that expiries spread out.
    - 001 §2.3 and §过期时间: spread expiry times; strings should not expire all at once.
    - 003 §方案1: a fixed `SETEX cache:product:{i} 3600` in a loop is the wrong way; add a random offset.
    """

    Options = ConstantTtlOptions

    def check(self, call: CodeCall, ctx: RuleContext[ConstantTtlOptions]) -> Iterator[Violation]:
        bulk = call.loop_depth > 0 or (call.pipelined and ctx.options.pipelines)
        if not call.constant_ttl or not bulk:
            return
        if call.command not in TTL_COMMANDS and call.expiry != EXPIRY_OPTION:
            return
        code, where = _where(call)
        argument = ttl_argument(call)
        given = f"{argument[0]}={argument[1]}" if argument is not None else ""
        ttl = Text(f" ({given})", f"（{given}）") if given else Text("", "")
        command, keys = command_name(call), keys_text(call)
        yield Violation(
            code,
            Text(
                f"{command} gives {keys.en} a constant TTL{ttl.en} {where.en}: all these keys expire at the same "
                f"moment and are deleted in one burst; add random jitter (e.g. `{_JITTER}`)",
                f"{command} {where.zh}为 {keys.zh} 设置了固定的过期时间{ttl.zh}："
                f"这些 Key 会在同一时刻过期并被集中删除；请加上随机偏移（如 `{_JITTER}`）",
            ),
            value=argument[1] if argument is not None else None,
        )
