"""A scan's or a dump's JSON report read as the expiry simulator's input: what it says about the keys with a
TTL, and the keys rebuilt from it.

A report does not list the keys; it has the expiry timeline (`keyspace.expiry`: the keys with a TTL counted
per minute of the next 24 hours and per hour of the next 30 days, from the moment the scan read them), the
memory of those keys (`keyspace.memory_with_ttl`), how the scan sampled (`keyspace.sampling.rate`), and the
server's own counts and settings (`server.volatile`, `server.expire_config`, `server.maxmemory`,
`server.started_ms`, `connected_clients`; `docs/json-report.md`). From these the keys are rebuilt: each
database's share of the keys with a TTL (INFO keyspace's `expires`, or all in one database when the report
does not say; the timeline is the server's, so each database gets that share of every minute), spread evenly
within each minute or hour of the timeline, except a minute's busiest second (`peak_second`), whose keys are
put in one second: a cliff of keys due in the same second makes the expire cycle's loops repeat to their time
limit, the same keys spread over the minute do not. Each key has the average memory of a key with a TTL. A
whole cluster is one master's share: the cycle runs on each master over its own keys.

Where the report is silent the simulation says what it assumed (`notes`), and a report without a timeline
(not a scan or a dump, or TTLs not read) is refused with what to run instead.
"""

from __future__ import annotations

import json
import os
import statistics
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rediscipline.model.glob import GlobMatcher
from rediscipline.model.keyspace import HOUR_MS, MINUTE_MS, TIMELINE_HOURS, TIMELINE_MINUTES
from rediscipline.model.note import Note, note
from rediscipline.simulate.expiry import VolatileKeys
from rediscipline.sources.errors import SourceError

#: The report's schema (render.json_output), the only JSON this reads.
SCHEMA = "rediscipline.report"
#: Keys due 30 days or more ahead (`later`) are placed over the 30 days after the timeline's end: no
#: simulation is that long (`--seconds` is at most 30 days), so only their count and memory matter.
LATER_SPAN_MS = TIMELINE_HOURS * HOUR_MS
#: `MAX_CLIENTS_PER_CLOCK_TICK` and `CONFIG_MAX_HZ` (server.h): with dynamic-hz, hz doubles while there are
#: more clients than this per tick, up to the maximum.
CLIENTS_PER_TICK = 200
MAX_HZ = 500


@dataclass(frozen=True, slots=True)
class KeyspaceProfile:
    """What a report says about its keys with a TTL (for one master of a cluster: `masters` > 1)."""

    name: str
    start_ms: int
    volatile: tuple[tuple[int, int], ...]  # (db, keys with a TTL), one master's
    per_minute: tuple[int, ...]
    peak_second: tuple[int, ...]  # per minute, the most keys due in one of its seconds (empty: not recorded)
    per_hour: tuple[int, ...]
    later: int
    timeline_keys: int  # the keys the timeline counted (a sample's when sampled)
    mean_bytes: float | None  # memory of a key with a TTL on average; None when the scan measured none
    maxmemory: int | None
    flavor: str
    version: str
    config: Mapping[str, str]
    clients: int | None
    masters: int
    #: (pattern, keys with a TTL) of the report's patterns: what `--jitter` globs are matched against
    patterns: tuple[tuple[str, int], ...] = ()
    notes: tuple[Note, ...] = field(default=())

    def setting(self, name: str) -> str | None:
        return self.config.get(name)

    def hz(self) -> int | None:
        """The server's hz as its cron runs it: `hz`, doubled while it has more than 200 clients per tick when
        `dynamic-hz` is on (`serverCron`); None when CONFIG was not read."""
        text = self.setting("hz")
        if text is None or not text.isdigit():
            return None
        hz = max(int(text), 1)
        if self.setting("dynamic-hz") == "yes" and self.clients:
            while self.clients // hz > CLIENTS_PER_TICK:
                hz *= 2
                if hz > MAX_HZ:
                    return MAX_HZ
        return hz


def read_report(path: str) -> Mapping[str, Any]:
    """The JSON document of `path`, refused in one line when it is not JSON or not a rediscipline report."""
    try:
        with open(path, "rb") as file:
            document = json.load(file)
    except OSError as error:
        raise SourceError(f"cannot read {path}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise SourceError(f"{path} is not JSON: {str(error)[:200]}") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise SourceError(f'{path} is not a rediscipline JSON report (no "schema": "{SCHEMA}")')
    return document


def profile_of(document: Mapping[str, Any], name: str, *, made_ms: int | None = None) -> KeyspaceProfile:
    """The profile of a report (`read_report`, or a live scan's `report_to_dict`); `made_ms`: when the file
    was written, the start when the report does not say when its scan began."""
    fields = _Fields(document, name)
    server = fields.object("server", required=False)
    keyspace = fields.object("keyspace", required=False)
    if server is None or keyspace is None:
        raise SourceError(
            f"{name} is not the report of a scan or a dump (no server or keyspace): write one with "
            "`rediscipline scan URL|DUMP --format json`"
        )
    expiry = fields.object("keyspace.expiry", required=False)
    if expiry is None:
        raise SourceError(
            f"{name} has no expiry timeline (keyspace.expiry): its scan did not read TTLs; write the report "
            "with `rediscipline scan URL --format json` (TTLs are read for the keyspace summary)"
        )
    notes: list[Note] = []
    per_minute = fields.counts("keyspace.expiry.per_minute", TIMELINE_MINUTES)
    peak_second = (
        fields.counts("keyspace.expiry.peak_second", TIMELINE_MINUTES)
        if fields.present("keyspace.expiry.peak_second")
        else ()
    )
    per_hour = fields.counts("keyspace.expiry.per_hour", TIMELINE_HOURS)
    later = fields.count("keyspace.expiry.later")
    timeline_keys = sum(per_hour) + later
    rate = fields.number("keyspace.sampling.rate") if fields.object("keyspace.sampling", required=False) else None
    masters = len(fields.sequence("shards")) if server.get("role") == "cluster" and document.get("shards") else 1
    volatile: dict[int, int] = {}
    for db in fields.object("server.volatile") or {}:
        if not db.isdigit():
            raise SourceError(f"{name}: server.volatile must map database numbers to keys, not {db[:40]!r}")
        volatile[int(db)] = fields.count(f"server.volatile.{db}")
    if not volatile or not sum(volatile.values()):
        estimated = round(timeline_keys / rate) if rate else timeline_keys
        volatile = {0: estimated}
        if timeline_keys:
            notes.append(note("simulation-volatile-assumed", keys=estimated))
    if masters > 1:
        volatile = {db: -(-keys // masters) for db, keys in volatile.items()}
        notes.append(note("simulation-one-master", masters=masters))
    with_ttl = fields.count_or_none("keyspace.with_ttl")
    memory = fields.count_or_none("keyspace.memory_with_ttl")
    mean_bytes = memory / with_ttl if memory is not None and with_ttl else None
    if mean_bytes is None and timeline_keys:
        notes.append(note("simulation-memory-unknown"))
    started = fields.count_or_none("server.started_ms")
    maxmemory = fields.count_or_none("server.maxmemory")
    if masters > 1 and not maxmemory:
        limits = [shard.get("maxmemory") for shard in fields.sequence("shards")]
        known = [limit for limit in limits if isinstance(limit, int) and limit > 0]
        maxmemory = int(statistics.median(known)) if known else None
    config = fields.object("server.expire_config") or {}
    patterns = fields.object("patterns", required=False) or {}
    return KeyspaceProfile(
        name=name,
        start_ms=started if started is not None else made_ms or 0,
        volatile=tuple(sorted(volatile.items())),
        per_minute=per_minute,
        peak_second=peak_second,
        per_hour=per_hour,
        later=later,
        timeline_keys=timeline_keys,
        mean_bytes=mean_bytes,
        maxmemory=maxmemory or None,
        flavor=str(server.get("flavor") or "redis"),
        version=str(server.get("version") or ""),
        config={str(key): str(value) for key, value in config.items()},
        clients=fields.count_or_none("server.connected_clients"),
        masters=masters,
        patterns=tuple(
            (str(item["pattern"]), item["with_ttl"])
            for item in patterns.get("items") or ()
            if isinstance(item, dict) and isinstance(item.get("with_ttl"), int) and isinstance(item.get("pattern"), str)
        ),
        notes=tuple(notes),
    )


def file_time_ms(path: str) -> int | None:
    try:
        return int(os.stat(path).st_mtime * 1000)
    except OSError:
        return None


def rebuilt_keys(profile: KeyspaceProfile) -> list[VolatileKeys]:
    """Each database's keys with a TTL as the timeline spreads them: every minute's (hour's, past a day) keys
    evenly over it, scaled from the timeline's count to the database's, each with the average memory."""
    if not profile.timeline_keys:
        return []
    bins = list(_bins(profile))
    size = round(profile.mean_bytes or 0)
    rebuilt = []
    for db, keys in profile.volatile:
        scale = keys / profile.timeline_keys
        expires = array("q")
        counted = 0.0
        for start, width, count in bins:
            before = round(counted)
            counted += count * scale
            placed = round(counted) - before
            if placed:
                expires.extend(start + width * index // placed for index in range(placed))
        if expires:
            rebuilt.append(VolatileKeys(db, expires, array("q", [size]) * len(expires)))
    return rebuilt


def jittered_share(profile: KeyspaceProfile, globs: Sequence[str]) -> float:
    """The share of the keys with a TTL in the report's patterns that `globs` match: a report has no key names,
    so `--jitter` spreads this share of the rebuilt keys (drawn at random)."""
    total = sum(keys for _pattern, keys in profile.patterns)
    if not total:
        return 0.0
    matcher = GlobMatcher(list(globs))
    matched = sum(keys for pattern, keys in profile.patterns if matcher.match(pattern.encode("utf-8")) is not None)
    return matched / total


def _bins(profile: KeyspaceProfile) -> Iterator[tuple[int, int, int]]:
    """(start in Unix ms, width in ms, keys) of every non-empty bin: the minutes of the first day (a minute's
    busiest second apart, in its middle: which second it was is not recorded), then the hours after it (the
    hours of the first day repeat its minutes), then the keys due later."""
    for minute, count in enumerate(profile.per_minute):
        if not count:
            continue
        start = profile.start_ms + minute * MINUTE_MS
        peak = min(profile.peak_second[minute], count) if profile.peak_second else 0
        if peak > 1:
            yield start + MINUTE_MS // 2, 1000, peak
        else:
            peak = 0
        if count > peak:
            yield start, MINUTE_MS, count - peak
    for hour in range(TIMELINE_MINUTES // 60, len(profile.per_hour)):
        if profile.per_hour[hour]:
            yield profile.start_ms + hour * HOUR_MS, HOUR_MS, profile.per_hour[hour]
    if profile.later:
        yield profile.start_ms + TIMELINE_HOURS * HOUR_MS, LATER_SPAN_MS, profile.later


class _Fields:
    """Typed reads of a report's fields by dotted path, each refusal one line naming the file and the field."""

    def __init__(self, document: Mapping[str, Any], name: str) -> None:
        self.document = document
        self.name = name

    def _get(self, path: str) -> Any:
        value: Any = self.document
        for part in path.split("."):
            if not isinstance(value, dict):
                return None
            value = value.get(part)
        return value

    def present(self, path: str) -> bool:
        return self._get(path) is not None

    def _bad(self, path: str, expected: str) -> SourceError:
        return SourceError(f"{self.name}: {path} must be {expected}")

    def object(self, path: str, *, required: bool = False) -> dict[str, Any] | None:
        value = self._get(path)
        if value is None and not required:
            return None
        if not isinstance(value, dict):
            raise self._bad(path, "an object")
        return value

    def sequence(self, path: str) -> list[Any]:
        value = self._get(path)
        if not isinstance(value, list):
            raise self._bad(path, "a list")
        return value

    def count(self, path: str) -> int:
        value = self._get(path)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self._bad(path, "a whole number, 0 or more")
        return value

    def count_or_none(self, path: str) -> int | None:
        return None if self._get(path) is None else self.count(path)

    def number(self, path: str) -> float:
        value = self._get(path)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= 1:
            raise self._bad(path, "a number in (0, 1]")
        return float(value)

    def counts(self, path: str, length: int) -> tuple[int, ...]:
        values = self.sequence(path)
        if len(values) != length or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
            raise self._bad(path, f"a list of {length} whole numbers, 0 or more")
        return tuple(values)
