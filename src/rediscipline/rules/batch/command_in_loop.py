"""BAT002 command-in-loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.batch.multi_key import COMMANDS_PER_PIPELINE, KEYS_PER_CALL, batched_form, first_key
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.pubsub.blocking import blocks, subscribes


@dataclass(frozen=True)
class CommandInLoopOptions(RuleOptions):
    max_iterations: int = option(100, "Report a command sent one by one at least this many times in a loop.", minimum=1)


def _instead(call: CodeCall) -> Text:
    """The fix: a bounded pipeline, and the one multi-key command that does the same when there is one."""
    pipeline = Text(
        f"queue the calls on a pipeline and execute() it every ≤ {COMMANDS_PER_PIPELINE} commands",
        f"请放入 Pipeline 并每 {COMMANDS_PER_PIPELINE} 条以内执行一次 execute()",
    )
    batched = batched_form(call)
    if batched is None:
        return pipeline
    return Text(
        f"{pipeline.en}, or send one {batched} per ≤ {KEYS_PER_CALL} of them",
        f"{pipeline.zh}，或改用 {batched}，每次不超过 {KEYS_PER_CALL} 个",
    )


@rule(
    "BAT002",
    "command-in-loop",
    title=("Command sent one by one in a large loop", "在大循环中逐条发送命令"),
    severity=Severity.WARNING,
    where=("code", "runtime"),
    sources=("000 §使用的命令请求遵守哪些规范？ — 控制数量",),
)
class CommandInLoop(CallRule[CommandInLoopOptions]):
    """Checks for commands sent one at a time inside a loop over many items.

    ## What it does
    Reports a command sent directly (not queued on a pipeline) inside loops that run it at least
    `max-iterations` times, when every enclosing loop's bound is visible in the code (`range(5000)`, a
    literal list). At run time (the guard), a command sent at once from one call site, again and again
    with less than 5 ms between two sends and no other command from that thread in between, is reported
    once the run reaches `max-iterations`; runs are counted at powers of two, so the message says "at
    least 128 times in a row" for the first power of two at or above the limit. The code is `loop`; the
    message gives the number of round trips and the batched form of the command when there is one: MGET
    for GET, one DEL or UNLINK for many, and for a command on one element of a collection whose key has no
    variable part, HMGET for HGET, SMISMEMBER for SISMEMBER, ….

    Blocking reads (BLPOP, BRPOP, XREAD with `block`, WAIT) and subscriptions are never reported: in a
    loop they are a consumer waiting for messages, which no pipeline can batch. In code, loops whose
    size is not visible are not judged.

    ## Why is this bad?
    Each call waits for a full network round trip before the next is sent. At 0.5 ms per round trip a
    loop of 10 000 GETs spends 5 s waiting on the network while the server is idle, and the server
    spends more time reading and writing sockets than executing commands. A pipeline sends many commands
    in one write and reads all replies in one go.

    ## Example
    ```python
    for uid in range(10_000):
        scores.append(r.get(f"user:score:{uid}"))
    ```

    ## Use instead
    ```python
    pipe = r.pipeline(transaction=False)
    for start in range(0, 10_000, 200):
        for uid in range(start, start + 200):
            pipe.get(f"user:score:{uid}")
        scores.extend(pipe.execute())
    ```

    ## Options
    - `max-iterations`: report a command sent one by one at least this many times in a loop (default
      100).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 控制数量: batch requests (at most 100 keys per request) and
      pipelines (at most 200 commands per batch, better 50) are the sizes to aim for.
    """

    Options = CommandInLoopOptions

    def check(self, call: CodeCall, ctx: RuleContext[CommandInLoopOptions]) -> Iterator[Violation]:
        times = call.loop_iterations
        if call.pipelined or not call.command or times is None or times < ctx.options.max_iterations:
            return
        if blocks(call) or subscribes(call):
            return
        shown, key, instead = call.command.upper(), first_key(call), _instead(call)
        on = Text(f" on {key}", f" {key}") if key is not None else Text("", "")
        if call.at_run_time:  # a run of sends seen so far, counted at powers of two: a lower bound
            sent = Text(f"is sent at least {times:,} times in a row", f"被连续逐条发送了至少 {times:,} 次")
        else:
            sent = Text(f"is sent {times:,} times in a loop", f"在循环中逐条发送 {times:,} 次")
        yield Violation(
            "loop",
            Text(
                f"{shown}{on.en} {sent.en}, one network round trip each: {instead.en}",
                f"{shown}{on.zh} {sent.zh}，每次一个网络往返：{instead.zh}",
            ),
            value=times,
        )
