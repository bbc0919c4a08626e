"""The parts of a traffic section about keys and command shapes: the hot keys (from `OBJECT FREQ` or a MONITOR
sample), a cluster master's hot slots (`CLUSTER SLOT-STATS`) and, with `--monitor`, what the sample showed:
hot keys by bytes, multi-key calls, MULTI blocks, writes without a TTL, repeated TTLs, blocking reads and the
busiest clients.

Each count from a sketch is shown with its error bound (`± n`), each table with how much the sample covered,
so a reader knows how far to trust a row. Cells are escaped and bounded here, as in `render.traffic`.
"""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.display import QUOTE_LIMIT, display_bytes
from rediscipline.model.monitor import MonitorSample
from rediscipline.model.traffic import SOURCE_MONITOR, HotKey, TrafficView
from rediscipline.render.labels import label
from rediscipline.render.numbers import human_bytes
from rediscipline.render.traffic_parts import ROWS, Line, Part, Table, count, word


def hot_keys(view: TrafficView, lang: str) -> Iterator[Table]:
    """The hottest keys, with the columns their source measures, and their size when it was read."""
    if not view.hot_keys:
        return
    shown = view.hot_keys[:ROWS]
    sample = view.monitor if shown[0].source == SOURCE_MONITOR else None
    names: tuple[str, ...]
    if sample is not None:
        title = label(
            "tr-hot-keys-monitor",
            lang,
            shown=f"{len(shown):,}",
            found=f"{len(view.hot_keys):,}",
            accesses=f"{sample.key_ops:,}",
            span=f"{_span(sample):,.1f}",
        )
        names = ("tr-key", "tr-db", "tr-accesses", "tr-within", "tr-bytes-rate", "tr-type", "tr-length", "tr-memory")
    else:
        title = label(
            "tr-hot-keys",
            lang,
            shown=f"{len(shown):,}",
            found=f"{len(view.hot_keys):,}",
            source=word(shown[0].source),
            sampled=f"{view.hot_keys_sampled:,}",
            population=f"{view.hot_keys_population:,}",
        )
        names = ("tr-key", "tr-db", "tr-accesses", "tr-counter-lfu", "tr-type", "tr-length", "tr-memory")
    rows = []
    measured: tuple[str, ...]
    for hot in shown:
        accesses = "?" if hot.ops_per_second is None else f"{'≥ ' if hot.saturated else ''}{hot.ops_per_second:,.0f}"
        if sample is not None:
            measured = (
                f"± {hot.ops_error:,.0f}",
                "?" if hot.bytes_per_second is None else human_bytes(hot.bytes_per_second),
            )
        else:
            measured = (f"{count(hot.counter_start)} → {count(hot.counter_end)}",)
        rows.append((display_bytes(hot.key, QUOTE_LIMIT), str(hot.db), accesses, *measured, *_size(hot)))
    headers = tuple(label(name, lang) for name in names)
    yield Table("hot-keys", title, headers, tuple(rows), frozenset({0, len(headers) - 3}))


def hot_slots(view: TrafficView, lang: str) -> Iterator[Table]:
    """A cluster master's slots with the most CPU time in the window, with their share of the master's."""
    heat = view.slot_heat
    if heat is None or not heat.hot:
        return
    shown = heat.hot[:ROWS]
    title = label(
        "tr-hot-slots",
        lang,
        shown=f"{len(shown):,}",
        slots=f"{heat.slots:,}",
        cpu=f"{heat.cpu_usec:,}",
        size=human_bytes(heat.network_bytes),
    )
    names = ("tr-slot", "tr-cpu-rate", "tr-cpu-share", "tr-bytes-rate", "tr-keys")
    rows = []
    for slot in shown:
        share = heat.cpu_share(slot)
        rows.append((
            str(slot.slot),
            f"{view.per_second(slot.cpu_usec):,.0f}",
            "?" if share is None else f"{share:.1%}",
            human_bytes(view.per_second(slot.network_bytes)),
            f"{slot.keys:,}",
        ))  # fmt: skip
    headers = tuple(label(name, lang) for name in names)
    yield Table("hot-slots", title, headers, tuple(rows), frozenset())


def _size(hot: HotKey) -> tuple[str, str, str]:
    """Type, length and memory of a hot key ("" for a key whose size was not read)."""
    if hot.type is None and hot.memory is None:
        return "", "", ""
    memory = "?" if hot.memory is None else human_bytes(hot.memory)
    return word(hot.type or "?"), count(hot.length), memory


def _span(sample: MonitorSample) -> float:
    return sample.span if sample.span > 0 else sample.seconds


def monitor_sample(view: TrafficView, lang: str) -> Iterator[Part]:
    """What the MONITOR sample showed besides the hot keys by accesses (nothing without a sample)."""
    sample = view.monitor
    if sample is None or not sample.lines:
        return
    yield Line(label("tr-monitor", lang), "heading")
    yield Line(
        label(
            "tr-monitor-summary",
            lang,
            lines=f"{sample.lines:,}",
            size=human_bytes(sample.bytes_read),
            seconds=f"{sample.seconds:,.1f}",
            span=f"{_span(sample):,.1f}",
            malformed=f"{sample.malformed:,}",
        )
    )
    yield from _by_bytes(sample, lang)
    yield from _arity(sample, lang)
    yield from _transactions(sample, lang)
    yield from _without_ttl(sample, lang)
    yield from _ttls(sample, lang)
    yield from _blocking(sample, lang)
    yield from _clients(sample, lang)


def _by_bytes(sample: MonitorSample, lang: str) -> Iterator[Table]:
    span = _span(sample)
    if not sample.hot_by_bytes or span <= 0:
        return
    shown = sample.hot_by_bytes[:ROWS]
    rows = tuple(
        (
            display_bytes(hot.key, QUOTE_LIMIT),
            str(hot.db),
            human_bytes(hot.count / span),
            f"± {human_bytes(hot.error / span)}",
        )
        for hot in shown
    )
    headers = tuple(label(name, lang) for name in ("tr-key", "tr-db", "tr-bytes-rate", "tr-within"))
    yield Table("hot-keys-bytes", label("tr-hot-bytes", lang, shown=f"{len(shown):,}"), headers, rows)


def _arity(sample: MonitorSample, lang: str) -> Iterator[Table]:
    if not sample.arity:
        return
    rows = tuple(
        (
            word(shape.command),
            f"{shape.calls:,}",
            f"{shape.max_keys:,}",
            " ".join(f"≤{size}:{calls:,}" for size, calls in shape.histogram.items()),
            word(shape.largest_client),
            display_bytes(shape.largest_key, QUOTE_LIMIT),
        )
        for shape in sample.arity[:ROWS]
    )
    names = ("tr-command", "tr-calls-column", "tr-most-keys", "tr-keys-per-call", "tr-client", "tr-first-key")
    headers = tuple(label(name, lang) for name in names)
    yield Table("multi-key", label("tr-multi-key", lang), headers, rows, frozenset({0, 3, 4, 5}))


def _transactions(sample: MonitorSample, lang: str) -> Iterator[Table]:
    if not sample.transactions:
        return
    rows = tuple(
        (word(block.client), f"{block.transactions:,}", f"{block.max_commands:,}", f"{block.commands:,}")
        for block in sample.transactions[:ROWS]
    )
    headers = tuple(label(name, lang) for name in ("tr-client", "tr-blocks", "tr-largest-block", "tr-block-commands"))
    yield Table("multi-blocks", label("tr-multi-blocks", lang), headers, rows)


def _without_ttl(sample: MonitorSample, lang: str) -> Iterator[Table]:
    if not sample.writes_without_ttl:
        return
    rows = tuple(
        (
            display_bytes(writes.pattern, QUOTE_LIMIT),
            _estimate(writes.count, writes.error),
            word(writes.example_command.upper()),
            display_bytes(writes.example, QUOTE_LIMIT),
        )
        for writes in sample.writes_without_ttl[:ROWS]
    )
    headers = tuple(label(name, lang) for name in ("tr-pattern", "tr-writes", "tr-command", "tr-example"))
    yield Table("writes-without-ttl", label("tr-without-ttl", lang), headers, rows, frozenset({0, 2, 3}))


def _ttls(sample: MonitorSample, lang: str) -> Iterator[Table]:
    if not sample.ttls:
        return
    rows = tuple(
        (
            display_bytes(shape.pattern, QUOTE_LIMIT),
            _estimate(shape.writes, shape.writes_error),
            _ttl(shape.ttl_ms, absolute=shape.absolute),
            _estimate(shape.repeats, shape.repeats_error),
            f"{shape.burst:,}" if shape.burst else "–",
        )
        for shape in sample.ttls[:ROWS]
    )
    headers = tuple(label(name, lang) for name in ("tr-pattern", "tr-writes", "tr-ttl", "tr-repeats", "tr-burst"))
    yield Table("ttls", label("tr-ttls", lang), headers, rows)


def _blocking(sample: MonitorSample, lang: str) -> Iterator[Table]:
    if not sample.blocking:
        return
    rows = tuple(
        (
            word(shape.command),
            f"{shape.calls:,}",
            f"{shape.forever:,}",
            word(shape.client) if shape.forever else "",
            display_bytes(shape.key, QUOTE_LIMIT) if shape.forever else "",
        )
        for shape in sample.blocking[:ROWS]
    )
    headers = tuple(
        label(name, lang) for name in ("tr-command", "tr-calls-column", "tr-forever", "tr-client", "tr-key")
    )
    yield Table("blocking", label("tr-blocking", lang), headers, rows, frozenset({0, 3, 4}))


def _clients(sample: MonitorSample, lang: str) -> Iterator[Table]:
    if not sample.clients:
        return
    rows = tuple((word(client.client), _estimate(client.count, client.error)) for client in sample.clients[:ROWS])
    headers = tuple(label(name, lang) for name in ("tr-client", "tr-commands"))
    yield Table("senders", label("tr-senders", lang), headers, rows)


def _estimate(value: int, error: int) -> str:
    """A sketch's count with its error: `1,204` or `1,204 (± 12)`."""
    return f"{value:,}" if not error else f"{value:,} (± {error:,})"


def _ttl(ttl_ms: int, *, absolute: bool) -> str:
    """A TTL as sent: `3,600 s`, `1,500 ms`, or an absolute expiry time `@1767225600 s`."""
    if absolute:
        return f"@{ttl_ms // 1000:d} s" if ttl_ms % 1000 == 0 else f"@{ttl_ms:d} ms"
    return f"{ttl_ms // 1000:,} s" if ttl_ms % 1000 == 0 else f"{ttl_ms:,} ms"


__all__ = ["hot_keys", "monitor_sample"]
