"""The texts of a traffic window's notes (`sources.traffic.source`): a window cut short, counters reset, parts
the server refused, clients beyond what the view keeps."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rediscipline.model.text import Text

Params = Mapping[str, Any]


def _cut(p: Params) -> Text:
    seconds, asked = p["seconds"], p["asked"]
    return Text(
        f"window cut short by Ctrl-C: it covers {seconds:g} s of the {asked:g} s asked for",
        f"观察窗口被 Ctrl-C 提前结束：只覆盖了请求的 {asked:g} 秒中的 {seconds:g} 秒",
    )


def _reset(_p: Params) -> Text:
    return Text(
        "the server's counters went backwards inside the window (a restart, a failover or CONFIG RESETSTAT): "
        "the window's calls, errors and rates are unknown and not shown",
        "窗口内服务端计数器回退（重启、故障转移或 CONFIG RESETSTAT）：窗口内的调用、错误与速率未知，未予显示",
    )


def _refused(p: Params) -> Text:
    parts = "; ".join(str(part) for part in p["parts"])
    return Text(
        f"the server refused part of the observation, the rest goes on: {parts}",
        f"服务端拒绝了部分观察，其余照常进行：{parts}",
    )


def _clients_capped(p: Params) -> Text:
    kept, total = p["kept"], p["total"]
    return Text(
        f"{total:,} connections: the client rules and tables cover the first {kept:,} CLIENT LIST gave",
        f"共 {total:,} 个连接：客户端规则与表格只覆盖 CLIENT LIST 给出的前 {kept:,} 个",
    )


def _no_hot_keys(p: Params) -> Text:
    reason = p["reason"]
    return Text(
        f"hot keys not measured: {reason}; an LFU maxmemory-policy (allkeys-lfu, volatile-lfu) lets the server "
        "count accesses per key (this tool never changes it), and --monitor counts them from a MONITOR sample",
        f"未测量热点 Key：{reason}；LFU 类的 maxmemory-policy（allkeys-lfu、volatile-lfu）会让服务端按 Key 统计访问"
        "（本工具从不修改它），--monitor 则从 MONITOR 采样中统计",
    )


def _monitor_cost(p: Params) -> Text:
    before, during, drop = p["before"], p["during"], p["drop"]
    if drop is None:
        change = Text("", "")
    elif drop >= 0:
        change = Text(f", {drop:.0%} less", f"，下降 {drop:.0%}")
    else:
        change = Text(f", {-drop:.0%} more", f"，上升 {-drop:.0%}")
    return Text(
        f"MONITOR's cost: the server ran {before:,.0f} commands per second before the sample and {during:,.0f} "
        f"during it{change.en} (other changes of the load show here too)",
        f"MONITOR 的代价：采样前服务端每秒执行 {before:,.0f} 条命令，采样期间 {during:,.0f} 条{change.zh}"
        "（负载本身的变化也会体现在这里）",
    )


#: Why a MONITOR sample stopped before its time, in words.
_STOPPED = {
    "max-bytes": Text("--monitor-max-bytes was read", "已读满 --monitor-max-bytes"),
    "backlog": Text("the server sent more than this machine could parse", "服务端发送的速度超过了本机的解析速度"),
    "interrupted": Text("Ctrl-C", "Ctrl-C"),
    "closed": Text("the connection was lost", "连接中断"),
}


def _monitor_short(p: Params) -> Text:
    seconds, asked, stopped, error = p["seconds"], p["asked"], p["stopped"], p["error"]
    why = _STOPPED.get(stopped, Text(stopped, stopped))
    detail = f" ({error})" if error else ""
    return Text(
        f"the MONITOR sample stopped after {seconds:.1f} s of {asked:.1f} s: {why.en}{detail}; its counts cover "
        "that span",
        f"MONITOR 采样在 {asked:.1f} 秒中的 {seconds:.1f} 秒后停止：{why.zh}{detail}；其计数只覆盖这段时间",
    )


def _trace(p: Params) -> Text:
    path, accesses = p["path"], p["accesses"]
    return Text(
        f"trace of {accesses:,} key accesses written to {path}",
        f"已将 {accesses:,} 次 Key 访问的轨迹写入 {path}",
    )


def _cluster(p: Params) -> Text:
    masters = p["masters"]
    listed = ", ".join(str(master) for master in masters)
    return Text(
        f"a cluster: its {len(masters)} masters were observed over the same window ({listed}); each has a traffic "
        "section of its own",
        f"集群：在同一窗口内观察了它的 {len(masters)} 个主节点（{listed}）；每个主节点各有一节请求流量",
    )


def _node_failed(p: Params) -> Text:
    node, reason = p["node"], p["reason"]
    return Text(
        f"master {node} could not be observed, the others were: {reason}",
        f"主节点 {node} 无法观察，其余主节点照常观察：{reason}",
    )


def _slot_stats_off(_p: Params) -> Text:
    return Text(
        "slot heat not measured: the cluster's cluster-slot-stats-enabled is no, so CLUSTER SLOT-STATS counts keys "
        "per slot but not the CPU time and bytes that show which slots the load comes from (this tool never sets "
        "it)",
        "未测量哈希槽热度：集群的 cluster-slot-stats-enabled 为 no，CLUSTER SLOT-STATS 只统计每个槽的 Key 数，"
        "不统计能看出负载来自哪些槽的 CPU 时间与字节（本工具从不修改它）",
    )


#: code → text, for the notes of a traffic window.
TRAFFIC_NOTES: dict[str, Callable[[Params], Text]] = {
    "traffic-cut": _cut,
    "traffic-reset": _reset,
    "traffic-refused": _refused,
    "traffic-clients-capped": _clients_capped,
    "traffic-no-hot-keys": _no_hot_keys,
    "traffic-monitor-cost": _monitor_cost,
    "traffic-monitor-short": _monitor_short,
    "traffic-trace": _trace,
    "traffic-cluster": _cluster,
    "traffic-node-failed": _node_failed,
    "traffic-slot-stats-off": _slot_stats_off,
}
