"""The parts of the text report that only sources with probed values have: server, score, keyspace."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text as RichText

from rediscipline.model.cluster import ClusterView
from rediscipline.model.display import QUOTE_LIMIT, display_bytes, display_text, inert
from rediscipline.model.keyspace import KeyspaceStats, TopKey
from rediscipline.model.report import Report, ServerSummary
from rediscipline.redis_meta.keyslot import key_slot
from rediscipline.render.labels import label
from rediscipline.render.numbers import human_bytes, human_count, score_grade, share

TOP_ROWS = 10


def _word(text: str | None) -> str:
    """A short name the server gave (type, encoding, version, policy), escaped and bounded; `?` when unknown."""
    return "?" if text is None else display_text(text, QUOTE_LIMIT)


def server_line(server: ServerSummary, lang: str) -> RichText:
    role = f" ({display_text(server.role)})" if server.role else ""
    flavor, version, address = _word(server.flavor), _word(server.version), display_text(server.address)
    line = RichText(f"{label('server', lang)}: {flavor} {version}{role} · {address}")
    memory = f" · used {human_bytes(server.used_memory)}"
    if server.maxmemory is not None:
        memory += f" / maxmemory {human_bytes(server.maxmemory) if server.maxmemory else '0 (unset)'}"
    if server.maxmemory_policy:
        memory += f" · {_word(server.maxmemory_policy)}"
    line.append(memory, style="dim")
    if server.dbs:
        line.append(" · " + ", ".join(f"db{db} {keys:,}" for db, keys in server.dbs), style="dim")
    if server.cluster_masters is not None and server.cluster_masters != 1:
        masters = server.cluster_masters
        line.append("\n" + label("cluster-node", lang, masters=masters if masters else "?"), style="bold yellow")
    if server.resumed_from is not None:
        line.append("\n" + label("resumed-from", lang, cursor=server.resumed_from), style="bold yellow")
    if server.partial:
        line.append("\n" + label("partial", lang, reasons=", ".join(server.partial)), style="bold yellow")
    return line


def score_line(report: Report, lang: str) -> RichText | None:
    stats = report.stats
    if stats.score is None or (stats.keyspace is None and stats.server is None):
        return None
    style = {"good": "green", "fair": "yellow", "poor": "bold red"}[score_grade(stats.score)]
    line = RichText(label("score", lang, score=stats.score), style=style)
    line.append(" · " + label("flagged", lang, n=f"{stats.keys_flagged:,}"), style="dim")
    return line


def table(
    console: Console,
    title: str,
    headers: tuple[str, ...],
    rows: Sequence[tuple[str, ...]],
    left: frozenset[int] = frozenset({0}),
) -> None:
    """A table of cells already escaped by the caller; each cell is a rich Text, never parsed as markup. The
    columns in `left` (names) are left-aligned, the others (numbers) right-aligned. rich's tables load with the
    first one (a report of code findings draws none)."""
    from rich.table import Table

    table = Table(title=RichText(title), title_justify="left", title_style="bold", box=None, pad_edge=False)
    for index, header in enumerate(headers):
        table.add_column(RichText(header), justify="left" if index in left else "right", overflow="fold")
    for row in rows:
        table.add_row(*(RichText(cell) for cell in row))
    console.print(table)


def _top(keys: tuple[TopKey, ...], cluster: ClusterView | None) -> list[tuple[str, ...]]:
    """The top keys' rows; in a cluster scan the second column is the shard holding the key and its slot."""
    rows: list[tuple[str, ...]] = []
    for key in keys[:TOP_ROWS]:
        if cluster is None:
            where = f"db{key.db or 0}"
        else:
            slot = key_slot(key.name)
            shard = cluster.shard_serving(slot)
            where = f"{display_text(shard.address, QUOTE_LIMIT) if shard else '?'} #{slot}"
        rows.append((
            display_bytes(key.name, QUOTE_LIMIT),
            where,
            _word(key.type),
            human_bytes(key.memory),
            f"{key.length:,}" if key.length is not None else "?",
            "-" if key.ttl_ms is None or key.ttl_ms < 0 else f"{key.ttl_ms // 1000:,} s",
            _word(key.encoding),
        ))  # fmt: skip
    return rows


def keyspace_section(keyspace: KeyspaceStats, console: Console, lang: str, cluster: ClusterView | None = None) -> None:
    """The summary tables; a figure the scan did not measure (`KeyspaceStats.measured`) is shown as `?`; in a
    cluster scan the top keys name their shard and slot."""
    console.print(RichText(label("keyspace", lang), style="bold"))
    measured = keyspace.measured
    has_memory, has_ttl, has_length = "memory" in measured, "ttl" in measured, "length" in measured

    def size(value: int) -> str:
        return human_bytes(value if has_memory else None)

    coverage = label(
        "ttl-coverage", lang, keys=share(keyspace.ttl_coverage), memory=share(keyspace.memory_ttl_coverage)
    )
    memory = size(keyspace.memory)
    if keyspace.memory_model:
        memory += " " + label("estimated", lang, model=keyspace.memory_model)
    console.print(RichText(f"  {keyspace.keys:,} keys · {memory} · {coverage}"))
    if keyspace.not_measured:
        console.print(
            RichText("  " + label("not-measured", lang, fields=", ".join(keyspace.not_measured)), style="dim")
        )
    if keyspace.skipped:
        console.print(RichText("  " + label("skipped", lang, n=f"{keyspace.skipped:,}"), style="dim"))
    sampling = keyspace.sampling
    if sampling is not None:
        console.print(
            RichText(
                "  "
                + label(
                    "sampled",
                    lang,
                    sampled=f"{sampling.sampled:,}",
                    population=f"{sampling.population:,}",
                    rate=f"{sampling.rate:.4g}",
                )
            )
        )
        for estimate in sampling.estimates:
            shown = human_bytes if "memory" in estimate.name else human_count
            text = label(
                "estimate", lang, value=shown(estimate.value), low=shown(estimate.low), high=shown(estimate.high)
            )
            console.print(RichText(f"    {estimate.name}: {text}"))
    console.print()
    memory_header = "memory (est.)" if keyspace.memory_model else "memory"
    table(
        console,
        label("memory-by-type", lang),
        ("type", "keys", memory_header, "elements", "with TTL"),
        [
            (
                _word(t.type),
                f"{t.keys:,}",
                size(t.memory),
                f"{t.elements:,}" if has_length else "?",
                share(t.with_ttl / t.keys if t.keys and has_ttl else None),
            )
            for t in keyspace.by_type
        ],
    )
    console.print()
    if has_ttl:
        table(
            console,
            label("ttl-histogram", lang),
            ("TTL", "keys", memory_header),
            [(b.label, f"{b.keys:,}", size(b.memory)) for b in keyspace.ttl_histogram],
        )
        console.print()
    table(
        console,
        label("top-namespaces", lang),
        ("namespace", "keys", memory_header),
        # A namespace is a declared glob or the first level of a pattern (its bytes already `\xNN`-escaped
        # where they are not UTF-8): `inert` escapes what else could act on a terminal and bounds it.
        [(inert(b.label, QUOTE_LIMIT), f"{b.keys:,}", size(b.memory)) for b in keyspace.namespaces[:TOP_ROWS]],
    )
    headers = ("key", "db" if cluster is None else "shard #slot", "type", memory_header, "length", "TTL", "encoding")
    for title, keys in (("top-memory", keyspace.top_by_memory), ("top-length", keyspace.top_by_length)):
        if keys:
            console.print()
            table(console, label(title, lang), headers, _top(keys, cluster))
    console.print()
