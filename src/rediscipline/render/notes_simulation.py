"""The texts of a simulation's notes (`sources.simulation`): a trace without times, volatile policies asked of
a trace without TTLs, a keyspace without TTLs, and what an expiry simulation assumed where its report was
silent."""

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


def _volatile_assumed(p: Params) -> Text:
    keys = p["keys"]
    return Text(
        f"the report does not say how many keys have a TTL per database (INFO keyspace): its timeline's {keys:,} "
        "keys are simulated in one database",
        f"报告没有给出每个数据库带 TTL 的 Key 数（INFO keyspace）：按其时间线中的 {keys:,} 个 Key "
        "放在同一个数据库中模拟",
    )


def _one_master(p: Params) -> Text:
    masters = p["masters"]
    return Text(
        f"a cluster of {masters} masters: each runs the expire cycle over its own keys, so one master is "
        f"simulated, with 1/{masters} of the keys with a TTL and a master's maxmemory",
        f"{masters} 个主节点的集群：每个主节点只对自己的 Key 运行过期周期，因此模拟一个主节点，"
        f"取带 TTL 的 Key 的 1/{masters} 和单个主节点的 maxmemory",
    )


def _memory_unknown(_p: Params) -> Text:
    return Text(
        "the report has no memory for the keys with a TTL (the scan did not measure it): the bytes expired keys "
        "hold are not predicted, only their count",
        "报告中没有带 TTL 的 Key 的内存（扫描没有测量）：只预测过期 Key 的数量，不预测它们占用的字节数",
    )


def _jitter_share(p: Params) -> Text:
    share = p["share"]
    return Text(
        f"a report has no key names: --jitter spreads {share:.1%} of the keys with a TTL, drawn at random, the "
        "share the matching patterns hold",
        f"报告中没有 Key 名：--jitter 按匹配模式所占的比例，随机选取 {share:.1%} 的带 TTL 的 Key 打散过期时间",
    )


#: code → text, for the notes of a simulation.
SIMULATION_NOTES: dict[str, Callable[[Params], Text]] = {
    "simulation-untimed": _untimed,
    "simulation-no-ttl": _no_ttl,
    "simulation-no-volatile": _no_volatile,
    "simulation-volatile-assumed": _volatile_assumed,
    "simulation-one-master": _one_master,
    "simulation-memory-unknown": _memory_unknown,
    "simulation-jitter-share": _jitter_share,
}
