"""The expiry model against a real Redis 7.0: volatile keys with a TTL of an hour and probes that expire first,
nothing read; the server's `expired_keys` over the next 30 s (the active cycle's sweep alone reclaims the probes)
is what the model predicts for the same keys, within 5 points of the probes or 20 % of the prediction."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rediscipline.simulate.expiry import ExpirySettings, simulate_expiry
from tests.support.kinds import require_kind
from tests.support.probes import probe_keyspace, reclaimed_probes
from tests.support.servers import ServerProcess, start_server

KEYS = 20_000
PROBES = 1_000
CHECKS = (10, 20, 30)  # seconds after the probes expire


@pytest.fixture
def server() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70") as started:
        yield started


def test_probes_are_reclaimed_as_the_cursor_sweeps(server: ServerProcess) -> None:
    deadline_ms, seen = reclaimed_probes(server.client(), KEYS, PROBES, CHECKS)
    background = probe_keyspace(KEYS, PROBES, deadline_ms)
    predicted = [0.0] * len(CHECKS)
    seeds = 5  # the keys' buckets are random on the server too: the prediction is the mean of a few placements
    for seed in range(seeds):
        outcome = simulate_expiry([background], deadline_ms, max(CHECKS), 10, ExpirySettings(seed=seed))
        points = {point.t: point.reclaimed for point in outcome.series}
        for at, offset in enumerate(CHECKS):
            predicted[at] += points[float(offset)] / seeds
    for real, expected in zip(seen, predicted, strict=True):
        assert abs(real - expected) <= max(0.05 * PROBES, 0.2 * expected), (seen, predicted)
    assert 0 < seen[0] < seen[-1] < PROBES  # the sweep is partial: the probes wait for the cursor
