"""What a report's traffic section shows of one window (`TrafficView`), for every human format.

The text, Markdown and HTML reports show the same content: `traffic_section` chooses it once (which commands,
clients, slow calls, hot keys and queues, how many rows of each) and words it in the report's language, and
each renderer only lays it out (`text_traffic`, `markdown`, `html`). The JSON report has every item the view
kept (`json_traffic`).

Everything the server said (command names, error prefixes, client addresses, names and commands, slow-call
arguments, the sources' refusals) is outside text: each cell is escaped and bounded here by `model.display`,
as a table of the keyspace shows key names, and the renderer then makes it inert in its own format (rich
`Text` without markup, `markdown_escape.md`, the page's autoescaping).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from rediscipline.model.display import QUOTE_LIMIT, TEXT_LIMIT, display_bytes, display_text, inert
from rediscipline.model.traffic import (
    DEFAULT_OUTPUT_LIMITS,
    RARE_COUNTERS,
    WINDOW_COUNTERS,
    ClientInfo,
    CommandWindow,
    SlowCall,
    TrafficSourceInfo,
    TrafficView,
)
from rediscipline.render.labels import label
from rediscipline.render.numbers import human_bytes, share
from rediscipline.render.traffic_parts import (
    ROWS,
    Items,
    Line,
    Part,
    Table,
    TrafficSection,
    count,
    duration,
    rate,
    seconds_text,
    utc,
    word,
)
from rediscipline.render.traffic_sample import hot_keys, hot_slots, monitor_sample

#: Rows of each client table at most (the JSON report has every one the view kept).
CLIENT_ROWS = 5
#: Slow-call arguments shown after the command, and characters of each (the JSON report has them whole).
ARGS_SHOWN = 6
ARG_LIMIT = 40
#: Counters of `TrafficView.stats` that are counts of bytes, and those whose rate per second says something
#: (all but the rare events: a connection refused, a client disconnected for its buffer).
BYTE_COUNTERS = frozenset({"total_net_input_bytes", "total_net_output_bytes"})
RATE_COUNTERS = frozenset(name for name in WINDOW_COUNTERS if name not in RARE_COUNTERS)


def client_label(client: ClientInfo) -> str:
    """`10.0.0.7:51022 (feed)`: the address, and the name the client set, each escaped and bounded."""
    address = display_text(client.addr, QUOTE_LIMIT)
    return f"{address} ({display_text(client.name, QUOTE_LIMIT)})" if client.name else address


def slow_client(call: SlowCall) -> str:
    if not call.client:
        return display_text(call.client_name, QUOTE_LIMIT) if call.client_name else "–"
    address = display_text(call.client, QUOTE_LIMIT)
    return f"{address} ({display_text(call.client_name, QUOTE_LIMIT)})" if call.client_name else address


def command_line(call: SlowCall, lang: str) -> str:
    """A slow call as one cell: the command and its first arguments, each cut (`hgetall order:1:items`)."""
    parts = [word(call.command)]
    parts += [display_bytes(arg, ARG_LIMIT) for arg in call.args[:ARGS_SHOWN]]
    more = len(call.args) - ARGS_SHOWN
    if more > 0:
        parts.append(label("tr-more-args", lang, n=f"{more:,}"))
    return " ".join(parts)


def source_error(view: TrafficView, name: str) -> str | None:
    return next((source.error for source in view.sources if source.name == name and source.error), None)


def has_source(view: TrafficView, name: str) -> bool:
    return any(source.name == name for source in view.sources)


def is_pubsub(client: ClientInfo) -> bool:
    return client.channels > 0 or "P" in client.flags


def is_blocked(client: ClientInfo) -> bool:
    return "b" in client.flags


def in_transaction(client: ClientInfo) -> bool:
    return client.multi >= 0 or bool(client.watch) or "x" in client.flags


def is_monitor(client: ClientInfo) -> bool:
    return "O" in client.flags


def by_calls(commands: Iterable[CommandWindow]) -> list[CommandWindow]:
    return sorted(commands, key=lambda command: (-command.calls, command.name))


def by_cpu(commands: Iterable[CommandWindow]) -> list[CommandWindow]:
    return sorted(commands, key=lambda command: (-command.usec, command.name))


def limit_text(view: TrafficView, output_class: str, lang: str) -> str:
    """`client-output-buffer-limit` of a class as the view read it: `hard 32.0 MB, soft 8.0 MB for 60 s`."""
    hard, soft, seconds = view.output_limits.get(output_class, DEFAULT_OUTPUT_LIMITS.get(output_class, (0, 0, 0)))
    parts = []
    if hard:
        parts.append(label("tr-hard", lang, size=human_bytes(hard)))
    if soft:
        parts.append(label("tr-soft", lang, size=human_bytes(soft), seconds=f"{seconds:,}"))
    return ("，" if lang == "zh" else ", ").join(parts) if parts else label("tr-no-limit", lang)


# ---- the parts ---------------------------------------------------------------------------------------------


def _headline(view: TrafficView, lang: str) -> Iterator[Line]:
    if view.reset:
        yield Line(label("tr-reset", lang), "warning")
        return
    calls = view.calls
    errors = sum(view.errors.values())
    yield Line(
        label(
            "tr-calls",
            lang,
            calls=f"{calls:,}",
            rate=rate(view.per_second(calls)),
            commands=f"{len(view.commands):,}",
            errors=f"{errors:,}",
        )
    )
    hits, misses = view.stats.get("keyspace_hits", 0), view.stats.get("keyspace_misses", 0)
    if hits + misses:
        yield Line(label("tr-hit-ratio", lang, ratio=share(hits / (hits + misses))))


def _command_rows(view: TrafficView, commands: Sequence[CommandWindow]) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (
            word(command.name),
            f"{command.calls:,}",
            rate(view.per_second(command.calls)),
            duration(command.usec),
            "?" if command.usec_per_call is None else f"{command.usec_per_call:,.1f}",
            count(command.failed),
            count(command.rejected),
        )
        for command in commands
    )


def _commands(view: TrafficView, lang: str) -> Iterator[Table]:
    if not view.commands:
        return
    headers = tuple(
        label(name, lang)
        for name in ("tr-command", "tr-calls-column", "tr-per-second", "tr-cpu", "tr-usec-per-call", "tr-failed",
                     "tr-rejected")
    )  # fmt: skip
    total = f"{len(view.commands):,}"
    for name, ordered in (("by-calls", by_calls(view.commands)), ("by-cpu", by_cpu(view.commands))):
        shown = ordered[:ROWS]
        title = label("tr-" + name, lang, shown=f"{len(shown):,}", total=total)
        yield Table("commands-" + name, title, headers, _command_rows(view, shown))


def _errors(view: TrafficView, lang: str) -> Iterator[Table]:
    if not view.errors:
        return
    errors = sorted(view.errors.items(), key=lambda item: (-item[1], item[0]))
    shown = errors[:ROWS]
    title = label("tr-errors", lang, shown=f"{len(shown):,}", total=f"{len(errors):,}")
    headers = (label("tr-error", lang), label("tr-replies", lang), label("tr-per-second", lang))
    rows = tuple((word(prefix), f"{count:,}", rate(view.per_second(count))) for prefix, count in shown)
    yield Table("errors", title, headers, rows)


def stat_cells(view: TrafficView, name: str, count: int) -> tuple[str, str]:
    """A counter's difference over the window and its rate per second (`–` for counters of rare events)."""
    per_second = view.per_second(count) if name in RATE_COUNTERS else None
    if name in BYTE_COUNTERS:
        return human_bytes(count), "–" if per_second is None else human_bytes(per_second) + "/s"
    return f"{count:,}", "–" if per_second is None else rate(per_second)


def _stats(view: TrafficView, lang: str) -> Iterator[Table]:
    if not view.stats:
        return
    headers = (label("tr-counter", lang), label("tr-in-window", lang), label("tr-per-second", lang))
    rows = tuple((word(name), *stat_cells(view, name, count)) for name, count in view.stats.items())
    yield Table("stats", label("tr-stats", lang), headers, rows)


def _client_tables(view: TrafficView, lang: str) -> Iterator[Table]:
    clients = view.clients
    client, buffer = label("tr-client", lang), label("tr-output-buffer", lang)
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    pubsub = sorted((c for c in clients if is_pubsub(c)), key=lambda c: (-c.channels, c.id))[:CLIENT_ROWS]
    if pubsub:
        headers = (client, *(label(n, lang) for n in ("tr-channels", "tr-patterns", "tr-shard-channels")), buffer)
        rows = tuple((client_label(c), f"{c.sub:,}", f"{c.psub:,}", f"{c.ssub:,}", human_bytes(c.omem)) for c in pubsub)
        yield Table("pubsub", label("tr-pubsub", lang), headers, rows)
    blocked = sorted((c for c in clients if is_blocked(c)), key=lambda c: (-(c.idle or 0), c.id))[:CLIENT_ROWS]
    if blocked:
        headers = (client, label("tr-command", lang), label("tr-idle", lang), label("tr-db", lang))
        rows = tuple((client_label(c), word(c.cmd), seconds_text(c.idle), count(c.db)) for c in blocked)
        yield Table("blocked", label("tr-blocked", lang), headers, rows, frozenset({0, 1}))
    transactions = sorted(
        (c for c in clients if in_transaction(c)), key=lambda c: (-max(c.multi, 0), -(c.watch or 0), c.id)
    )[:CLIENT_ROWS]
    if transactions:
        headers = (client, label("tr-command", lang), label("tr-queued", lang), label("tr-watched", lang))
        rows = tuple(
            (client_label(c), word(c.cmd), "–" if c.multi < 0 else f"{c.multi:,}", count(c.watch)) for c in transactions
        )
        yield Table("transactions", label("tr-transactions", lang), headers, rows, frozenset({0, 1}))
    monitors = [c for c in clients if is_monitor(c)][:CLIENT_ROWS]
    if monitors:
        headers = (client, label("tr-age", lang), label("tr-idle", lang), buffer)
        rows = tuple(
            (client_label(c), seconds_text(c.age), seconds_text(c.idle), human_bytes(c.omem)) for c in monitors
        )
        yield Table("monitors", label("tr-monitors", lang), headers, rows)
    buffers = sorted((c for c in clients if c.omem > 0), key=lambda c: (-c.omem, c.id))[:CLIENT_ROWS]
    if buffers:
        headers = (client, label("tr-class", lang), buffer, label("tr-limit", lang))
        rows = tuple(
            (client_label(c), c.output_class, human_bytes(c.omem), limit_text(view, c.output_class, lang))
            for c in buffers
        )
        yield Table("buffers", label("tr-buffers", lang), headers, rows)


def _clients(view: TrafficView, lang: str) -> Iterator[Part]:
    error = source_error(view, "CLIENT LIST")
    if not (view.clients or view.clients_total or has_source(view, "CLIENT LIST")):
        return
    yield Line(label("tr-clients", lang), "heading")
    if error is not None:
        yield Line(label("tr-not-read", lang, error=display_text(error, TEXT_LIMIT)))
        return
    clients = view.clients
    yield Line(
        label(
            "tr-clients-line",
            lang,
            total=f"{max(view.clients_total, len(clients)):,}",
            listed=f"{len(clients):,}",
            pubsub=f"{sum(map(is_pubsub, clients)):,}",
            blocked=f"{sum(map(is_blocked, clients)):,}",
            transactions=f"{sum(map(in_transaction, clients)):,}",
            monitors=f"{sum(map(is_monitor, clients)):,}",
        )
    )
    yield from _client_tables(view, lang)


def _slow_log(view: TrafficView, lang: str) -> Iterator[Part]:
    error = source_error(view, "SLOWLOG GET")
    if not (view.slow_calls or view.slowlog_history or has_source(view, "SLOWLOG GET")):
        return
    yield Line(label("tr-slowlog", lang), "heading")
    if error is not None:
        yield Line(label("tr-not-read", lang, error=display_text(error, TEXT_LIMIT)))
        return
    threshold = view.slowlog_threshold_us
    since = view.slowlog_since
    yield Line(
        label(
            "tr-slowlog-line",
            lang,
            n=f"{len(view.slow_calls):,}",
            threshold=label("tr-unknown-threshold", lang) if threshold is None else f"{threshold:,} µs",
            history=f"{view.slowlog_history:,}",
            since="" if since is None else label("tr-slowlog-since", lang, time=utc(since)),
        )
    )
    slowest = sorted(view.slow_calls, key=lambda call: (-call.duration_us, -call.id))[:ROWS]
    if slowest:
        title = label("tr-slow-calls", lang, shown=f"{len(slowest):,}", total=f"{len(view.slow_calls):,}")
        headers = tuple(label(name, lang) for name in ("tr-command", "tr-client", "tr-duration", "tr-time"))
        rows = tuple(
            (command_line(call, lang), slow_client(call), f"{call.duration_us:,}", utc(call.time, "%H:%M:%S"))
            for call in slowest
        )
        yield Table("slow-calls", title, headers, rows, frozenset({0, 1}))


def _latency(view: TrafficView, lang: str) -> Iterator[Table]:
    if not view.latency_events:
        return
    shown = view.latency_events[:ROWS]
    threshold = f"{view.latency_threshold_ms:,}" if view.latency_threshold_ms is not None else "?"
    title = label("tr-latency", lang, shown=f"{len(shown):,}", total=f"{len(view.latency_events):,}", ms=threshold)
    headers = tuple(label(name, lang) for name in ("tr-event", "tr-time", "tr-latest-ms", "tr-max-ms"))
    rows = tuple(
        (word(event.event), utc(event.time, "%H:%M:%S"), f"{event.latest_ms:,}", f"{event.max_ms:,}") for event in shown
    )
    yield Table("latency", title, headers, rows)


def _queues(view: TrafficView, lang: str) -> Iterator[Table]:
    if not view.queues:
        return
    shown = view.queues[:ROWS]
    title = label("tr-queues", lang, shown=f"{len(shown):,}", total=f"{len(view.queues):,}")
    headers = tuple(
        label(name, lang)
        for name in ("tr-key", "tr-type", "tr-why", "tr-db", "tr-length-start", "tr-length-end", "tr-growth")
    )
    rows = []
    for queue in shown:
        growth = queue.growth_per_second(view.seconds)
        rows.append((
            display_bytes(queue.key, QUOTE_LIMIT),
            word(queue.type),
            display_text(queue.reason, QUOTE_LIMIT),
            str(queue.db),
            count(queue.length_start),
            count(queue.length_end),
            "?" if growth is None else f"{growth:+,.1f}",
        ))  # fmt: skip
    yield Table("queues", title, headers, tuple(rows), frozenset({0, 1, 2}))
    groups = [(queue, group) for queue in shown for group in queue.groups][:ROWS]
    if groups:
        headers = tuple(label(name, lang) for name in ("tr-stream", "tr-group", "tr-consumers", "tr-pending", "tr-lag"))
        group_rows = tuple(
            (
                display_bytes(queue.key, QUOTE_LIMIT),
                word(group.name),
                f"{group.consumers:,}",
                f"{group.pending:,}",
                count(group.lag),
            )
            for queue, group in groups
        )
        yield Table("groups", label("tr-groups", lang), headers, group_rows, frozenset({0, 1}))


def source_line(source: TrafficSourceInfo, lang: str) -> str:
    """`SLOWLOG GET: not read: NOPERM … · only calls slower than …`: the source, whether it was read, and
    what it cannot show."""
    parts = []
    if source.error:
        parts.append(label("tr-not-read", lang, error=display_text(source.error, TEXT_LIMIT)))
    parts.append(inert(source.blind_spots.in_(lang), TEXT_LIMIT * 2))
    return label("tr-source", lang, source=word(source.name), text=" · ".join(parts))


def traffic_section(view: TrafficView, lang: str) -> TrafficSection:
    """The traffic section of one window, in `lang` (see the module docstring)."""
    address = display_text(view.origin.path or "?")
    window = label("tr-window", lang, seconds=f"{view.seconds:,.1f}", start=utc(view.started))
    parts: list[Part] = [*_headline(view, lang)]
    parts += [*_commands(view, lang), *_errors(view, lang), *_stats(view, lang)]
    parts += [*_clients(view, lang), *_slow_log(view, lang), *_latency(view, lang), *hot_keys(view, lang)]
    parts += hot_slots(view, lang)
    parts += _queues(view, lang)
    parts += monitor_sample(view, lang)
    if view.sources:
        parts.append(Line(label("tr-sources", lang), "heading"))
        parts.append(Items(tuple(source_line(source, lang) for source in view.sources)))
    return TrafficSection(label("tr-title", lang, address=address, window=window), address, window, tuple(parts))


__all__ = [
    "BYTE_COUNTERS",
    "RATE_COUNTERS",
    "Items",
    "Line",
    "Part",
    "Table",
    "TrafficSection",
    "traffic_section",
]
