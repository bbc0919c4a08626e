"""The charts of an expiry simulation (`simulate expiry`), drawn above its tables: over the time simulated,

* the keys past their TTL still in memory (a solid line per database) and the keys the cycle has reclaimed
  (dashed, the same colour);
* the memory those expired keys hold, per database;
* the expire cycle's share of the server's time per step, the steps where slow cycles stopped at their time
  limit marked under the line (the storm).

At most MAX_DATABASES databases are drawn (those whose expired keys held the most memory); the section's
tables list every one, and the JSON report has every point. A simulation without keys with a TTL has no chart:
its note says why. Every text here is a number, a database number or a fixed word: nothing comes from the
dump's contents.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from rediscipline.model.simulation import ExpiryPoint, ExpirySimulation, ExpiryStep
from rediscipline.render.html.charts import LineChart, LineData, lines, merged_runs
from rediscipline.render.html.words import word
from rediscipline.render.labels import label
from rediscipline.render.numbers import human_bytes, human_count
from rediscipline.render.traffic_parts import duration, utc

#: Databases drawn at most (two lines each on the keys' chart).
MAX_DATABASES = 6
_UNITS = ((86400, "elapsed-d"), (3600, "elapsed-h"), (60, "elapsed-min"), (1, "elapsed-s"))
_BYTE_UNITS = ("B", "KB", "MB", "GB", "TB", "PB")


def elapsed(seconds: float, lang: str) -> str:
    """Time from the start for people: `0`, `1.5 s`, `45 s`, `12 min`, `1 h 30 min`, `2 d 4 h` (the two largest
    units; a second and more is whole seconds)."""
    if seconds <= 0:
        return "0"
    if seconds < 60:
        return word("elapsed-s", lang, n=f"{round(seconds, 3):g}")
    rest = round(seconds)
    parts = []
    for size, name in _UNITS:
        amount, rest = divmod(rest, size)
        if amount:
            parts.append(word(name, lang, n=f"{amount:,}"))
        if len(parts) == 2 or (parts and not amount):
            break
    return " ".join(parts)


def compact(value: float) -> str:
    """A count on an axis: `250`, `2.5k`, `12k`, `1.2M`."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


def byte_level(value: float) -> str:
    """A byte size on an axis, in the unit of a 1024-power (`0`, `512 KB`, `2.5 MB`)."""
    if value <= 0:
        return "0"
    unit = min(int(math.log(value, 1024) + 1e-9), len(_BYTE_UNITS) - 1)
    return f"{value / 1024**unit:.3g} {_BYTE_UNITS[unit]}"


def percent(value: float) -> str:
    """A share: `0`, `0.025%`, `12.5%`."""
    return "0" if value <= 0 else f"{value * 100:.3g}%"


def _by_database(series: Sequence[ExpiryPoint]) -> tuple[list[float], dict[int, list[ExpiryPoint]]]:
    """The series' times, and per database its point at each of them (a time a database lacks repeats its
    point before; there is none in what `simulate.expiry` records)."""
    times = sorted({point.t for point in series})
    at = {(point.db, point.t): point for point in series}
    out: dict[int, list[ExpiryPoint]] = {}
    for db in sorted({point.db for point in series}):
        previous = ExpiryPoint(db, 0.0, 0, 0, 0)
        points = []
        for t in times:
            previous = at.get((db, t), previous)
            points.append(previous)
        out[db] = points
    return times, out


def _drawn(by_db: dict[int, list[ExpiryPoint]]) -> list[int]:
    """The databases drawn: the MAX_DATABASES whose expired keys held the most memory, then the most keys,
    then reclaimed the most, in database order."""

    def weight(db: int) -> tuple[int, int, int]:
        points = by_db[db]
        return (
            max(p.expired_in_memory_bytes for p in points),
            max(p.expired_in_memory for p in points),
            points[-1].reclaimed,
        )

    ranked = sorted(by_db, key=lambda db: (tuple(-w for w in weight(db)), db))
    return sorted(ranked[:MAX_DATABASES])


def expiry_charts(simulation: ExpirySimulation, lang: str) -> tuple[LineChart, ...]:
    """The charts of `simulation`, none when no key has a TTL."""
    if not simulation.volatile or not simulation.series:
        return ()
    times, by_db = _by_database(simulation.series)
    drawn = _drawn(by_db)
    axis = word("time-since", lang, start=utc(simulation.start_ms / 1000))
    more = word("databases-cut", lang, n=f"{len(by_db) - len(drawn):,}") if len(by_db) > len(drawn) else ""
    charts = _waiting_charts(times, by_db, simulation, lang, axis=axis, drawn=drawn, more=more)
    if simulation.steps:
        charts.append(_cpu_chart(simulation.steps, lang, axis))
    return tuple(charts)


def _waiting_charts(
    times: list[float],
    by_db: dict[int, list[ExpiryPoint]],
    simulation: ExpirySimulation,
    lang: str,
    *,
    axis: str,
    drawn: list[int],
    more: str,
) -> list[LineChart]:
    waiting, reclaimed = label("sim-expired-waiting", lang), label("sim-reclaimed", lang)

    def at(index: int) -> str:
        parts = [elapsed(times[index], lang)]
        for db in drawn:
            point = by_db[db][index]
            parts.append(
                word(
                    "hover-db",
                    lang,
                    db=db,
                    keys=f"{point.expired_in_memory:,}",
                    size=human_bytes(point.expired_in_memory_bytes),
                    reclaimed=f"{point.reclaimed:,}",
                )
            )
        return " · ".join(parts)

    def of(db: int, what: str) -> str:
        return word("series-of-db", lang, db=db, what=what)

    def keys_row(index: int) -> tuple[str, ...]:
        cells = [elapsed(times[index], lang)]
        for db in drawn:
            point = by_db[db][index]
            cells += [f"{point.expired_in_memory:,}", f"{point.reclaimed:,}"]
        return tuple(cells)

    def bytes_row(index: int) -> tuple[str, ...]:
        return (elapsed(times[index], lang), *(human_bytes(by_db[db][index].expired_in_memory_bytes) for db in drawn))

    def total(index: int, field: Callable[[ExpiryPoint], int]) -> int:
        return sum(field(by_db[db][index]) for db in drawn)

    why = word("no-data", lang, why=word("why-none-expired", lang, span=elapsed(simulation.settings.seconds, lang)))
    if not any(p.expired_in_memory or p.reclaimed for points in by_db.values() for p in points):
        return [LineChart("expiry-waiting", word("expiry-waiting", lang), empty=why)]
    keys_chart = lines(
        "expiry-waiting",
        word("expiry-waiting", lang),
        times,
        [
            LineData(f"db{db}-{kind}", of(db, name), [float(getattr(p, field)) for p in by_db[db]], tone, dashed)
            for tone, db in enumerate(drawn)
            for kind, name, field, dashed in (
                ("waiting", waiting, "expired_in_memory", False),
                ("reclaimed", reclaimed, "reclaimed", True),
            )
        ],
        empty=why,
        level_label=compact,
        whole=True,
        tick_label=lambda t: elapsed(t, lang),
        hover_label=at,
        headers=(
            word("time-column", lang),
            *(of(db, name) for db in drawn for name in (waiting, reclaimed)),
        ),
        row=keys_row,
        weight=lambda index: total(index, lambda p: p.expired_in_memory),
        axis_label=axis,
        caption=_peak(times, by_db, lang),
        more=more,
    )
    bytes_chart = lines(
        "expiry-waiting-bytes",
        word("expiry-waiting-bytes", lang),
        times,
        [
            LineData(f"db{db}-bytes", f"db {db}", [float(p.expired_in_memory_bytes) for p in by_db[db]], tone)
            for tone, db in enumerate(drawn)
        ],
        empty=word("no-data", lang, why=word("why-reclaimed-at-once", lang)),
        level_label=byte_level,
        tick_label=lambda t: elapsed(t, lang),
        hover_label=at,
        headers=(word("time-column", lang), *(f"db {db}" for db in drawn)),
        row=bytes_row,
        binary=True,
        weight=lambda index: total(index, lambda p: p.expired_in_memory_bytes),
        axis_label=axis,
        more=more,
    )
    return [keys_chart, bytes_chart]


def _peak(times: list[float], by_db: dict[int, list[ExpiryPoint]], lang: str) -> str:
    """The most expired keys in memory at once, over every database (drawn or not)."""
    totals = [(sum(points[index].expired_in_memory for points in by_db.values()), index) for index in range(len(times))]
    keys, index = max(totals, key=lambda item: (item[0], -item[1]))
    if not keys:
        return ""
    size = sum(points[index].expired_in_memory_bytes for points in by_db.values())
    return word("waiting-peak", lang, keys=f"{keys:,}", size=human_bytes(size), t=elapsed(times[index], lang))


def _cpu_chart(steps: Sequence[ExpiryStep], lang: str, axis: str) -> LineChart:
    """The cycle's share of the server's time as stairs: each step's share held from its start to its end (the
    first starts at 0); the runs of steps whose slow cycles hit their time limit are marked."""
    starts = [0.0, *(step.t for step in steps[:-1])]
    times = [t for start, step in zip(starts, steps, strict=True) for t in (start, step.t)]
    shares = [step.cpu_share for step in steps for _end in (0, 1)]
    share_word = label("sim-cpu-share", lang)

    def at(index: int) -> str:
        step = steps[index // 2]
        return " · ".join(
            (
                f"{elapsed(starts[index // 2], lang)} – {elapsed(step.t, lang)}",
                word(
                    "hover-cpu",
                    lang,
                    share=f"{step.cpu_share:.2%}",
                    longest=duration(step.longest_cycle_us),
                    hits=f"{step.time_limit_hits:,}",
                ),
            )
        )

    def row(index: int) -> tuple[str, ...]:
        step = steps[index // 2]
        return (
            f"{elapsed(starts[index // 2], lang)} – {elapsed(step.t, lang)}",
            f"{step.cpu_share:.2%}",
            f"{step.time_limit_hits:,}",
            duration(step.longest_cycle_us),
        )

    runs: list[tuple[int, int]] = []
    for index, step in enumerate(steps):
        if step.time_limit_hits:
            if runs and runs[-1][1] == index - 1:
                runs[-1] = (runs[-1][0], index)
            else:
                runs.append((index, index))
    bands = []
    for first, last in merged_runs(runs):
        hits = sum(step.time_limit_hits for step in steps[first : last + 1])
        start, end = starts[first], steps[last].t
        title = word("limit-band-title", lang, start=elapsed(start, lang), end=elapsed(end, lang), hits=f"{hits:,}")
        bands.append((start, end, hits, title))
    busiest = percent(max(shares))
    hit_steps = sum(1 for step in steps if step.time_limit_hits)
    if hit_steps:
        caption = word(
            "limit-caption",
            lang,
            steps=f"{hit_steps:,}",
            total=f"{len(steps):,}",
            hits=human_count(sum(step.time_limit_hits for step in steps)),
            share=busiest,
        )
    else:
        caption = word("no-limit-caption", lang, share=busiest)
    return lines(
        "expiry-cpu",
        word("expiry-cpu", lang),
        times,
        [LineData("cpu-share", share_word, shares)],
        empty=word("no-data", lang, why=word("why-no-cycle-time", lang)),
        level_label=percent,
        tick_label=lambda t: elapsed(t, lang),
        hover_label=at,
        headers=(word("time-column", lang), share_word, label("sim-limit-hits", lang), word("longest-cycle", lang)),
        row=row,
        stride=2,
        bands=bands,
        band_label=word("limit-band", lang),
        axis_label=axis,
        caption=caption,
        alert=bool(hit_steps),
    )
