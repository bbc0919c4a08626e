"""What a simulation's section shows, worded once for the human formats (text, Markdown and HTML lay out its
`render.traffic_parts` pieces as they lay out a traffic window's): the trace replayed, the settings shared by
every replay, the hit ratio of every policy at every size (with the smallest size reaching 90, 95 and 99 % per
policy), and per replay what was evicted and refused.

Cells are escaped and bounded here, as in `render.traffic`; the JSON report has every item.
"""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.display import QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.report import Report
from rediscipline.model.simulation import EvictionResult, EvictionSimulation, ExpirySimulation
from rediscipline.render.labels import label
from rediscipline.render.numbers import human_bytes
from rediscipline.render.traffic_parts import ROWS, Line, Part, Table, TrafficSection, utc, word

#: Hit ratios whose smallest size each policy's line names.
TARGETS = (0.9, 0.95, 0.99)


def eviction_section(simulation: EvictionSimulation, lang: str) -> TrafficSection:
    trace, settings = simulation.trace, simulation.settings
    source = display_text(simulation.origin.path or "?")
    span = (
        label("sim-span", lang, seconds=f"{trace.span_ms / 1000:,.1f}") if trace.timed else label("sim-untimed", lang)
    )
    parts: list[Part] = [
        Line(
            label(
                "sim-trace",
                lang,
                format=word(trace.format),
                accesses=f"{trace.accesses:,}",
                keys=f"{trace.keys:,}",
                span=span,
                working=human_bytes(trace.working_set),
            )
        ),
        Line(
            label(
                "sim-settings",
                lang,
                model=word(settings.memory_model),
                baseline=human_bytes(settings.baseline),
                samples=f"{settings.samples}",
                factor=f"{settings.log_factor}",
                decay=f"{settings.decay_time}",
                seed=f"{settings.seed}",
            )
        ),
        *_curve(simulation, lang),
        *_targets(simulation, lang),
        *_replays(simulation, lang),
    ]
    title = label("sim-title", lang, source=source)
    return TrafficSection(title, source, "", tuple(parts))


def _policies(simulation: EvictionSimulation) -> list[str]:
    return list(dict.fromkeys(result.policy for result in simulation.results))


def _curve(simulation: EvictionSimulation, lang: str) -> Iterator[Table]:
    """Hit ratio by size (rows) and policy (columns)."""
    policies = _policies(simulation)
    sizes = list(dict.fromkeys(result.maxmemory for result in simulation.results))
    rows = []
    for size in sizes:
        cells = [human_bytes(size), _share(size, simulation)]
        for policy in policies:
            result = simulation.result(policy, size)
            cells.append("" if result is None else f"{result.hit_ratio:.1%}")
        rows.append(tuple(cells))
    headers = (label("sim-maxmemory", lang), label("sim-of-working-set", lang), *(word(p) for p in policies))
    yield Table("hit-ratios", label("sim-hit-ratios", lang), headers, tuple(rows), frozenset())


def _share(size: int, simulation: EvictionSimulation) -> str:
    data = simulation.trace.working_set - simulation.settings.baseline
    return f"{(size - simulation.settings.baseline) / data:.0%}" if data > 0 else "?"


def _targets(simulation: EvictionSimulation, lang: str) -> Iterator[Line]:
    """Per policy, the smallest size replayed that reached each target hit ratio."""
    for policy in _policies(simulation):
        results = sorted((r for r in simulation.results if r.policy == policy), key=lambda r: r.maxmemory)
        reached = []
        for target in TARGETS:
            first = next((r for r in results if r.hit_ratio >= target), None)
            reached.append(f"{target:.0%} → {human_bytes(first.maxmemory) if first else label('sim-none', lang)}")
        yield Line(label("sim-target", lang, policy=word(policy), targets=", ".join(reached)))


def _replays(simulation: EvictionSimulation, lang: str) -> Iterator[Table]:
    headers = tuple(
        label(name, lang)
        for name in ("sim-policy", "sim-maxmemory", "sim-hits", "sim-misses", "sim-evicted", "sim-evicted-bytes",
                     "sim-oom", "sim-peak", "sim-top-namespace")
    )  # fmt: skip
    rows = tuple(_replay_row(result) for result in simulation.results)
    yield Table("replays", label("sim-replays", lang), headers, rows, frozenset({0, 8}))


def _replay_row(result: EvictionResult) -> tuple[str, ...]:
    top = result.namespaces[0] if result.namespaces else None
    return (
        word(result.policy),
        human_bytes(result.maxmemory),
        f"{result.hits:,}",
        f"{result.misses:,}",
        f"{result.evicted_keys:,}",
        human_bytes(result.evicted_bytes),
        f"{result.oom_errors:,}",
        human_bytes(result.peak_memory),
        "" if top is None else f"{display_bytes(top.pattern, QUOTE_LIMIT)} ({top.keys:,})",
    )


#: Rows of the expiry series shown per database (evenly spaced over the span; the JSON has every point).
SERIES_ROWS = 12


def expiry_section(simulation: ExpirySimulation, lang: str) -> TrafficSection:
    """The keys with a TTL, the settings, and per database the series: expired keys still in memory, their
    bytes, the keys reclaimed; then the steps where the cycle worked hardest."""
    settings = simulation.settings
    source = display_text(simulation.origin.path or "?")
    parts: list[Part] = [
        Line(
            label(
                "sim-expiry-settings",
                lang,
                algorithm=label(f"sim-algorithm-{settings.algorithm}", lang),
                start=utc(simulation.start_ms / 1000),
                hz=f"{settings.hz}",
                effort=f"{settings.effort}",
                lazyfree=label("sim-yes" if settings.lazyfree else "sim-no", lang),
                seconds=f"{settings.seconds:,.0f}",
                step=f"{settings.step:,.0f}",
            )
        )
    ]
    if simulation.maxmemory:
        parts.append(Line(label("sim-expiry-maxmemory", lang, size=human_bytes(simulation.maxmemory))))
    if not simulation.volatile:
        parts.append(Line(label("sim-no-volatile", lang)))
    for db, keys, size in simulation.volatile:
        parts.append(Line(label("sim-volatile", lang, db=f"{db}", keys=f"{keys:,}", size=human_bytes(size))))
        points = [point for point in simulation.series if point.db == db]
        every = max(1, -(-len(points) // SERIES_ROWS))
        shown = points[::every]
        if points and shown[-1] is not points[-1]:
            shown.append(points[-1])
        headers = tuple(
            label(name, lang) for name in ("sim-t", "sim-expired-waiting", "sim-waiting-bytes", "sim-reclaimed")
        )
        rows = tuple(
            (f"{point.t:,.0f}", f"{point.expired_in_memory:,}", human_bytes(point.expired_in_memory_bytes),
             f"{point.reclaimed:,}")
            for point in shown
        )  # fmt: skip
        title = label("sim-expiry-series", lang, db=f"{db}")
        parts.append(Table("expiry-series", title, headers, rows, frozenset()))
    busiest = sorted(simulation.steps, key=lambda step: (-step.cpu_share, step.t))[:ROWS]
    busiest = [step for step in busiest if step.cpu_share >= BUSY_SHARE or step.time_limit_hits]
    if busiest:
        headers = tuple(label(name, lang) for name in ("sim-t", "sim-cpu-share", "sim-limit-hits", "sim-longest"))
        rows = tuple(
            (
                f"{step.t:,.0f}",
                f"{step.cpu_share:.1%}",
                f"{step.time_limit_hits:,}",
                f"{step.longest_cycle_us / 1000:,.1f}",
            )
            for step in sorted(busiest, key=lambda step: step.t)
        )
        parts.append(Table("expiry-storms", label("sim-storms", lang), headers, rows, frozenset()))
    return TrafficSection(label("sim-expiry-title", lang, source=source), source, "", tuple(parts))


#: A step whose cycles took at least this share of the server's time is listed among the busiest.
BUSY_SHARE = 0.01


def simulation_sections(report: Report, lang: str) -> Iterator[TrafficSection]:
    """Every simulation of the report, eviction first."""
    for eviction in report.stats.eviction:
        yield eviction_section(eviction, lang)
    for expiry in report.stats.expiry:
        yield expiry_section(expiry, lang)


__all__ = ["eviction_section", "expiry_section", "simulation_sections"]
