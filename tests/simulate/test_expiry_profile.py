"""A report read as the expiry simulator's input (`sources.simulation.expiry_profile`): the keys rebuilt from
its timeline, per database and per master; what a rebuilt keyspace predicts against the keys it stands for;
reports that cannot be read, each refused in one line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rediscipline.model.keyspace import HOUR_MS, MINUTE_MS, TIMELINE_HOURS, TIMELINE_MINUTES
from rediscipline.simulate.expiry import ExpirySettings, VolatileKeys, simulate_expiry
from rediscipline.sources.errors import SourceError
from rediscipline.sources.simulation.expiry_profile import profile_of, read_report, rebuilt_keys

START = 1_795_000_000_000


def report(expiries: list[int], **server: Any) -> dict[str, Any]:
    """A scan's report whose timeline counts `expiries` (ms from the start), 100 bytes each."""
    minutes, hours, later = [0] * TIMELINE_MINUTES, [0] * TIMELINE_HOURS, 0
    seconds = [0] * (TIMELINE_MINUTES * 60)
    for left in expiries:
        if left < TIMELINE_MINUTES * MINUTE_MS:
            minutes[left // MINUTE_MS] += 1
            seconds[left // 1000] += 1
            hours[left // HOUR_MS] += 1
        elif left < TIMELINE_HOURS * HOUR_MS:
            hours[left // HOUR_MS] += 1
        else:
            later += 1
    return {
        "schema": "rediscipline.report",
        "server": {"flavor": "redis", "version": "7.0.15", "started_ms": START, "maxmemory": 0, **server},
        "keyspace": {
            "with_ttl": len(expiries),
            "memory_with_ttl": 100 * len(expiries),
            "expiry": {
                "per_minute": minutes,
                "peak_second": [max(seconds[minute * 60 : minute * 60 + 60]) for minute in range(TIMELINE_MINUTES)],
                "per_hour": hours,
                "later": later,
                "keys": len(expiries),
            },
        },
    }


def test_each_database_gets_its_share_spread_evenly_within_each_bin() -> None:
    expiries = [2_000 + 190 * index for index in range(300)] + [90 * MINUTE_MS + 5] * 300
    expiries += [3 * 86400_000] * 100 + [40 * 86400_000] * 10
    profile = profile_of(report(expiries, volatile={"0": 1420, "5": 710}), "r.json")
    rebuilt = {keys.db: keys for keys in rebuilt_keys(profile)}
    assert {db: len(keys.expires) for db, keys in rebuilt.items()} == {0: 1420, 5: 710}
    # db 5 has as many keys as the timeline: the first minute's busiest second (6 keys) in its middle, the
    # others evenly over the minute
    assert profile.peak_second[0] == 6
    first_minute = sorted(when - START for when in rebuilt[5].expires if when - START < MINUTE_MS)
    expected = [30_000 + 1000 * index // 6 for index in range(6)] + [MINUTE_MS * index // 294 for index in range(294)]
    assert first_minute == sorted(expected)
    # the 300 keys of minute 90 all fall in one second: so do the rebuilt ones (twice as many in db 0)
    cliff = [when - START for when in rebuilt[0].expires if 90 * MINUTE_MS <= when - START < 91 * MINUTE_MS]
    assert len(cliff) == 600 and all(90 * MINUTE_MS + 30_000 <= left < 90 * MINUTE_MS + 31_000 for left in cliff)
    assert set(rebuilt[0].sizes) == {100}
    third_day = [when for when in rebuilt[0].expires if 72 * HOUR_MS <= when - START < 73 * HOUR_MS]
    assert len(third_day) == 200  # the hours past the first day, at the database's scale
    assert sum(when - START >= TIMELINE_HOURS * HOUR_MS for when in rebuilt[0].expires) == 20  # later


def test_a_cluster_is_one_masters_share_with_a_masters_maxmemory() -> None:
    document = report([60_000] * 900, volatile={"0": 900}, role="cluster", maxmemory=None)
    document["shards"] = [{"maxmemory": 1 << 30}, {"maxmemory": 1 << 30}, {"maxmemory": 2 << 30}]
    profile = profile_of(document, "r.json")
    assert profile.masters == 3 and profile.volatile == ((0, 300),) and profile.maxmemory == 1 << 30
    assert [note.code for note in profile.notes] == ["simulation-one-master"]


def test_a_sampled_scan_without_server_counts_is_scaled_by_its_rate() -> None:
    document = report([60_000] * 50)
    document["keyspace"]["sampling"] = {"rate": 0.01}
    profile = profile_of(document, "r.json")
    assert profile.volatile == ((0, 5000),)
    assert [note.code for note in profile.notes] == ["simulation-volatile-assumed"]
    assert len(rebuilt_keys(profile)[0].expires) == 5000


@pytest.mark.parametrize(
    ("config", "clients", "hz"),
    [
        ({"hz": "10", "dynamic-hz": "yes"}, 1_000, 10),
        ({"hz": "10", "dynamic-hz": "yes"}, 2_009, 10),  # integer division: 200 clients per tick is not more
        ({"hz": "10", "dynamic-hz": "yes"}, 2_010, 20),  # serverCron: doubled while clients / hz > 200
        ({"hz": "10", "dynamic-hz": "yes"}, 9_000, 80),
        ({"hz": "10", "dynamic-hz": "no"}, 9_000, 10),
        ({"hz": "100", "dynamic-hz": "yes"}, 10_000_000, 500),
        ({}, 9_000, None),
    ],
)
def test_dynamic_hz_raises_hz_with_the_clients(config: dict[str, str], clients: int, hz: int | None) -> None:
    profile = profile_of(report([1000], expire_config=config, connected_clients=clients), "r.json")
    assert profile.hz() == hz


def test_a_rebuilt_keyspace_predicts_what_its_keys_do() -> None:
    """The timeline loses where in its minute a key expires, not how many expire when: the rebuilt keys'
    expired-but-unreclaimed count follows the true keys' at every 10 minutes of two hours."""
    rng = random.Random(7)
    expiries = [rng.randrange(0, 2 * HOUR_MS) for _ in range(30_000)] + [45 * MINUTE_MS + 500] * 5_000
    truth = VolatileKeys(0, [START + left for left in expiries], [100] * len(expiries))
    profile = profile_of(report(expiries), "r.json")
    settings = ExpirySettings()
    exact = simulate_expiry([truth], START, 7200, 600, settings).series
    rebuilt = simulate_expiry(rebuilt_keys(profile), START, 7200, 600, settings).series
    for real, model in zip(exact, rebuilt, strict=True):
        assert real.t == model.t
        assert abs(real.expired_in_memory - model.expired_in_memory) <= max(0.05 * real.expired_in_memory, 50)
        assert abs(real.reclaimed - model.reclaimed) <= max(0.05 * real.reclaimed, 50)


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"{not json", "r.json is not JSON"),
        (b'{"schema": "sarif"}', 'r.json is not a rediscipline JSON report (no "schema": "rediscipline.report")'),
        (b"[1, 2]", "is not a rediscipline JSON report"),
        (b'{"schema": "rediscipline.report", "server": null, "keyspace": null}', "is not the report of a scan"),
        (
            b'{"schema": "rediscipline.report", "server": {}, "keyspace": {"expiry": null}}',
            "has no expiry timeline (keyspace.expiry)",
        ),
        (
            b'{"schema": "rediscipline.report", "server": {}, "keyspace": {"expiry": {"per_minute": [1]}}}',
            "keyspace.expiry.per_minute must be a list of 1440 whole numbers",
        ),
    ],
)
def test_unreadable_reports_are_one_line(tmp_path: Path, content: bytes, error: str) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(SourceError) as raised:
        profile_of(read_report(str(path)), str(path))
    assert error in str(raised.value) and "\n" not in str(raised.value)


def test_hostile_field_types_name_the_field(tmp_path: Path) -> None:
    document = report([1000], volatile={"zero": 5})
    with pytest.raises(SourceError, match=r"server\.volatile must map database numbers"):
        profile_of(document, "r.json")
    document = report([1000], volatile={"0": -5})
    with pytest.raises(SourceError, match=r"server\.volatile\.0 must be a whole number"):
        profile_of(document, "r.json")
    document = report([1000])
    document["keyspace"]["expiry"]["later"] = "many"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document))
    with pytest.raises(SourceError, match=r"keyspace\.expiry\.later must be a whole number"):
        profile_of(read_report(str(path)), str(path))
