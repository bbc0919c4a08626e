"""The text report's cluster section: one row per shard, the busiest slots and the biggest hashtags."""

from __future__ import annotations

from rich.console import Console

from rediscipline.model.cluster import SHARD_COMPLETE, ClusterView
from rediscipline.model.display import display_bytes, display_text
from rediscipline.model.units import human_bytes
from rediscipline.render.labels import label
from rediscipline.render.text_live import table

#: Slots and hashtags the text report lists (the JSON has every one the view kept).
ROWS = 5
QUOTE_LIMIT = 60


def _bytes(value: int | None) -> str:
    return human_bytes(value) if value is not None else "?"


def cluster_section(cluster: ClusterView, console: Console, lang: str) -> None:
    """The shards table, then the slots and hashtags holding the most keys."""
    rows = [
        (
            display_text(shard.address, QUOTE_LIMIT),
            label("role-" + shard.scanned_role, lang),
            f"{shard.slot_count:,}",
            f"{shard.keys:,}",
            _bytes(shard.memory),
            _bytes(shard.used_memory),
            str(shard.replicas),
            label("shard-" + shard.status, lang) + ("" if shard.status == SHARD_COMPLETE else " !"),
        )
        for shard in cluster.shards
    ]
    headers = tuple(
        label(name, lang)
        for name in ("shard", "node-read", "slots", "keys-column", "memory", "used-memory", "replicas", "status")
    )
    table(console, label("shards-title", lang, n=len(cluster.shards)), headers, rows)
    shard_names = [shard.address for shard in cluster.shards]

    def shard_of(index: int | None) -> str:
        return display_text(shard_names[index], QUOTE_LIMIT) if index is not None else "?"

    busiest = sorted(cluster.slots, key=lambda stat: (-stat.keys, stat.slot))[:ROWS]
    if busiest:
        slot_rows = [(str(s.slot), shard_of(s.shard), f"{s.keys:,}", _bytes(s.memory)) for s in busiest]
        headers = (label("slot", lang), label("shard", lang), label("keys-column", lang), label("memory", lang))
        table(console, label("slots-title", lang, source=cluster.slots_from), headers, slot_rows)
    if cluster.hashtags:
        tag_rows = [
            (display_bytes(h.tag, QUOTE_LIMIT), str(h.slot), shard_of(h.shard), f"{h.keys:,}", _bytes(h.memory))
            for h in cluster.hashtags[:ROWS]
        ]
        headers = tuple(label(name, lang) for name in ("hashtag", "slot", "shard", "keys-column", "memory"))
        table(console, label("hashtags-title", lang), headers, tag_rows)
    console.print()


__all__ = ["cluster_section"]
