"""PUB001 blocking-timeout."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.key.template_parts import show
from rediscipline.rules.options import RuleOptions
from rediscipline.rules.pubsub.blocking import BLOCKING_POPS, PUBSUB_CHECKS, STREAM_READS, is_zero

_FOREVER = Text(
    "waits for ever: a consumer behind a dead connection or a failed-over server hangs without an error",
    "会永久等待：连接断开或主从切换后，消费者会无声无息地一直挂起",
)


def _head(call: CodeCall) -> Text:
    """The start of the message: the command, and its key when known (BRPOP on `queue:orders`)."""
    shown = call.command.upper()
    if not call.keys:
        return Text(shown, f"{shown} ")
    key = f"`{show(call.keys[0].pattern)}`"
    return Text(f"{shown} on {key}", f"{shown}（{key}）")


@rule(
    "PUB001",
    "blocking-timeout",
    title=("Blocking read without a timeout", "阻塞读取未设置超时"),
    severity=Severity.WARNING,
    where=(*PUBSUB_CHECKS, "traffic"),
    sources=("001 §命令使用 — 7. list的消费尽量使用brpop，blpop；并设置timeout参数",),
)
class BlockingTimeout(CallRule[RuleOptions]):
    """Checks that blocking reads of queues give up after a while.

    ## What it does
    Reports blocking pops and moves (BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, BLMPOP, BZPOPMIN, BZPOPMAX,
    BZMPOP) called without `timeout` (code `no-timeout`: redis-py's default is 0) or with `timeout=0` or
    `timeout=None` (code `timeout-zero`: redis-py sends 0 for None), and XREAD / XREADGROUP with
    `block=0` (code `block-zero`). A timeout written as an expression is judged by the literal values it
    can take: a fallback or a branch that gives 0 or None (`timeout or 0`, `timeout=None if wait else 5`,
    `block=block or 0`) makes blocking for ever a reachable value, and is reported as such (code
    `may-block-forever`); any other expression (`timeout=self.timeout`, `timeout=poll_seconds`) is not
    judged. A call that passes unpacked arguments (`**kwargs`) may pass the timeout through them and is
    not reported for lacking one. XREAD without `block` does not block and passes. At run time (the
    guard), every such command sent is judged with the timeout it really carries: redis-py always sends
    one, so the codes there are `timeout-zero` and `block-zero`. In a server's traffic (`rediscipline
    traffic --monitor`), every blocking read the MONITOR sample saw with a timeout (or BLOCK) of 0, once per
    command and key pattern, whoever sent it.

    ## Why is this bad?
    A timeout of 0 means "wait for ever". When the connection dies silently (a NAT or load balancer
    dropping idle connections, a failover to a replica) the consumer keeps waiting on a socket that will
    never deliver, with no error and no log, while the queue fills up. A finite timeout makes the loop
    come back regularly, notice a broken connection and reconnect.

    ## Example
    ```python
    while True:
        job = r.brpop("queue:orders")
        handle(job)
    ```

    ## Use instead
    ```python
    while True:
        job = r.brpop("queue:orders", timeout=5)
        if job is not None:
            handle(job)
    ```

    ## Options
    None.

    ## Source
    - 001 §命令使用 — 7: consume lists with BRPOP/BLPOP and set the timeout parameter.
    """

    def check(self, call: CodeCall, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        command, head = call.command, _head(call)
        if command in BLOCKING_POPS:
            if not call.may_give("timeout"):
                yield Violation(
                    "no-timeout",
                    Text(
                        f"{head.en} has no timeout, and redis-py's default 0 {_FOREVER.en}; pass timeout= in "
                        "seconds (e.g. timeout=5) and loop",
                        f"{head.zh}未设置 timeout，redis-py 默认值 0 {_FOREVER.zh}；请传入 timeout=（秒，如 "
                        "timeout=5）并循环读取",
                    ),
                )
            elif is_zero(call.literal("timeout")) or _literal_none(call, "timeout"):
                yield Violation(
                    "timeout-zero",
                    Text(
                        f"{head.en} with timeout=0 {_FOREVER.en}; pass a timeout in seconds (e.g. timeout=5) and loop",
                        f"{head.zh}的 timeout=0 {_FOREVER.zh}；请设置以秒为单位的超时（如 timeout=5）并循环读取",
                    ),
                )
            elif _may_wait_forever(call, "timeout", none_waits=True):
                yield _reachable_forever(head, "timeout", "timeout=5")
        elif command in STREAM_READS and is_zero(call.literal("block")):
            yield Violation(
                "block-zero",
                Text(
                    f"{head.en} with block=0 {_FOREVER.en}; pass block= in milliseconds (e.g. block=5000) and loop",
                    f"{head.zh}的 block=0 {_FOREVER.zh}；请传入以毫秒为单位的 block=（如 block=5000）并循环读取",
                ),
            )
        elif command in STREAM_READS and _may_wait_forever(call, "block", none_waits=False):
            yield _reachable_forever(head, "block", "block=5000")


def _may_wait_forever(call: CodeCall, name: str, *, none_waits: bool) -> bool:
    """A parameter written as an expression that can evaluate to 0 (or None, where redis-py sends 0 for it):
    `timeout or 0`, `0 if forever else 5`."""
    return any(is_zero(value) or (none_waits and value is None) for key, value in call.possible if key == name)


def _reachable_forever(head: Text, name: str, example: str) -> Violation:
    return Violation(
        "may-block-forever",
        Text(
            f"{head.en} with a {name} that can be 0 (a fallback or a branch gives 0 or None), and then "
            f"{_FOREVER.en}; fall back to a finite {name} (e.g. {example}) and loop",
            f"{head.zh}的 {name} 可能为 0（回退值或某个分支给出 0 或 None），此时{_FOREVER.zh}；"
            f"请回退到有限的 {name}（如 {example}）并循环读取",
        ),
    )


def _literal_none(call: CodeCall, name: str) -> bool:
    """`timeout=None` written out: redis-py sends 0 for it, which blocks for ever."""
    return any(key == name and value is None for key, value in call.literals)
