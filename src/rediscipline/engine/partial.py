"""What the engine accumulated over one part of a run, as a value that merges with another part's.

A run whose input comes in parts (the dumps of `scan a.rdb b.rdb`; the nodes of a cluster or a fleet) gives
each part its own engine, and merges what they hold before the report is built (`Engine.partial`,
`Engine.merge`, then `Engine.finish` once). Everything that depends on the keys seen lives here, each piece
with its own `merge`: the pattern table, the finding groups, the flagged-key counts, the keyspace statistics,
the unreadable-key tally and the aggregate rules' accumulators; besides them the key count, the servers not
yet judged and the suppression comments. What the engine keeps besides (rules, scopes, memos of verdicts) is
configuration and cache, the same for every part.

Merging is associative and commutative, and the partial of an engine that was fed nothing is its identity:
merged parts give the report one engine fed every part in order would give, while no part reached a bound
of a structure (the pattern table's soft cap, the namespace table, an accumulator's caps; each module says
which). What one pass keeps "first" (examples, a subject's origin) goes by the part's index, then by arrival
within the part, whichever order the merges run in. Parts of one run have distinct indexes; a partial is
spent once merged into another, and an engine whose partial was merged into another is fed nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.engine.cluster import SlotCollector
from rediscipline.engine.flagged import FlaggedKeys
from rediscipline.engine.groups import Groups
from rediscipline.engine.keyspace import KeyspaceCollector
from rediscipline.engine.patterns import PatternTable
from rediscipline.engine.unreadable import UnreadableTally
from rediscipline.model.cluster import ClusterView
from rediscipline.model.code import FileDirectives
from rediscipline.model.server import ServerFact
from rediscipline.model.simulation import EvictionSimulation, ExpirySimulation
from rediscipline.model.traffic import TrafficView
from rediscipline.rules.base import Accumulator


@dataclass(slots=True)
class Partial:
    """The mergeable state of an engine (see the module docstring); `Engine.partial` hands out its own.

    `servers` are the servers whose instance rules run at the end (with the merged keyspace), by part;
    `judged` the findings of servers judged before (a config file replaced by another); `started` the
    `time.perf_counter()` the earliest engine started at; `slots` the keys per hash slot and hashtag of
    parts that are a cluster's shards; `cluster` the cluster they are the shards of, once a part was told;
    `views` the views judged at the end (traffic windows observed, simulations), by part.
    """

    part: int
    keys: int
    patterns: PatternTable
    groups: Groups
    flagged: FlaggedKeys
    keyspace: KeyspaceCollector
    unreadable: UnreadableTally
    accumulators: dict[str, Accumulator]
    servers: tuple[tuple[int, ServerFact], ...]
    judged: Groups
    directives: tuple[FileDirectives, ...]
    started: float
    slots: SlotCollector | None = None
    cluster: ClusterView | None = None
    views: tuple[tuple[int, TrafficView | EvictionSimulation | ExpirySimulation], ...] = ()

    def merge(self, other: Partial) -> None:
        """Fold `other`, the partial of another part of the same run (same rules and settings), into this one.

        `other` is spent: its structures may now be shared with this one.
        """
        self.keys += other.keys
        self.patterns.merge(other.patterns)  # first: the others resolve patterns through it
        self.groups.merge(other.groups)
        self.flagged.merge(other.flagged)
        self.keyspace.merge(other.keyspace)
        self.unreadable.merge(other.unreadable)
        for rule_id, theirs in other.accumulators.items():
            mine = self.accumulators.get(rule_id)
            if mine is None:
                self.accumulators[rule_id] = theirs
            else:
                mine.merge(theirs)
        self.servers = tuple(sorted((*self.servers, *other.servers), key=lambda item: item[0]))
        self.judged.merge(other.judged)
        self.directives = tuple(sorted((*self.directives, *other.directives), key=lambda file: file.path))
        self.part = min(self.part, other.part)
        self.started = min(self.started, other.started)
        if self.slots is None:
            self.slots = other.slots
        elif other.slots is not None:
            self.slots.merge(other.slots)
        self.cluster = self.cluster or other.cluster
        self.views = tuple(sorted((*self.views, *other.views), key=lambda item: item[0]))
