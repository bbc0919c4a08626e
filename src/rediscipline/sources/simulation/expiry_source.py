"""Dumps' keys with a TTL followed through the server's active expire cycle: the source of
`rediscipline simulate expiry`.

It reads each dump (`sources.rdb`), keeps every key with an expiry (its database, when it expires, its memory
as the dump's memory model estimates it), optionally spreads the TTLs of the keys matching a pattern by a random
share of themselves (`--jitter 'session:*=10%'`: each such TTL grows by up to 10 %), and runs the expiry model
(`simulate.expiry`) from the dump's creation time. It yields one `ExpirySimulation`. A dump without any key
with a TTL gives a simulation with no series (nothing expires) and a note, not a chart of zeros.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from rediscipline.model.glob import GlobMatcher
from rediscipline.model.location import SOURCE_SIMULATION, Location
from rediscipline.model.note import note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.simulation import ExpirySettingsView, ExpirySimulation, ExpiryStep
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.simulate.expiry import ExpirySettings, VolatileKeys, simulate_expiry
from rediscipline.sources.errors import SourceError
from rediscipline.sources.rdb.source import DumpOptions, DumpSummary, dump_paths, read_dump

#: The span simulated and the step of the series when none is asked (seconds).
DEFAULT_SECONDS = 3600.0
DEFAULT_STEP = 60.0
#: The most points a database's series holds (the step is widened to fit).
MAX_POINTS = 1_000


@dataclass(frozen=True, slots=True)
class ExpiryOptions:
    inputs: tuple[str, ...]
    seconds: float = DEFAULT_SECONDS
    step: float = DEFAULT_STEP
    settings: ExpirySettings = field(default_factory=ExpirySettings)
    jitter: tuple[tuple[str, float], ...] = ()  # (glob on key names, share of the TTL added at most)


class ExpirySource:
    """The dumps of `options.inputs`, their keys with a TTL followed through the expire cycle."""

    place = SOURCE_SIMULATION
    counts_keys = False

    def __init__(self, options: ExpiryOptions) -> None:
        if not 0 < options.step <= options.seconds:
            raise SourceError(f"--step must be above 0 and at most --seconds, not {options.step:g}")
        self.options = options
        self.paths = dump_paths(options.inputs)
        self.inputs = tuple(self.paths)
        self._outcome = SourceOutcome()

    def outcome(self) -> SourceOutcome:
        return self._outcome

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        del plan  # the simulation reads what it needs whatever the rules
        options = self.options
        expires: dict[int, list[int]] = {}
        sizes: dict[int, list[int]] = {}
        start_ms: int | None = None
        keys_read = 0
        jitter = [(GlobMatcher([pattern]), share) for pattern, share in options.jitter]
        rng = random.Random(options.settings.seed)
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
        if start_ms is None:  # a dump that does not say when it was made: from its first expiry
            start_ms = min((min(values) for values in expires.values()), default=0)
        step = max(options.step, options.seconds / MAX_POINTS)
        view = ExpirySettingsView(
            hz=options.settings.hz,
            effort=options.settings.effort,
            lazyfree=options.settings.lazyfree,
            sample_us=options.settings.sample_us,
            delete_us=options.settings.delete_us,
            delete_us_per_kb=options.settings.delete_us_per_kb,
            seconds=options.seconds,
            step=step,
            jitter=options.jitter,
            seed=options.settings.seed,
        )
        origin = Location(SOURCE_SIMULATION, self.inputs[0])
        if not expires:
            self._outcome = SourceOutcome((note("simulation-no-volatile", keys=keys_read),))
            yield ExpirySimulation(origin, start_ms, view)
            return
        volatile = [VolatileKeys(db, expires[db], sizes[db]) for db in sorted(expires)]
        outcome = simulate_expiry(volatile, start_ms, options.seconds, step, options.settings)
        steps = tuple(
            ExpiryStep(t, share, hits, longest)
            for (t, share), (_t, hits), (_t2, longest) in zip(
                outcome.cpu_share, outcome.time_limit_hits, outcome.longest_cycle_us, strict=True
            )
        )
        counted = tuple((keys.db, len(keys.expires), sum(keys.sizes)) for keys in volatile)
        yield ExpirySimulation(origin, start_ms, view, counted, tuple(outcome.series), steps)

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
