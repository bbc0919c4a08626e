"""PUB003 pubsub-client-channels."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.traffic import CLASS_PUBSUB, ClientInfo, TrafficView
from rediscipline.rules.base import RuleContext, SubjectViolation, TrafficRule, rule
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.pubsub.clients import CLIENT_CHECKS, client_label, client_subject, output_limit


@dataclass(frozen=True)
class ClientChannelsOptions(RuleOptions):
    max_channels: int = option(
        50, "Most channels, patterns and shard channels one connection may be subscribed to.", minimum=1
    )


@rule(
    "PUB003",
    "pubsub-client-channels",
    title=("Too many channels on one subscriber connection", "一个订阅连接的频道过多"),
    severity=Severity.WARNING,
    where=CLIENT_CHECKS,
    sources=("000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信",),
)
class ClientChannels(TrafficRule[ClientChannelsOptions]):
    """Checks how many channels each connected subscriber holds.

    ## What it does
    Reports each connection that, when a traffic window ends, is subscribed to more than `max-channels`
    channels, patterns and shard channels together (`sub`, `psub` and `ssub` in `CLIENT LIST`). The
    finding is about the client (its address, and its name when it set one); its value is the count. It
    sees what PUB002 cannot: subscriptions made one at a time over a connection's life, channel lists
    read at run time, and clients in any language.

    ## Why is this bad?
    All messages of all the channels a connection subscribes to arrive on that one connection. The
    server queues them in the client's output buffer, and when the client reads more slowly than the
    channels publish, the buffer passes `client-output-buffer-limit pubsub` (32 MB, or 8 MB for 60 s, by
    default) and the server disconnects the subscriber, losing every message in flight. Each pattern
    subscription also costs the server a pattern match on every PUBLISH.

    ## Example
    ```
    id=42 addr=10.0.0.7:51022 name=feed flags=P sub=480 psub=2 ssub=0 omem=0 cmd=subscribe
    ```

    ## Use instead
    Spread the channels over several subscribers of at most 50 channels each, or publish to fewer
    channels that carry the room in the message:
    ```
    id=42 addr=10.0.0.7:51022 name=feed-0 flags=P sub=50 psub=0 ssub=0 omem=0 cmd=subscribe
    id=43 addr=10.0.0.7:51030 name=feed-1 flags=P sub=50 psub=0 ssub=0 omem=0 cmd=subscribe
    ```

    ## Options
    - `max-channels`: most channels, patterns and shard channels one connection may be subscribed to
      (default 50, as PUB002's option).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信: subscribe to at most 50 channels at once, so
      that the output buffer does not grow until the server disconnects the client.
    """

    Options = ClientChannelsOptions

    def check(self, traffic: TrafficView, ctx: RuleContext[ClientChannelsOptions]) -> Iterator[SubjectViolation]:
        limit = ctx.options.max_channels
        buffer = output_limit(traffic, CLASS_PUBSUB)
        if buffer.unlimited:
            fate = Text(
                "client-output-buffer-limit pubsub sets no limit (0 0 0), so a slow reader grows it until the "
                "server runs out of memory",
                "client-output-buffer-limit pubsub 未设置限制（0 0 0），读取慢时缓冲区会一直增长，直到实例内存耗尽",
            )
        else:
            described = buffer.described()
            fate = Text(
                f"past client-output-buffer-limit pubsub ({described.en}) the server disconnects it and the "
                "messages in flight are lost",
                f"超过 client-output-buffer-limit pubsub（{described.zh}）后会被实例断开，在途消息全部丢失",
            )
        for client in traffic.clients:
            total = client.channels
            if total <= limit:
                continue
            label, held = client_label(client), _held(client)
            message = Text(
                f"client {label} is subscribed to {held.en}, more than {limit}: every message of all of them "
                f"queues in this one connection's output buffer, and {fate.en}; spread them over several "
                f"subscribers of ≤ {limit} each",
                f"客户端 {label} 订阅了 {held.zh}，超过 {limit}："
                f"所有这些频道的消息都堆积在这一个连接的输出缓冲区，{fate.zh}；"
                f"请拆分到多个订阅者，每个不超过 {limit}",
            )
            yield SubjectViolation(Violation("channels", message, value=total), client_subject(client))


def _held(client: ClientInfo) -> Text:
    """What the connection is subscribed to: `51 channels` when it holds one kind, else the total and each
    kind, `52 channels and patterns (40 channels, 1 pattern, 11 shard channels)` /
    `52 个频道与模式（40 个频道、1 个模式、11 个分片频道）`."""
    counts = (
        (client.sub, "channel", "channels", "个频道"),
        (client.psub, "pattern", "patterns", "个模式"),
        (client.ssub, "shard channel", "shard channels", "个分片频道"),
    )
    held = [(count, one, many, zh) for count, one, many, zh in counts if count]
    kinds = Text(
        ", ".join(f"{count:,} {one if count == 1 else many}" for count, one, many, _zh in held),
        "、".join(f"{count:,} {zh}" for count, _one, _many, zh in held),
    )
    if len(held) == 1:
        return kinds
    total = client.channels
    return Text(f"{total:,} channels and patterns ({kinds.en})", f"{total:,} 个频道与模式（{kinds.zh}）")
