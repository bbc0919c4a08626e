"""Keys with a TTL followed through the server's active expire cycle: the source of
`rediscipline simulate expiry`.

Its input is one of three:
* dumps: each dump's keys with an expiry (`sources.rdb`: database, when it expires, its memory as the dump's
  memory model estimates it), simulated from the dump's creation time;
* a scan's or a dump's JSON report (`--format json`), or a live server, which `api.simulate` scans into such
  a report first: the keys are rebuilt from its expiry timeline (`expiry_profile`), simulated from the scan's
  start, with the server's `hz`, `dynamic-hz`, `active-expire-effort`, `lazyfree-lazy-expire` and maxmemory
  when the report has them.
Every setting given on the command line wins over the source's. `--jitter 'session:*=10%'` spreads the TTLs
of the keys matching a pattern by a random share of themselves (each grows by up to 10 %); a report has no key
names, so there the share of the keys its matching patterns hold is spread. The model (`simulate.expiry`) is
the cycle of the server's version (`algorithm_for`). It yields one `ExpirySimulation`; a source without any
key with a TTL gives a simulation with no series (nothing expires) and a note, not a chart of zeros.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rediscipline.model.glob import GlobMatcher
from rediscipline.model.location import SOURCE_SIMULATION, Location
from rediscipline.model.note import Note, note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.simulation import ExpirySettingsView, ExpirySimulation, ExpiryStep
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.simulate.expiry import ExpirySettings, VolatileKeys, algorithm_for, simulate_expiry
from rediscipline.sources.errors import SourceError
from rediscipline.sources.rdb.source import DumpOptions, DumpSummary, dump_paths, read_dump
from rediscipline.sources.simulation.expiry_profile import (
    KeyspaceProfile,
    file_time_ms,
    jittered_share,
    profile_of,
    read_report,
    rebuilt_keys,
)

#: The span simulated and the step of the series when none is asked (seconds).
DEFAULT_SECONDS = 3600.0
DEFAULT_STEP = 60.0
#: The most points a database's series holds (the step is widened to fit).
MAX_POINTS = 1_000
#: The server's defaults, for a source that does not say (a dump, a report without CONFIG).
DEFAULT_HZ = 10
DEFAULT_EFFORT = 1
#: What deleting one key costs the model when not told (`ExpirySettings`).
DEFAULT_DELETE_US = ExpirySettings().delete_us


@dataclass(frozen=True, slots=True)
class ExpiryOptions:
    """`inputs`: dumps, or one JSON report; `report`: a live scan's report (`report_to_dict`), `inputs` then
    naming its server. `hz`, `effort`, `lazyfree`, `maxmemory`: None takes the source's (or the default)."""

    inputs: tuple[str, ...]
    seconds: float = DEFAULT_SECONDS
    step: float = DEFAULT_STEP
    hz: int | None = None
    effort: int | None = None
    lazyfree: bool | None = None
    maxmemory: int | None = None
    delete_us: float = DEFAULT_DELETE_US
    seed: int = 0
    jitter: tuple[tuple[str, float], ...] = ()  # (glob on key names, share of the TTL added at most)
    report: Mapping[str, Any] | None = None


@dataclass(slots=True)
class _Keyspace:
    """The keys with a TTL of the source, when they count from, and what the source says of its server."""

    keys: list[VolatileKeys]
    start_ms: int
    keys_read: int
    flavor: str = "redis"
    version: str = ""
    profile: KeyspaceProfile | None = None


def is_report(inputs: Sequence[str]) -> bool:
    """Whether `inputs` name one JSON report rather than dumps."""
    return len(inputs) == 1 and inputs[0].lower().endswith(".json")


class ExpirySource:
    """The keys with a TTL of `options`' input, followed through the expire cycle."""

    place = SOURCE_SIMULATION
    counts_keys = False

    def __init__(self, options: ExpiryOptions) -> None:
        if not 0 < options.step <= options.seconds:
            raise SourceError(f"--step must be above 0 and at most --seconds, not {options.step:g}")
        self.options = options
        if options.report is not None or is_report(options.inputs):
            self.paths: list[str] = []
        else:
            self.paths = dump_paths(options.inputs)
        self.inputs = tuple(self.paths) or options.inputs
        self._outcome = SourceOutcome()

    def outcome(self) -> SourceOutcome:
        return self._outcome

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        del plan  # the simulation reads what it needs whatever the rules
        options = self.options
        notes: list[Note] = []
        keyspace = self._dumps() if self.paths else self._report(notes)
        profile = keyspace.profile
        config = profile.config if profile is not None else {}
        effort_text = config.get("active-expire-effort", "")
        settings = ExpirySettings(
            hz=options.hz or (profile.hz() if profile is not None else None) or DEFAULT_HZ,
            effort=options.effort or (int(effort_text) if effort_text.isdigit() else DEFAULT_EFFORT),
            lazyfree=options.lazyfree if options.lazyfree is not None else config.get("lazyfree-lazy-expire") == "yes",
            delete_us=options.delete_us,
            seed=options.seed,
            algorithm=algorithm_for(keyspace.flavor, keyspace.version),
        )
        if not 1 <= settings.effort <= 10:
            raise SourceError(f"active-expire-effort must be 1 to 10, not {settings.effort}")
        step = max(options.step, options.seconds / MAX_POINTS)
        view = ExpirySettingsView(
            hz=settings.hz,
            effort=settings.effort,
            lazyfree=settings.lazyfree,
            sample_us=settings.sample_us,
            delete_us=settings.delete_us,
            delete_us_per_kb=settings.delete_us_per_kb,
            seconds=options.seconds,
            step=step,
            jitter=options.jitter,
            seed=settings.seed,
            algorithm=settings.algorithm,
            sweep_per_second=settings.keys_per_loop * settings.hz,
        )
        maxmemory = options.maxmemory or (profile.maxmemory if profile is not None else None)
        origin = Location(SOURCE_SIMULATION, self.inputs[0])
        volatile = [keys for keys in keyspace.keys if len(keys.expires)]
        if not volatile:
            notes.append(note("simulation-no-volatile", keys=keyspace.keys_read))
            self._outcome = SourceOutcome(tuple(notes))
            yield ExpirySimulation(origin, keyspace.start_ms, view, maxmemory=maxmemory)
            return
        outcome = simulate_expiry(volatile, keyspace.start_ms, options.seconds, step, settings)
        steps = tuple(
            ExpiryStep(t, share, hits, longest)
            for (t, share), (_t, hits), (_t2, longest) in zip(
                outcome.cpu_share, outcome.time_limit_hits, outcome.longest_cycle_us, strict=True
            )
        )
        counted = tuple((keys.db, len(keys.expires), sum(keys.sizes)) for keys in volatile)
        self._outcome = SourceOutcome(tuple(notes))
        yield ExpirySimulation(
            origin, keyspace.start_ms, view, counted, tuple(outcome.series), steps, maxmemory=maxmemory
        )

    def _report(self, notes: list[Note]) -> _Keyspace:
        """The keys rebuilt from a report: the live scan's, or the JSON file's."""
        options = self.options
        name = options.inputs[0]
        if options.report is not None:
            profile = profile_of(options.report, name)
        else:
            profile = profile_of(read_report(name), name, made_ms=file_time_ms(name))
        notes.extend(profile.notes)
        keys = rebuilt_keys(profile)
        if options.jitter and keys:
            rng = random.Random(options.seed)
            shares = [(jittered_share(profile, [pattern]), spread) for pattern, spread in options.jitter]
            notes.append(note("simulation-jitter-share", share=min(sum(share for share, _ in shares), 1.0)))
            keys = [_spread(database, profile.start_ms, shares, rng) for database in keys]
        return _Keyspace(keys, profile.start_ms, profile.timeline_keys, profile.flavor, profile.version, profile)

    def _dumps(self) -> _Keyspace:
        """The keys with a TTL of the dumps, from the newest dump's creation (or the first expiry)."""
        options = self.options
        expires: dict[int, list[int]] = {}
        sizes: dict[int, list[int]] = {}
        start_ms: int | None = None
        keys_read = 0
        jitter = [(GlobMatcher([pattern]), share) for pattern, share in options.jitter]
        rng = random.Random(options.seed)
        flavor, version = "redis", ""
        for path in self.paths:
            summary = DumpSummary(path)
            for fact in read_dump(path, DumpOptions(head=False), summary):
                keys_read += 1
                if fact.expire_at_ms is None:
                    continue
                db = fact.db or 0
                expires.setdefault(db, []).append(fact.expire_at_ms)
                sizes.setdefault(db, []).append(fact.memory or fact.value_bytes)
                if jitter:
                    self._jittered(fact.key, expires[db], jitter, rng, summary)
            if summary.ctime is not None:
                start_ms = max(start_ms or 0, summary.ctime * 1000)
            flavor, version = summary.flavor, summary.version
        if start_ms is None:  # a dump that does not say when it was made: from its first expiry
            start_ms = min((min(values) for values in expires.values()), default=0)
        keys = [VolatileKeys(db, expires[db], sizes[db]) for db in sorted(expires)]
        return _Keyspace(keys, start_ms, keys_read, flavor, version)

    @staticmethod
    def _jittered(
        key: bytes,
        expires: list[int],
        jitter: Sequence[tuple[GlobMatcher, float]],
        rng: random.Random,
        summary: DumpSummary,
    ) -> None:
        """Spread the TTL just added (the last of `expires`) when `key` matches a jitter's pattern: its time left
        from the dump's creation grows by a uniform share of itself, up to the pattern's."""
        for matcher, share in jitter:
            if matcher.match(key) is not None:
                made = (summary.ctime or 0) * 1000
                left = expires[-1] - made
                if left > 0:
                    expires[-1] = made + round(left * (1 + rng.uniform(0, share)))
                return


def _spread(
    database: VolatileKeys, start_ms: int, shares: Sequence[tuple[float, float]], rng: random.Random
) -> VolatileKeys:
    """A rebuilt database with the TTLs of a random part spread: each key falls in a jitter's share with that
    share's probability (one jitter at most per key), and its time left grows by up to the jitter's spread."""
    spread = array("q")
    for when in database.expires:
        draw, moved = rng.random(), when
        for share, most in shares:
            if draw < share:
                left = when - start_ms
                if left > 0:
                    moved = start_ms + round(left * (1 + rng.uniform(0, most)))
                break
            draw -= share
        spread.append(moved)
    return VolatileKeys(database.db, spread, database.sizes)
