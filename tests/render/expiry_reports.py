"""Reports of a `rediscipline simulate expiry` run made from a hand-made `ExpirySimulation`, for the render tests:
a known shape (a burst of keys expiring at 5 min in db 2, a steady trickle in db 0, the cycle at its time limit
for two minutes) without the simulator's arithmetic in the way."""

from __future__ import annotations

import math
from dataclasses import replace

from rediscipline.api import check_key_names
from rediscipline.model.location import SOURCE_SIMULATION, Location
from rediscipline.model.report import Report
from rediscipline.model.simulation import ExpiryPoint, ExpirySettingsView, ExpirySimulation, ExpiryStep

START_MS = 1_795_000_000_000  # 2026-11-18 11:06:40 UTC
BURST_AT = 300.0
STORM = (300.0, 420.0)  # the steps ending after the first and before the second hit their time limit


def _waiting(db: int, t: float) -> tuple[int, int]:
    """Keys past their TTL still in memory, and reclaimed so far."""
    if db == 2:
        if t < BURST_AT:
            return 0, 0
        waiting = round(5_000 * math.exp(-(t - BURST_AT) / 60))
        return waiting, 60_000 - waiting - round(55_000 * math.exp(-(t - BURST_AT) / 30))
    return round(200 * (1 + math.sin(t / 50))), round(t * 3)


def expiry_simulation(
    dbs: tuple[int, ...] = (0, 2),
    points: int = 900,
    step: float = 1.0,
    path: str = "dump.rdb",
    *,
    quiet: bool = False,
    volatile: bool = True,
) -> ExpirySimulation:
    """`points` steps of `step` seconds over `dbs` (a point at 0 and at the end of each step). `quiet`: nothing
    expires within the span (every TTL ends later); `volatile` False: no key has a TTL (nothing simulated)."""
    settings = ExpirySettingsView(10, 1, False, 1.0, 1.0, 1.0, points * step, step, (), 1)
    origin = Location(SOURCE_SIMULATION, path)
    if not volatile:
        return ExpirySimulation(origin, START_MS, settings)
    series, steps = [], []
    for index in range(points + 1):
        t = round(index * step, 3)
        for db in dbs:
            waiting, reclaimed = (0, 0) if quiet else _waiting(db, t)
            series.append(ExpiryPoint(db, t, waiting, waiting * (550 + 100 * db), reclaimed))
        if index:
            storm = not quiet and STORM[0] < t < STORM[1]
            share = 0.24 if storm else 0.0004 + 0.0001 * math.sin(t)
            steps.append(ExpiryStep(t, share, 10 if storm else 0, 25_000.0 if storm else 40.0))
    volatile_keys = tuple((db, 60_000, 33_000_000) for db in dbs)
    return ExpirySimulation(origin, START_MS, settings, volatile_keys, tuple(series), tuple(steps))


def expiry_report(*simulations: ExpirySimulation) -> Report:
    """A report holding `simulations` (and no finding): what `render_html` shows of them."""
    report = check_key_names([])
    return replace(report, stats=replace(report.stats, expiry=simulations))
