"""PUB002 subscription-count."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.pubsub.blocking import PUBSUB_CHECKS, SUBSCRIPTIONS


@dataclass(frozen=True)
class SubscriptionCountOptions(RuleOptions):
    max_channels: int = option(
        50, "Most channels (or patterns) one subscribe call may carry (at run time: one connection).", minimum=1
    )


@rule(
    "PUB002",
    "subscription-count",
    title=("Too many channels in one subscription", "一次订阅的频道过多"),
    severity=Severity.WARNING,
    where=PUBSUB_CHECKS,
    sources=("000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信",),
)
class SubscriptionCount(CallRule[SubscriptionCountOptions]):
    """Checks how many channels one subscription takes.

    ## What it does
    Reports SUBSCRIBE, PSUBSCRIBE and SSUBSCRIBE calls that subscribe to more than `max-channels`
    channels or patterns at once, when the number is visible in the code (a literal list, `range(N)`, a
    comprehension over one, or that many arguments). At run time (the guard), a subscription sent from a
    pub/sub object is counted together with the channels and patterns that object already holds, so a
    connection that reaches the limit one subscription at a time is reported too. The code is the
    command.

    ## Why is this bad?
    All messages of all the channels a connection subscribes to arrive on that one connection. The
    server queues them in the client's output buffer, and when the client reads more slowly than the
    channels publish, the buffer passes `client-output-buffer-limit pubsub` (32 MB, or 8 MB for 60 s, by
    default) and the server disconnects the subscriber, losing every message in flight. Each pattern
    subscription also costs the server a pattern match on every PUBLISH.

    ## Example
    ```python
    p = r.pubsub()
    p.subscribe(*[f"room:msg:{rid}" for rid in range(500)])
    ```

    ## Use instead
    Spread the channels over several subscribers of at most 50 channels each, or publish to fewer
    channels that carry the room in the message:
    ```python
    for start in range(0, 500, 50):
        p = r.pubsub()
        p.subscribe(*[f"room:msg:{rid}" for rid in range(start, start + 50)])
    ```

    ## Options
    - `max-channels`: most channels or patterns one subscribe call may carry, or at run time one pub/sub
      connection may hold (default 50).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信: subscribe to at most 50 channels at once, so
      that the output buffer does not grow until the server disconnects the client.
    """

    Options = SubscriptionCountOptions

    def check(self, call: CodeCall, ctx: RuleContext[SubscriptionCountOptions]) -> Iterator[Violation]:
        limit = ctx.options.max_channels
        if call.command not in SUBSCRIPTIONS or call.batch is None or call.batch <= limit:
            return
        shown = call.command.upper()
        what = Text("patterns", "个模式") if call.command == "psubscribe" else Text("channels", "个频道")
        if call.at_run_time:  # the batch counts what the connection already held, channels and patterns alike
            takes = Text(
                f"brings one connection to {call.batch:,} channels and patterns",
                f"使一个连接的订阅达到 {call.batch:,} 个频道与模式",
            )
        else:
            takes = Text(
                f"takes {call.batch:,} {what.en} on one connection",
                f"在一个连接上订阅了 {call.batch:,} {what.zh}",
            )
        yield Violation(
            call.command,
            Text(
                f"{shown} {takes.en} (more than {limit}): every message "
                "of all of them queues in this client's output buffer, and past client-output-buffer-limit "
                f"pubsub the server disconnects it; spread them over several subscribers of ≤ {limit} each",
                f"{shown} {takes.zh}（超过 {limit}）："
                "所有消息都堆积在该客户端的输出缓冲区，超过 client-output-buffer-limit pubsub 后会被服务端断开；"
                f"请拆分到多个订阅者，每个不超过 {limit}",
            ),
            value=call.batch,
        )
