"""The charts of a report that read keys: where memory and keys are, how long they live, when they expire.

Every number comes from the bounded report (the keyspace summary, the pattern table, the cluster view),
never from keys one by one, so the page has the same size for a thousand keys and for a hundred million.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace

from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.keyspace import KeyspaceStats, SizeBucket, TopKey, namespace_of
from rediscipline.model.report import PatternStat, Report
from rediscipline.render.html.charts import BarChart, ColumnChart, SplitChart, bars, columns, split
from rediscipline.render.html.words import keys_word, summary_label, word
from rediscipline.render.labels import label
from rediscipline.render.numbers import human_bytes, human_count, share

#: Rows of a bar chart of namespaces, of the patterns one namespace opens onto, and of the top keys.
NAMESPACE_ROWS = 30
DRILL_ROWS = 25
MINUTES, HOURS = 1440, 720


def _nothing(why: str, lang: str) -> str:
    """`Nothing to draw: ...` for a chart without data, `why` a word of `render.html.words`."""
    return word("no-data", lang, why=word(why, lang))


def _unmeasured(keyspace: KeyspaceStats, lang: str) -> str:
    """Why a chart of something the probes measure is empty: no key was read, or the run did not measure it."""
    return _nothing("why-not-measured" if keyspace.keys else "why-no-keys", lang)


def _group_patterns(patterns: Sequence[PatternStat]) -> dict[str, list[PatternStat]]:
    groups: dict[str, list[PatternStat]] = defaultdict(list)
    for row in patterns:
        groups[namespace_of(row.pattern)].append(row)
    return groups


def _pattern_bars(namespace: str, rows: list[PatternStat], by_memory: bool, lang: str, drill: int) -> BarChart:
    ranked = sorted(rows, key=lambda r: (-(r.memory or 0) if by_memory else -r.count, r.pattern))[:drill]
    data = [
        (
            display_bytes(r.pattern, QUOTE_LIMIT),
            float((r.memory or 0) if by_memory else r.count),
            human_bytes(r.memory) if by_memory else human_count(r.count),
        )
        for r in ranked
    ]
    extras = [
        keys_word(r.count, lang)
        + ("" if r.ttl_coverage is None else f" · {word('with-ttl', lang)} {share(r.ttl_coverage)}")
        for r in ranked
    ]
    more = len(rows) - len(ranked)
    return bars(
        "patterns-of-namespace",
        word("patterns-of", lang, namespace=display_text(namespace, QUOTE_LIMIT)),
        data,
        empty=_nothing("why-not-measured", lang),
        titles=[display_bytes(r.pattern, NAME_LIMIT) for r in ranked],
        extras=extras,
        more=word("rows-cut", lang, n=human_count(more)) if more > 0 else "",
    )


def namespace_chart(report: Report, lang: str, drill: int = DRILL_ROWS) -> BarChart:
    """Memory (or keys, when memory was not measured) by namespace, each opening onto its patterns."""
    keyspace = report.stats.keyspace
    groups = _group_patterns(report.stats.pattern_stats)
    by_memory = keyspace is not None and "memory" in keyspace.measured and keyspace.memory > 0
    if keyspace is not None and keyspace.namespaces:
        rows = [(b.label, b.memory if by_memory else b.keys, b.keys) for b in keyspace.namespaces]
    else:  # a key list: keys by the namespace of each pattern
        counts = {label: sum(r.count for r in members) for label, members in groups.items()}
        rows = [(label, keys, keys) for label, keys in counts.items()]
    rows.sort(key=lambda row: (-row[1], row[0]))
    shown = rows[:NAMESPACE_ROWS]
    name = "memory-by-namespace" if by_memory else "keys-by-namespace"
    title = word(name, lang)
    more = len(rows) - len(shown)
    return bars(
        name,
        title,
        [
            (
                display_text(summary_label(label, lang), QUOTE_LIMIT),
                float(value),
                human_bytes(value) if by_memory else human_count(value),
            )
            for label, value, _k in shown
        ],
        empty=_nothing("why-no-keys", lang),
        titles=[display_text(label, NAME_LIMIT) for label, _v, _k in shown],
        extras=[keys_word(keys, lang) if by_memory else "" for _l, _v, keys in shown],
        drills=[
            _pattern_bars(label, groups[label], by_memory, lang, drill) if drill and groups.get(label) else None
            for label, _v, _k in shown
        ],
        more=word("rows-cut", lang, n=human_count(more)) if more > 0 else "",
        hint=word("drill-hint", lang),
    )


def type_charts(keyspace: KeyspaceStats, lang: str) -> list[BarChart]:
    by_memory = sorted(keyspace.by_type, key=lambda t: (-t.memory, t.type))
    by_keys = sorted(keyspace.by_type, key=lambda t: (-t.keys, t.type))
    memory_measured = "memory" in keyspace.measured
    return [
        bars(
            "memory-by-type",
            word("memory-by-type", lang),
            [(display_text(t.type, QUOTE_LIMIT), float(t.memory), human_bytes(t.memory)) for t in by_memory]
            if memory_measured
            else [],
            empty=_unmeasured(keyspace, lang),
            extras=[keys_word(t.keys, lang) for t in by_memory],
        ),
        bars(
            "keys-by-type",
            word("keys-by-type", lang),
            [(display_text(t.type, QUOTE_LIMIT), float(t.keys), human_count(t.keys)) for t in by_keys],
            empty=_nothing("why-no-keys", lang),
        ),
    ]


def _size_chart(
    name: str, buckets: Sequence[SizeBucket], values: list[int], *, shown: Callable[[int], str], empty: str, lang: str
) -> ColumnChart:
    def label_of(index: int) -> str:
        bucket = buckets[index]
        return f"{human_bytes(bucket.low)} – {human_bytes(bucket.high)}: {shown(values[index])}"

    def tick_label(index: int) -> str:
        return human_bytes(buckets[index].low if index < len(buckets) else buckets[-1].high)

    return columns(
        name,
        word(name, lang),
        values,
        label_of=label_of,
        tick_every=max(1, len(values) // 8),
        tick_label=tick_label,
        empty=empty,
        top_shown=shown,
    )


def size_charts(keyspace: KeyspaceStats, lang: str) -> list[ColumnChart]:
    """Keys and memory per power-of-two bucket of a key's size."""
    buckets = keyspace.size_buckets
    empty = _unmeasured(keyspace, lang)
    return [
        _size_chart("size-keys", buckets, [b.keys for b in buckets], shown=human_count, empty=empty, lang=lang),
        _size_chart("size-memory", buckets, [b.memory for b in buckets], shown=human_bytes, empty=empty, lang=lang),
    ]


def ttl_charts(keyspace: KeyspaceStats, lang: str) -> list[SplitChart | BarChart]:
    if "ttl" not in keyspace.measured or not keyspace.keys:
        why = _unmeasured(keyspace, lang)
        return [
            SplitChart("ttl-coverage", word("ttl-coverage", lang), empty=why),
            bars("ttl-buckets", label("ttl-histogram", lang), [], empty=why),
        ]
    with_ttl, without = word("with-ttl", lang), word("without-ttl", lang)
    rows: list[tuple[str, Sequence[tuple[str, float, str, str]]]] = [
        (
            word("of-keys", lang),
            (
                (with_ttl, keyspace.with_ttl, human_count(keyspace.with_ttl), "with"),
                (without, keyspace.keys - keyspace.with_ttl, human_count(keyspace.keys - keyspace.with_ttl), "without"),
            ),
        )
    ]
    if "memory" in keyspace.measured:
        held = keyspace.memory - keyspace.memory_with_ttl
        rows.append(
            (
                word("of-memory", lang),
                (
                    (with_ttl, keyspace.memory_with_ttl, human_bytes(keyspace.memory_with_ttl), "with"),
                    (without, held, human_bytes(held), "without"),
                ),
            )
        )
    histogram = [
        (display_text(summary_label(b.label, lang), QUOTE_LIMIT), float(b.keys), human_count(b.keys))
        for b in keyspace.ttl_histogram
    ]
    return [
        split("ttl-coverage", word("ttl-coverage", lang), rows, empty=_nothing("why-no-keys", lang)),
        bars(
            "ttl-buckets",
            label("ttl-histogram", lang),
            histogram,
            empty=_nothing("why-no-keys", lang),
        ),
    ]


def _clock(minutes: int) -> str:
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    return f"+{days}d {hours:02d}:{mins:02d}" if days else f"+{hours:02d}:{mins:02d}"


def _peak(values: Sequence[int], unit: str, at: str, lang: str) -> str:
    nonzero = sorted(value for value in values if value)
    if len(nonzero) < 2:
        return ""
    top = max(values)
    typical = nonzero[len(nonzero) // 2]
    if top < 2 * typical:
        return ""
    return word("expiry-peak", lang, keys=human_count(top), unit=word(unit, lang), at=at, times=f"{top / typical:,.0f}")


def expiry_charts(keyspace: KeyspaceStats, lang: str) -> list[ColumnChart]:
    timeline = keyspace.expiry
    why = _nothing("why-no-ttl", lang) if "ttl" in keyspace.measured and keyspace.keys else _unmeasured(keyspace, lang)
    minutes: Sequence[int] = timeline.per_minute if timeline is not None else ()
    hours: Sequence[int] = timeline.per_hour if timeline is not None else ()
    minute_chart = columns(
        "expiry-timeline-minutes",
        word("expiry-minutes", lang),
        minutes,
        label_of=lambda i: f"{_clock(i)}: {human_count(minutes[i])}",
        tick_every=120,
        tick_label=_clock,
        empty=why,
        axis_label=word("from-scan", lang),
        hot=True,
    )
    hour_chart = columns(
        "expiry-timeline-hours",
        word("expiry-hours", lang),
        hours,
        label_of=lambda i: f"{_clock(i * 60)}: {human_count(hours[i])}",
        tick_every=72,
        tick_label=lambda i: f"+{i // 24}d",
        empty=why,
        axis_label=word("from-scan", lang),
        hot=True,
    )
    minute_caption = hour_caption = ""
    if any(minutes):
        top = max(range(len(minutes)), key=minutes.__getitem__)
        minute_caption = _peak(minutes, "minute", _clock(top), lang)
    if any(hours):
        top = max(range(len(hours)), key=hours.__getitem__)
        later = (
            word("expiry-later", lang, n=human_count(timeline.later)) if timeline is not None and timeline.later else ""
        )
        hour_caption = " ".join(part for part in (_peak(hours, "hour", _clock(top * 60), lang), later) if part)
    return [_with_caption(minute_chart, minute_caption), _with_caption(hour_chart, hour_caption)]


def _with_caption(chart: ColumnChart, caption: str) -> ColumnChart:
    return chart if not caption or chart.empty else replace(chart, caption=caption)


def _top_rows(keys: Sequence[TopKey], by_memory: bool) -> list[tuple[str, float, str]]:
    rows = []
    for key in keys:
        value = (key.memory if by_memory else key.length) or 0
        rows.append(
            (
                display_bytes(key.name, QUOTE_LIMIT),
                float(value),
                human_bytes(value) if by_memory else human_count(value),
            )
        )
    return rows


def _top_extra(key: TopKey, lang: str) -> str:
    parts = [f"db{key.db}" if key.db is not None else "", display_text(key.type or "?", QUOTE_LIMIT)]
    if key.encoding:
        parts.append(display_text(key.encoding, QUOTE_LIMIT))
    return " · ".join(part for part in parts if part)


def top_charts(keyspace: KeyspaceStats, lang: str) -> list[BarChart]:
    out = []
    for name, keys, by_memory, why in (
        ("top-by-memory", keyspace.top_by_memory, True, "why-not-measured"),
        ("top-by-length", keyspace.top_by_length, False, "why-no-collections"),
    ):
        out.append(
            bars(
                name,
                word(name, lang),
                _top_rows(keys, by_memory),
                empty=_nothing(why if keyspace.keys else "why-no-keys", lang),
                titles=[display_bytes(key.name, NAME_LIMIT) for key in keys],
                extras=[_top_extra(key, lang) for key in keys],
            )
        )
    return out


def shard_charts(report: Report, lang: str) -> list[BarChart]:
    cluster = report.stats.cluster
    if cluster is None:
        return []
    shards = cluster.shards
    labels = [display_text(f"{shard.address} ({shard.scanned_role})", QUOTE_LIMIT) for shard in shards]
    return [
        bars(
            "shards-keys",
            word("shards-keys", lang),
            [(label, float(shard.keys), human_count(shard.keys)) for label, shard in zip(labels, shards, strict=True)],
            empty=_nothing("why-no-keys", lang),
        ),
        bars(
            "shards-memory",
            word("shards-memory", lang),
            [
                (label, float(shard.memory or 0), human_bytes(shard.memory))
                for label, shard in zip(labels, shards, strict=True)
            ],
            empty=_nothing("why-not-measured", lang),
        ),
    ]


def scan_charts(report: Report, lang: str, drill: int = DRILL_ROWS) -> list[BarChart | ColumnChart | SplitChart]:
    """Every chart of the report, in reading order; the keyspace ones only where the source probed keys; at
    most `drill` patterns under each namespace."""
    charts: list[BarChart | ColumnChart | SplitChart] = [namespace_chart(report, lang, drill)]
    keyspace = report.stats.keyspace
    if keyspace is not None:
        charts += type_charts(keyspace, lang)
        charts += size_charts(keyspace, lang)
        charts += ttl_charts(keyspace, lang)
        charts += expiry_charts(keyspace, lang)
        charts += top_charts(keyspace, lang)
    charts += shard_charts(report, lang)
    return charts
