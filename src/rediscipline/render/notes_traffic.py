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
        "count accesses per key (this tool never changes it)",
        f"未测量热点 Key：{reason}；LFU 类的 maxmemory-policy（allkeys-lfu、volatile-lfu）会让服务端按 Key 统计访问"
        "（本工具从不修改它）",
    )


#: code → text, for the notes of a traffic window.
TRAFFIC_NOTES: dict[str, Callable[[Params], Text]] = {
    "traffic-cut": _cut,
    "traffic-reset": _reset,
    "traffic-refused": _refused,
    "traffic-clients-capped": _clients_capped,
    "traffic-no-hot-keys": _no_hot_keys,
}
