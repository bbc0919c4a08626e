"""BAT003 pipeline-size."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.batch.multi_key import COMMANDS_PER_PIPELINE
from rediscipline.rules.options import RuleOptions, option

#: The call that sends what a pipeline queued (the code source reports the end of a `with` block as one).
EXECUTE = "execute"


@dataclass(frozen=True)
class PipelineSizeOptions(RuleOptions):
    max_commands: int = option(
        COMMANDS_PER_PIPELINE, "Most commands one pipeline may queue before execute().", minimum=1
    )
    unbounded: bool = option(False, "Also report a pipeline filled by a loop whose length the code does not show.")


@rule(
    "BAT003",
    "pipeline-size",
    title=("Too many commands in one pipeline", "单个 Pipeline 的命令过多"),
    severity=Severity.WARNING,
    where=("code", "runtime", "traffic"),
    sources=("000 §使用的命令请求遵守哪些规范？ — 控制数量",),
)
class PipelineSize(CallRule[PipelineSizeOptions]):
    """Checks how many commands a pipeline queues before it is executed.

    ## What it does
    Reports an `execute()` (or the end of a `with r.pipeline() as pipe:` block) that sends more than
    `max-commands` queued commands, counted through the loops that fill the pipeline when their bounds
    are visible (`range(5000)`, a literal list): code `queued`. With `unbounded`, a pipeline filled by a
    loop whose length the code does not show (`for uid in uids:`) is reported too, code `unbounded`: it
    holds as many commands as the data has items. At run time (the guard), every `execute()` of a
    pipeline or transaction is judged with the number of commands it really sends (code `queued`;
    `unbounded` plays no part there). In a server's traffic (`rediscipline traffic --monitor`), the largest
    MULTI … EXEC block of each client the MONITOR sample saw (MONITOR shows no pipeline boundaries, so only
    transactions are judged there).

    ## Why is this bad?
    The server runs a pipeline's commands one after the other and keeps every reply in the client's
    output buffer until the client reads them; the client holds the whole command list and all replies
    in memory as well. Thousands of commands in one batch make a latency spike for everyone else, a
    memory spike on both sides, and a single failure point: a timeout loses the whole batch. Within a
    transaction (`transaction=True`) the server also queues all of them before EXEC.

    ## Example
    ```python
    pipe = r.pipeline(transaction=False)
    for uid in range(10_000):
        pipe.hgetall(f"user:profile:{uid}")
    profiles = pipe.execute()
    ```

    ## Use instead
    Execute every 200 commands or fewer (000 advises 50 where possible):
    ```python
    pipe = r.pipeline(transaction=False)
    for start in range(0, 10_000, 200):
        for uid in range(start, start + 200):
            pipe.hget(f"user:profile:{uid}", "name")
        names.extend(pipe.execute())
    ```

    ## Options
    - `max-commands`: most commands one pipeline may queue before `execute()` (default 200).
    - `unbounded`: also report a pipeline filled by a loop whose length the code does not show (default
      false: the loop may be over a list that is always small).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 控制数量: keep the keys of each pipeline batch within 200, best
      within 50.
    """

    Options = PipelineSizeOptions

    def check(self, call: CodeCall, ctx: RuleContext[PipelineSizeOptions]) -> Iterator[Violation]:
        if call.method != EXECUTE:
            return
        limit, queued = ctx.options.max_commands, call.queued
        fix = Text(
            f"call execute() every {limit} commands or fewer",
            f"请每 {limit} 条以内调用一次 execute()",
        )
        if queued is not None and queued > limit:
            yield Violation(
                "queued",
                Text(
                    f"the pipeline queues {queued:,} commands before execute() (more than {limit}): the server "
                    f"buffers all the replies and other clients wait; {fix.en}",
                    f"Pipeline 在 execute() 前累积了 {queued:,} 条命令（超过 {limit}）：服务端要缓存全部回复，其他"
                    f"客户端需等待；{fix.zh}",
                ),
                value=queued,
            )
        elif call.unbounded and ctx.options.unbounded:
            yield Violation(
                "unbounded",
                Text(
                    "the pipeline is filled by a loop of unknown length before execute(): it holds as many "
                    f"commands as the data has items; {fix.en}",
                    f"Pipeline 在 execute() 前由长度未知的循环填充：命令数随数据量增长；{fix.zh}",
                ),
            )
