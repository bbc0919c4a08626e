"""The labels of a simulation's section (`render.simulation`), in English and Chinese."""

from __future__ import annotations

from rediscipline.model.text import Text

SIMULATION_LABELS = {
    "sim-title": Text("Eviction simulation of {source}", "{source} 的淘汰模拟"),
    "sim-trace": Text(
        "trace: {format}, {accesses} accesses of {keys} keys, {span}; working set {working} (every key read, held "
        "at once)",
        "访问轨迹：{format}，{keys} 个 Key 共 {accesses} 次访问，{span}；工作集 {working}（被读取的 Key 全部同时驻留）",
    ),
    "sim-span": Text("over {seconds} s", "跨度 {seconds} 秒"),
    "sim-untimed": Text("without times", "没有时间戳"),
    "sim-settings": Text(
        "memory as {model} counts it (baseline {baseline} without keys); maxmemory-samples {samples}, "
        "lfu-log-factor {factor}, lfu-decay-time {decay}; seed {seed}",
        "按 {model} 的方式计算内存（无 Key 时基线 {baseline}）；maxmemory-samples {samples}，"
        "lfu-log-factor {factor}，lfu-decay-time {decay}；随机种子 {seed}",
    ),
    "sim-hit-ratios": Text("Hit ratio by maxmemory and policy", "按 maxmemory 与淘汰策略的命中率"),
    "sim-maxmemory": Text("maxmemory", "maxmemory"),
    "sim-of-working-set": Text("of the working set", "占工作集"),
    "sim-target": Text(
        "{policy}: smallest maxmemory replayed for {targets}", "{policy}：达到命中率所需的最小 maxmemory：{targets}"
    ),
    "sim-none": Text("none replayed", "所模拟的大小均未达到"),
    "sim-replays": Text("Each replay", "每次回放"),
    "sim-policy": Text("policy", "策略"),
    "sim-hits": Text("hits", "命中"),
    "sim-misses": Text("misses", "未命中"),
    "sim-evicted": Text("evicted keys", "淘汰 Key 数"),
    "sim-evicted-bytes": Text("evicted", "淘汰字节"),
    "sim-oom": Text("OOM errors", "OOM 错误"),
    "sim-peak": Text("peak memory", "内存峰值"),
    "sim-top-namespace": Text("most evicted pattern (keys)", "淘汰最多的模式（Key 数）"),
    "sim-expiry-title": Text("Expiry simulation of {source}", "{source} 的过期模拟"),
    "sim-expiry-settings": Text(
        "{algorithm} at hz {hz}, active-expire-effort {effort}, lazyfree-lazy-expire {lazyfree}; {seconds} s "
        "from {start}, a point every {step} s; nothing reads the keys",
        "{algorithm}：hz {hz}，active-expire-effort {effort}，lazyfree-lazy-expire {lazyfree}；从 {start} 起 "
        "{seconds} 秒，每 {step} 秒一个点；没有任何读取",
    ),
    "sim-algorithm-cursor": Text(
        "the active expire cycle of Redis 6.0 and later (a cursor over each database's keys with a TTL)",
        "Redis 6.0 及以后的主动过期周期（游标遍历每个数据库中带 TTL 的 Key）",
    ),
    "sim-algorithm-random": Text(
        "the active expire cycle of Redis 5 and earlier (random samples of the keys with a TTL)",
        "Redis 5 及以前的主动过期周期（随机抽样带 TTL 的 Key）",
    ),
    "sim-algorithm-valkey9": Text(
        "the active expire cycle of Valkey 8.1 and later (a cursor over each database's keys with a TTL)",
        "Valkey 8.1 及以后版本的主动过期周期（游标遍历每个数据库中带 TTL 的 Key）",
    ),
    "sim-expiry-maxmemory": Text("maxmemory {size}", "maxmemory {size}"),
    "sim-yes": Text("yes", "yes"),
    "sim-no": Text("no", "no"),
    "sim-no-volatile": Text("no key has a TTL: nothing expires", "没有设置 TTL 的 Key：不会有 Key 过期"),
    "sim-volatile": Text("db {db}: {keys} keys with a TTL ({size})", "db {db}：{keys} 个设置了 TTL 的 Key（{size}）"),
    "sim-expiry-series": Text("db {db}: keys past their TTL over time", "db {db}：已过期 Key 随时间的变化"),
    "sim-t": Text("seconds", "秒"),
    "sim-expired-waiting": Text("expired, still in memory", "已过期仍在内存"),
    "sim-waiting-bytes": Text("their memory", "其内存"),
    "sim-reclaimed": Text("reclaimed", "已回收"),
    "sim-storms": Text("Where the expire cycle worked hardest", "过期周期最繁忙的时段"),
    "sim-cpu-share": Text("share of the server's time", "占服务端时间"),
    "sim-limit-hits": Text("cycles at their time limit", "达到时间上限的周期"),
    "sim-longest": Text("longest cycle (ms)", "最长周期（ms）"),
}
