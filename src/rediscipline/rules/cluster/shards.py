"""Shared by the cluster rules (CLU): how a shard, a count, a share and a list of shards read in a message,
and which shards a comparison may count.

Everything a cluster announced (addresses, shard ids, config values) is outside text: it is escaped and bounded
here (`model.display`) before it enters a message or a subject.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rediscipline.model.cluster import SHARD_FAILED, SHARD_PARTIAL, ClusterView, ShardStat
from rediscipline.model.display import QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.text import Text

#: Where a cluster can be judged: a cluster scan, or the dumps of its shards.
CLUSTER_CHECKS = ("live", "rdb")
#: Shards named in one list of a message before `and N more`.
LISTED = 3
#: Characters of a shard id shown (a node id is 40 hexadecimal characters).
ID_LIMIT = 40


def address_of(shard: ShardStat) -> str:
    return display_text(shard.address, QUOTE_LIMIT)


def address_bytes(shard: ShardStat) -> bytes:
    """The scanned address as a finding's example."""
    return shard.address.encode("utf-8", "backslashreplace")


def shard_subject(shard: ShardStat) -> str:
    """The subject of a finding about one shard: `shard 10.0.0.5:7001`."""
    return f"shard {address_of(shard)}"


def shard_name(shard: ShardStat) -> Text:
    """A shard in a message: its scanned address and its shard id, `10.0.0.5:7001 (shard 3c2f…)`."""
    address, shard_id = address_of(shard), display_text(shard.shard_id, ID_LIMIT)
    return Text(f"{address} (shard {shard_id})", f"{address}（分片 ID {shard_id}）")


def shown_tag(tag: bytes) -> str:
    """A hashtag with its braces, escaped and bounded: `{user}`, `{\\xff}`."""
    return "{" + display_bytes(tag, QUOTE_LIMIT) + "}"


def listing(names: Sequence[str], limit: int = LISTED) -> Text:
    """`a, b, c and 2 more` / `a、b、c 等 5 个`."""
    head = names[:limit]
    if len(names) <= limit:
        return Text(", ".join(head), "、".join(head))
    return Text(f"{', '.join(head)} and {len(names) - limit} more", f"{'、'.join(head)} 等 {len(names)} 个")


def share(part: float, whole: float) -> str:
    """`40%`; one decimal below 10% (`0.2%`), so that a small share never reads as 0%."""
    value = part / whole * 100 if whole else 0.0
    return f"{value:.0f}%" if value >= 10 else f"{value:.1f}%"


def ratio(value: float) -> str:
    """`1.62`: how many times the mean."""
    return f"{value:.2f}"


def sampled(view: ClusterView) -> Text:
    """What follows a count taken from the keys the scan read: ` in a sample` when those were a sample."""
    return Text(" in a sample", "（抽样）") if view.sample_rate is not None else Text("", "")


def estimated(view: ClusterView, counted: float) -> float:
    """The cluster's own figure from a count of the sample (the count itself when every key was read)."""
    return counted / view.sample_rate if view.sample_rate else counted


@dataclass(frozen=True, slots=True)
class Compared:
    """The shards a comparison of data counts (read, serving slots), and those left out because never read."""

    shards: tuple[ShardStat, ...]
    failed: tuple[ShardStat, ...]

    def notes(self) -> Text:
        """What a message adds about the shards it compared: those read only in part, those left out."""
        en: list[str] = []
        zh: list[str] = []
        partial = [address_of(s) for s in self.shards if s.status == SHARD_PARTIAL]
        if partial:
            names = listing(partial)
            en.append(f"read only in part, counted as far as read: {names.en}")
            zh.append(f"仅读取了一部分、按已读取的部分计入：{names.zh}")
        if self.failed:
            names = listing([address_of(s) for s in self.failed])
            en.append(f"left out, never read: {names.en}")
            zh.append(f"未计入（未能读取）：{names.zh}")
        if not en:
            return Text("", "")
        return Text(f" ({'; '.join(en)})", f"（{'；'.join(zh)}）")


def data_shards(view: ClusterView) -> Compared:
    """The shards whose keys and memory a comparison counts: every shard serving slots that was read, fully
    or in part. A shard never read (`failed`) holds keys nobody counted, so it is left out, never taken as
    empty; a shard serving no slot holds no keys by design (a master being added or removed)."""
    serving = [shard for shard in view.shards if shard.slot_count]
    return Compared(
        tuple(shard for shard in serving if shard.status != SHARD_FAILED),
        tuple(shard for shard in serving if shard.status == SHARD_FAILED),
    )


def partial_mark(shard: ShardStat) -> Text:
    """What a message says about the one shard it is about when that shard was read only in part."""
    if shard.status != SHARD_PARTIAL:
        return Text("", "")
    return Text(" (read only in part: its figures are lower bounds)", "（仅读取了一部分：其数字为下限）")
