"""The texts of a simulation's notes (`sources.simulation`): a trace without times, volatile policies asked of
a trace without TTLs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rediscipline.model.text import Text

Params = Mapping[str, Any]


def _untimed(p: Params) -> Text:
    rate = p["rate"]
    return Text(
        f"the trace has no times: its accesses were replayed {rate:,} per second (--rate); the LRU clock counts "
        "seconds and the LFU counter decays by the minute, so give times when the trace has them",
        f"访问轨迹没有时间戳：按每秒 {rate:,} 次访问回放（--rate）；LRU 时钟以秒计、LFU 计数按分钟衰减，"
        "轨迹有时间戳时请提供",
    )


def _no_ttl(_p: Params) -> Text:
    return Text(
        "no access of the trace sets a TTL: under a volatile-* policy nothing can be evicted, so every write "
        "past maxmemory is an OOM error",
        "轨迹中没有设置 TTL 的访问：volatile-* 策略下没有可淘汰的 Key，超过 maxmemory 的每次写入都会返回 OOM 错误",
    )


def _no_volatile(p: Params) -> Text:
    keys = p["keys"]
    return Text(
        f"none of the {keys:,} keys read has a TTL: nothing expires, there is no series to show",
        f"读取的 {keys:,} 个 Key 都没有设置 TTL：不会有 Key 过期，没有可显示的序列",
    )


#: code → text, for the notes of a simulation.
SIMULATION_NOTES: dict[str, Callable[[Params], Text]] = {
    "simulation-untimed": _untimed,
    "simulation-no-ttl": _no_ttl,
    "simulation-no-volatile": _no_volatile,
}
