"""Fixed words of a report's traffic section (`render.traffic`) in English and Chinese; `render.labels` holds
them with the other words, so `label` finds them."""

from __future__ import annotations

from rediscipline.model.text import Text

TRAFFIC_LABELS = {
    "tr-title": Text("Traffic: {address} · {window}", "请求流量：{address} · {window}"),
    "tr-window": Text("{seconds} s from {start}", "自 {start} 起 {seconds} 秒"),
    "tr-calls": Text(
        "{calls} calls ({rate}/s) · {commands} commands · {errors} error replies",
        "{calls} 次调用（每秒 {rate} 次）· {commands} 种命令 · {errors} 个错误回复",
    ),
    "tr-hit-ratio": Text("keyspace hit ratio {ratio}", "键空间命中率 {ratio}"),
    "tr-reset": Text(
        "the server's counters went backwards inside the window (a restart, a failover or CONFIG RESETSTAT): its "
        "calls, errors and rates are unknown and not shown",
        "窗口内服务端计数器回退（重启、故障转移或 CONFIG RESETSTAT）：窗口内的调用、错误与速率未知，未予显示",
    ),
    "tr-by-calls": Text(
        "Commands by calls ({shown} of {total})", "按调用次数排序的命令（共 {total} 种，列出 {shown} 种）"
    ),
    "tr-by-cpu": Text(
        "Commands by CPU ({shown} of {total})", "按 CPU 时间排序的命令（共 {total} 种，列出 {shown} 种）"
    ),
    "tr-command": Text("command", "命令"),
    "tr-calls-column": Text("calls", "调用次数"),
    "tr-per-second": Text("per second", "每秒"),
    "tr-cpu": Text("CPU", "CPU 时间"),
    "tr-usec-per-call": Text("µs/call", "每次 µs"),
    "tr-failed": Text("failed", "失败"),
    "tr-rejected": Text("rejected", "拒绝"),
    "tr-errors": Text(
        "Error replies by prefix ({shown} of {total})", "按前缀统计的错误回复（共 {total} 种，列出 {shown} 种）"
    ),
    "tr-error": Text("error", "错误"),
    "tr-replies": Text("replies", "回复数"),
    "tr-stats": Text("Server counters over the window", "窗口内的服务端计数器"),
    "tr-counter": Text("counter", "计数器"),
    "tr-in-window": Text("in the window", "窗口内"),
    "tr-clients": Text("Clients", "客户端"),
    "tr-clients-line": Text(
        "{total} connections at the end of the window ({listed} listed) · {pubsub} pub/sub · {blocked} blocked · "
        "{transactions} in MULTI or WATCH · {monitors} MONITOR",
        "窗口结束时共 {total} 个连接（列出 {listed} 个）· {pubsub} 个发布/订阅 · {blocked} 个阻塞 · "
        "{transactions} 个处于 MULTI 或 WATCH · {monitors} 个 MONITOR",
    ),
    "tr-not-read": Text("not read: {error}", "未读取：{error}"),
    "tr-client": Text("client", "客户端"),
    "tr-pubsub": Text("Pub/sub clients with the most channels", "订阅频道最多的发布/订阅客户端"),
    "tr-channels": Text("channels", "频道"),
    "tr-patterns": Text("patterns", "模式"),
    "tr-shard-channels": Text("shard channels", "分片频道"),
    "tr-output-buffer": Text("output buffer", "输出缓冲区"),
    "tr-blocked": Text("Blocked clients", "阻塞的客户端"),
    "tr-idle": Text("idle", "空闲"),
    "tr-age": Text("age", "连接时长"),
    "tr-transactions": Text("Clients in MULTI or WATCH", "处于 MULTI 或 WATCH 的客户端"),
    "tr-queued": Text("queued in MULTI", "MULTI 中排队"),
    "tr-watched": Text("watched keys", "WATCH 的 Key"),
    "tr-monitors": Text("MONITOR clients", "MONITOR 客户端"),
    "tr-buffers": Text("Biggest output buffers", "最大的输出缓冲区"),
    "tr-class": Text("class", "类别"),
    "tr-limit": Text("class limit", "类别限制"),
    "tr-no-limit": Text("none", "无"),
    "tr-hard": Text("hard {size}", "硬限制 {size}"),
    "tr-soft": Text("soft {size} for {seconds} s", "软限制 {size} 持续 {seconds} 秒"),
    "tr-slowlog": Text("Slow log", "慢日志"),
    "tr-slowlog-line": Text(
        "calls logged in the window: {n} (slower than {threshold}) · older entries in the log: {history}{since}",
        "窗口内记录的调用：{n} 次（慢于 {threshold}）· 日志中更早的记录：{history} 条{since}",
    ),
    "tr-slowlog-since": Text(", since {time}", "，最早在 {time}"),
    "tr-unknown-threshold": Text("an unknown threshold", "未知阈值"),
    "tr-slow-calls": Text(
        "Slow calls in the window ({shown} slowest of {total})",
        "窗口内的慢调用（共 {total} 次，列出最慢的 {shown} 次）",
    ),
    "tr-time": Text("time", "时间"),
    "tr-duration": Text("µs", "µs"),
    "tr-more-args": Text("… {n} more arguments", "……另有 {n} 个参数"),
    "tr-hot-keys": Text(
        "Hot keys ({shown} of {found}; {source}: {sampled} of {population} keys read)",
        "热点 Key（共 {found} 个，列出 {shown} 个；{source}：读取了 {population} 个 Key 中的 {sampled} 个）",
    ),
    "tr-key": Text("key", "Key"),
    "tr-db": Text("db", "db"),
    "tr-accesses": Text("accesses/s", "每秒访问"),
    "tr-counter-lfu": Text("LFU counter", "LFU 计数"),
    "tr-queues": Text("Queues ({shown} of {total})", "队列（共 {total} 个，列出 {shown} 个）"),
    "tr-type": Text("type", "类型"),
    "tr-length-start": Text("length at start", "开始时长度"),
    "tr-length-end": Text("length at end", "结束时长度"),
    "tr-growth": Text("growth/s", "每秒增长"),
    "tr-why": Text("taken for a queue by", "判定为队列的依据"),
    "tr-groups": Text("Stream consumer groups", "Stream 消费者组"),
    "tr-stream": Text("stream", "Stream"),
    "tr-group": Text("group", "消费者组"),
    "tr-consumers": Text("consumers", "消费者"),
    "tr-pending": Text("pending", "待确认"),
    "tr-lag": Text("lag", "滞后"),
    "tr-sources": Text("Sources and what they cannot see", "数据来源及其盲区"),
    "tr-source": Text("{source}: {text}", "{source}：{text}"),
}
