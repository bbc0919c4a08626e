"""What a simulation's section shows, worded once for the human formats (text; `render.traffic_parts` pieces):
the trace replayed, the settings shared by every replay, the hit ratio of every policy at every size (with
the smallest size reaching 90, 95 and 99 % per policy), and per replay what was evicted and refused.

Cells are escaped and bounded here, as in `render.traffic`; the JSON report has every item.
"""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.display import QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.simulation import EvictionResult, EvictionSimulation
from rediscipline.render.labels import label
from rediscipline.render.numbers import human_bytes
from rediscipline.render.traffic_parts import Line, Part, Table, TrafficSection, word

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


__all__ = ["eviction_section"]
