"""PUB004 output-buffer-near-limit."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.traffic import CLASS_PUBSUB, CLASS_REPLICA, ClientInfo, TrafficView
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import RuleContext, SubjectViolation, TrafficRule, rule
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.pubsub.clients import CLIENT_CHECKS, OutputLimit, client_label, client_subject, output_limit

MB = 1024**2


@dataclass(frozen=True)
class OutputBufferOptions(RuleOptions):
    near: float = option(0.5, "Report a buffer above this share of its class's limit.", minimum=0)
    max_unlimited_bytes: int = option(
        64 * MB, "Report a buffer above this many bytes in a class with no limit.", minimum=0
    )


@rule(
    "PUB004",
    "output-buffer-near-limit",
    title=("Client output buffer near its limit", "客户端输出缓冲区接近上限"),
    severity=Severity.WARNING,
    where=CLIENT_CHECKS,
    sources=(
        "000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信",
        "002 §命令使用规范 — 规范二：慎用 MONITOR 命令",
    ),
)
class OutputBufferNearLimit(TrafficRule[OutputBufferOptions]):
    """Checks how close each client's output buffer is to the limit that disconnects it.

    ## What it does
    Reads each connection's output buffer (`omem` in `CLIENT LIST`) when a traffic window ends and
    compares it with `client-output-buffer-limit` of its class: `pubsub` for subscribers, `replica` for
    replicas, `normal` for the others, MONITOR clients included. The limit compared is the soft one when
    it is set (the server disconnects a client that stays above it for the soft limit's seconds), else
    the hard one (disconnected at once); the hard one when it is below the soft one. A buffer above
    `near` of that limit is reported, its code the class (`pubsub`, `replica`, `normal`). A class with no
    limit at all (`0 0 0`, normal clients by default) is reported, with the code `unlimited`, when the
    buffer is above `max-unlimited-bytes`. The finding is about the client (its address, and its name when
    it set one); its value is the buffer's size in bytes. What `omem` does not count stays unseen: Valkey
    9 queues a string reply of 16 KB or more by reference, counted neither in `omem` nor against the
    limit, so a subscriber of big messages can hold far more memory than its buffer shows.

    ## Why is this bad?
    A buffer grows when the server produces replies faster than the client reads them: a subscriber
    slower than its channels publish, a replica behind on a burst of writes, a client that reads a big
    reply or a long pipeline slowly, MONITOR on a busy server. At the limit the server closes the
    connection. A subscriber loses every message queued for it (pub/sub does not deliver again); a
    replica is cut off and syncs again, with a full resync (an RDB of the whole data set) when the
    backlog no longer covers what it missed, and the resync's own buffer can meet the same limit. A class
    without a limit is worse: nothing stops the buffer, which counts against `maxmemory` (keys evicted,
    or writes refused under `noeviction`) and grows until the host runs out of memory. A buffer at half
    its limit is one burst away from it.

    ## Example
    ```
    client-output-buffer-limit pubsub 32mb 8mb 60
    id=42 addr=10.0.0.7:51022 name=feed flags=P sub=12 omem=6291456 cmd=subscribe
    id=57 addr=10.0.0.9:40112 name= flags=O omem=104857600 cmd=monitor
    ```

    ## Use instead
    Subscribers read in a loop that does nothing else and hand slow work to a queue; replicas get a
    limit that holds a burst of writes; MONITOR runs for seconds only, and normal clients get a limit:
    ```
    client-output-buffer-limit replica 512mb 128mb 120
    client-output-buffer-limit normal 256mb 64mb 60
    ```

    ## Options
    - `near`: report a buffer above this share of its class's limit (default 0.5).
    - `max-unlimited-bytes`: report a buffer above this many bytes in a class with no limit (default
      64 MB).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信: keep subscriptions small and consume a backlog
      slowly, so that the output buffer does not grow until the server disconnects the client.
    - 002 §命令使用规范 — 规范二：慎用 MONITOR 命令: MONITOR keeps writing to the output buffer, which
      overflows on a busy server and can bring the service down.
    """

    Options = OutputBufferOptions

    def check(self, traffic: TrafficView, ctx: RuleContext[OutputBufferOptions]) -> Iterator[SubjectViolation]:
        opts = ctx.options
        for client in traffic.clients:
            output_class = client.output_class
            limit = output_limit(traffic, output_class)
            if limit.unlimited:
                if client.omem > opts.max_unlimited_bytes:
                    violation = Violation("unlimited", _unlimited(client, opts.max_unlimited_bytes), value=client.omem)
                    yield SubjectViolation(violation, client_subject(client))
            elif client.omem > opts.near * limit.bytes:
                violation = Violation(output_class, _near(client, limit), value=client.omem)
                yield SubjectViolation(violation, client_subject(client))


def _who(client: ClientInfo) -> Text:
    """What the connection is, as a message opens: `subscriber`, `replica`, `MONITOR client`, `client`."""
    if client.output_class == CLASS_PUBSUB:
        return Text("subscriber", "订阅者")
    if client.output_class == CLASS_REPLICA:
        return Text("replica", "副本")
    if "O" in client.flags:
        return Text("MONITOR client", "MONITOR 客户端")
    return Text("client", "客户端")


def _near(client: ClientInfo, limit: OutputLimit) -> Text:
    output_class, who, label = client.output_class, _who(client), client_label(client)
    which = Text("soft", "软限制") if limit.by_soft else Text("hard", "硬限制")
    share = f"{client.omem / limit.bytes:.0%}"
    described, reached = limit.described(), limit.reached()
    if output_class == CLASS_PUBSUB:
        fate = Text(
            "the server disconnects the subscriber and every message queued for it is lost; make it read "
            "faster, or spread its channels over more subscribers",
            "实例会断开该订阅者，排队中的消息全部丢失；请让它读得更快，或把频道分散到更多订阅者",
        )
    elif output_class == CLASS_REPLICA:
        fate = Text(
            "the server drops the replica's link and the replica syncs again, with a full resync (an RDB of the "
            "whole data set) when the backlog no longer covers what it missed; raise the replica limit to hold "
            "a burst of writes",
            "实例会断开该副本的复制连接，副本要重新同步，复制积压缓冲区不足以覆盖所缺的数据时要全量同步"
            "（整个数据集的 RDB）；请调高 replica 限制，使其容得下一阵突发写入",
        )
    else:
        fate = Text(
            "the server disconnects the client and the replies queued for it are lost; read big replies in "
            "pages (SCAN-family commands, smaller batches) and read replies as they come",
            "实例会断开该客户端，排队中的回复全部丢失；请分页读取大的回复（SCAN 系列命令、更小的批次），并及时读取回复",
        )
    return Text(
        f"{who.en} {label} holds {human_bytes(client.omem)} in its output buffer (omem), {share} of the "
        f"{which.en} limit of client-output-buffer-limit {output_class} ({described.en}): {reached.en} {fate.en}",
        f"{who.zh} {label} 的输出缓冲区（omem）已有 {human_bytes(client.omem)}，达到 "
        f"client-output-buffer-limit {output_class} {which.zh}的 {share}（{described.zh}）：{reached.zh}，{fate.zh}",
    )


def _unlimited(client: ClientInfo, threshold: int) -> Text:
    output_class, who, label = client.output_class, _who(client), client_label(client)
    if output_class == CLASS_REPLICA:
        grows = Text(
            "it is not counted against maxmemory and grows until the host runs out of memory",
            "它不计入 maxmemory，会一直增长到主机内存耗尽",
        )
    else:
        grows = Text(
            "it counts against maxmemory (keys are evicted, or writes refused under noeviction) and grows until "
            "the host runs out of memory",
            "它计入 maxmemory（导致 Key 被淘汰，或在 noeviction 下拒绝写入），并会一直增长到主机内存耗尽",
        )
    if "O" in client.flags:
        advice = Text("end the MONITOR, or run it for seconds only", "请结束 MONITOR，或只运行几秒")
    elif output_class == CLASS_REPLICA:
        advice = Text(
            "check the replica's link, and set a limit: client-output-buffer-limit replica",
            "请检查副本的网络连接，并设置 client-output-buffer-limit replica 限制",
        )
    else:
        advice = Text(
            f"make the client read faster, and set a limit: client-output-buffer-limit {output_class}",
            f"请让客户端读得更快，并设置 client-output-buffer-limit {output_class} 限制",
        )
    size, most = human_bytes(client.omem), human_bytes(threshold)
    return Text(
        f"{who.en} {label} holds {size} in its output buffer (omem), more than {most}, and "
        f"client-output-buffer-limit {output_class} sets no limit (0 0 0): nothing stops the buffer from growing; "
        f"{grows.en}; {advice.en}",
        f"{who.zh} {label} 的输出缓冲区（omem）已有 {size}，超过 {most}，而 client-output-buffer-limit "
        f"{output_class} 未设置限制（0 0 0）：没有任何机制阻止缓冲区增长；{grows.zh}；{advice.zh}",
    )
