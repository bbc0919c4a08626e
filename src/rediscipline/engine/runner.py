"""Run configured rules over the facts of every source, memoising name rules per template, and build the findings.

Facts arrive through one entry, `consume`, which hands each kind to its path. The per-key path (`feed_name`,
run for every name of a `KeyNames` batch) is the hot loop of `rediscipline keys` on 40 M names: one regex
split to get the template, one dict lookup in the memo of rule results, one pattern count, and a counter bump
per violation. Rules run only on a memo miss, once per distinct (template, type, scope).

The result (`finish`) is frozen. Suppression comments are not judged during the pass: the suppression step
runs on the finished findings, and hands what it left unused back to `judge_suppressions`.

An engine works on one part of a run (`part`: a dump, a node; the whole run when it has one part). What it
accumulated is a mergeable value (`partial`, `engine.partial.Partial`): the engines of a run's parts each
consume their part's facts, one of them merges the others' partials (`merge`) and finishes, which gives the
report one engine fed every part in order would give.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from rediscipline import compiled
from rediscipline.engine.cluster import SlotCollector
from rediscipline.engine.flagged import FlaggedKeys
from rediscipline.engine.groups import AFTER_EVERY_KEY, Group, Groups, ResolvedViolation, resolve
from rediscipline.engine.keyspace import KeyspaceCollector, count_estimate
from rediscipline.engine.libraries import LibraryPolicy, exempt
from rediscipline.engine.overlaps import settle
from rediscipline.engine.patterns import PatternTable
from rediscipline.engine.plan import plan_for
from rediscipline.engine.scopes import Scope, Scopes
from rediscipline.engine.score import score
from rediscipline.engine.suppressions import suppression_findings
from rediscipline.engine.unreadable import UnreadableTally
from rediscipline.engine.views import judge_view
from rediscipline.model.cluster import ClusterView
from rediscipline.model.code import CodeCall, FileDirectives, UnusedSuppression
from rediscipline.model.facts import CommandFact, KeyFact, KeyNames, KeySample, UnreadableKey, Vanished
from rediscipline.model.finding import Finding, Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import (
    DATE_PREFIXES,
    DEFAULT_PATTERN_CAP,
    DIGITS_TO_ZERO,
    HEX_TO_ZERO,
    Check,
    hex_checks,
    hex_matches,
    infer_parts,
    skeleton_offsets,
)
from rediscipline.model.location import SOURCE_CONFIG, SOURCE_KEYS, SOURCE_LIVE, SOURCE_TRAFFIC, Location
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import RuleMeta, Stats, UnreadableKeys
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.simulation import EvictionSimulation, ExpirySimulation
from rediscipline.model.traffic import TrafficView
from rediscipline.redis_meta.libraries import KeyFamily
from rediscipline.rules.base import (
    Accumulator,
    AggregateResult,
    AggregateRule,
    CallRule,
    CommandRule,
    ConfiguredRule,
    FactRule,
    InstanceRule,
    NameRule,
    RuleContext,
    SuppressionRule,
)
from rediscipline.rules.gate import CompiledGate

if TYPE_CHECKING:
    from rediscipline.engine.partial import Partial

#: The compiled twin of `consume` and `feed` (see `rediscipline.compiled`).
KERNEL = "rediscipline.engine._kernel"
MEMO_LIMIT = 200_000
#: Resolved forms of the violations fact rules returned, by identity (most are shared: see `feed`).
RESOLVED_LIMIT = 4_096
#: KeyFact fields a names-only source (a key list) can provide: aggregates needing more are not fed names.
NAME_FIELDS = frozenset({"type"})
#: Probed keys the keyspace summary reads to learn which fields the source fills (it fills the same for all).
FIELD_KEYS = 64


@dataclass(slots=True)
class NameVerdict:
    """What is known of every key with one template, type and scope: evaluated once, then memoised."""

    pattern: bytes
    violations: tuple[ResolvedViolation, ...]
    flags: bool  # some violation is a warning or worse: the key counts as flagged
    accumulators: tuple[Accumulator, ...]  # aggregates that want this key's facts
    #: the same, each with its compiled gate (None: every key) and its `add` (the compiled twin's, when it has
    #: one), for the compiled core
    gated_accumulators: tuple[tuple[Accumulator, CompiledGate | None, Callable[[KeyFact, bytes], None]], ...]
    name_accumulators: tuple[Accumulator, ...]  # the subset that needs nothing but the name and type
    template: KeyTemplate
    scope: Scope
    #: the scope's fact rules for this key type: (bound check, rule, context, compiled gate or None, uniform)
    fact_checks: tuple[tuple[Any, ConfiguredRule, RuleContext[Any], CompiledGate | None, bool], ...]
    #: the groups its violations were last counted in, with that pattern (see Engine._count_name_violations)
    groups: tuple[bytes, list[Group]] | None = None
    #: the compiled core's verdicts of `uniform` fact rules for this template, by index in `fact_checks`
    uniform: dict[int, ResolvedViolation | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EngineResult:
    """What one pass found: findings in report order, statistics, and what the suppression step needs.

    `directives` are the suppression comments the sources gave (one entry per file); `unreadable` the keys a
    scan listed but could not read, with their patterns.
    """

    findings: tuple[Finding, ...]
    stats: Stats
    plan: ProbePlan
    directives: tuple[FileDirectives, ...] = ()
    unreadable: UnreadableKeys | None = None


class Engine:
    def __init__(
        self,
        rules: Sequence[ConfiguredRule],
        namespaces: Sequence[NamespacePolicy] = (),
        key_ignores: Mapping[str, frozenset[str]] | None = None,
        *,
        pattern_cap: int = DEFAULT_PATTERN_CAP,
        examples: int = 3,
        summary: bool = False,
        catalog: Mapping[str, RuleMeta] | None = None,
        enabled: frozenset[str] | None = None,
        part: int = 0,
        libraries: LibraryPolicy | None = None,
        cluster: bool = False,
    ) -> None:
        """`summary`: the full keyspace summary is asked for (its fields join the plan); `catalog` and
        `enabled`: every known rule and the ids enabled in the run (default: these rules), for SUP001;
        `part`: the index of the part of the run this engine is fed (see the module docstring);
        `libraries`: the library catalog and how keys of a library's format are judged (None: not at all);
        `cluster`: the part is a shard of a cluster: its keys are counted per hash slot and hashtag."""
        self.part = part
        self._libraries = libraries
        self.rules = list(rules)
        self.plan = plan_for((r.rule for r in self.rules), summary=summary)
        catalog = catalog if catalog is not None else {r.id: r.rule.meta for r in rules}
        enabled = enabled if enabled is not None else frozenset(r.id for r in self.rules)
        self.namespaces = tuple(namespaces)
        scopes = Scopes(self.rules, self.namespaces, dict(key_ignores or {}), catalog, enabled, part=part)
        self._scopes = scopes
        self._scoped, self._scope_of, self._scope, self._context = scopes.scoped, scopes.of, scopes.get, scopes.context
        self._accumulators = scopes.accumulators
        self._memo: dict[Any, tuple[NameVerdict, tuple[int, ...] | None]] = {}
        self._fast: dict[bytes | tuple[bytes, str], tuple[NameVerdict, tuple[int, ...]]] = {}
        self._hex_fast: dict[tuple[bytes, str | None], tuple[NameVerdict, tuple[Check, ...]]] = {}
        self._resolved: dict[int, tuple[Violation, RuleContext[Any], ResolvedViolation]] = {}
        self.patterns = PatternTable(pattern_cap)
        self.groups = Groups(examples, part)
        self.keys = 0  # also the arrival number of the latest key, which ranks examples (`groups`)
        self.flagged = FlaggedKeys(self.patterns.canonical)
        self.server: ServerFact | None = None
        self._merged_servers: tuple[tuple[int, ServerFact], ...] = ()  # other parts' servers, judged at the end
        self._judged_servers = Groups(examples, part)  # findings of servers replaced by a later one (config files)
        self._directives: list[FileDirectives] = []
        self._unreadable = UnreadableTally()
        self.keyspace = KeyspaceCollector()
        self._fields_left = FIELD_KEYS
        self._origin = Location("keys")
        self._started = time.perf_counter()
        self._slots = SlotCollector() if cluster else None
        self._cluster: ClusterView | None = None
        self._views: tuple[tuple[int, TrafficView | EvictionSimulation | ExpirySimulation], ...] = ()

    # -- input -----------------------------------------------------------------------------------------

    def consume(self, facts: Iterable[Any]) -> None:
        """Judge every fact a source yields (`model.source.Fact`): the engine's one entry.

        With the compiled core, its twin of this loop and of `feed` runs instead (`engine._kernel`)."""
        kernel = compiled.load(KERNEL)
        if kernel is not None:
            kernel.consume(self, facts)
            return
        handlers: dict[type, Callable[[Any], Any]] = self._handlers()
        kind: type | None = None
        handler: Callable[[Any], Any] = self.feed
        for fact in facts:
            if fact.__class__ is not kind:  # a source yields long runs of one kind: look it up once per run
                kind = fact.__class__
                found = handlers.get(kind)
                if found is None:
                    found = handlers[kind] = self._handler_of(fact)
                handler = found
            handler(fact)

    def _handlers(self) -> dict[type, Callable[[Any], Any]]:
        return {
            KeyFact: self.feed,
            KeyNames: self.feed_names,
            UnreadableKey: self.feed_unreadable,
            Vanished: self.skip,
            KeySample: self.set_sample,
            CommandFact: self.feed_command,
            CodeCall: self.feed_call,
            ServerFact: self.set_server,
            ClusterView: self.set_cluster,
            TrafficView: self.add_view,
            EvictionSimulation: self.add_view,
            ExpirySimulation: self.add_view,
            FileDirectives: self._directives.append,
        }

    def _handler_of(self, fact: Any) -> Callable[[Any], Any]:
        """The path of a fact whose class is a subclass of a known one (a dump's `RdbKey` is a KeyFact)."""
        for kind, handler in self._handlers().items():
            if isinstance(fact, kind):
                return handler
        raise TypeError(f"not a fact: {type(fact).__name__}")

    def set_server(self, server: ServerFact) -> None:
        """Make the instance visible to rules (`ctx.server`); call before feeding its keys.

        A server that replaces another (several config files in one run) has the instance rules judge the
        one before it at once: its keys, if any, came before it.
        """
        if self.server is not None:
            self._judge_server(self.server, None, self._judged_servers)
        self.server = server
        self._scopes.set_server(server)
        self._memo.clear()
        self._fast.clear()
        self._hex_fast.clear()

    def set_cluster(self, view: ClusterView) -> None:
        """The cluster the run's parts are the shards of: its rules (CLU) judge it at the end, with the slots
        and hashtags the parts counted."""
        self._cluster = view

    def add_view(self, view: TrafficView | EvictionSimulation | ExpirySimulation) -> None:
        """A server's traffic over an observation window, or a simulation: their rules judge it at the end."""
        self._views += ((self.part, view),)

    def set_sample(self, sample: KeySample) -> None:
        self.set_sampling(sample.rate, sample.population)

    def set_sampling(self, rate: float, population: int) -> None:
        """Keys are a Bernoulli sample of rate `rate` of `population` keys: report estimates with CIs."""
        self.keyspace.set_sampling(rate, population)

    def skip(self, _vanished: Vanished | None = None) -> None:
        """Count a key that vanished or changed type between listing and probing."""
        self.keyspace.skipped += 1

    def begin_input(self, origin: Location) -> None:
        """Set where the following keys come from (file, server, dump); examples carry it."""
        self._origin = origin

    def _verdict(self, name: bytes, key_type: str | None) -> NameVerdict:
        """The memoised verdict of name rules for a concrete key.

        Keys whose ids are plain numbers are looked up by their skeleton (digits → 0), a C-speed translate
        plus one dict lookup; keys whose ids are hex digests and UUIDs by their hex skeleton (hex digits → 0)
        and a check of the bytes that could change the template (`keypattern.hex_checks`); other keys go
        through pattern inference and the template memo.
        """
        if self._scoped:
            return self._memoised((infer_parts(name), key_type, self._scope_of(name)))[0]
        skeleton = name.translate(DIGITS_TO_ZERO)
        fast_key = skeleton if key_type is None else (skeleton, key_type)  # no tuple for plain key lists
        fast = self._fast.get(fast_key)
        if fast is not None:
            verdict, date_offsets = fast
            for offset in date_offsets:
                if name[offset : offset + 2] in DATE_PREFIXES:
                    break  # may be a date: infer it properly
            else:
                return verdict
        hex_key = (name.translate(HEX_TO_ZERO), key_type)
        by_hex = self._hex_fast.get(hex_key)
        if by_hex is not None and hex_matches(name, by_hex[1]):
            return by_hex[0]
        parts = infer_parts(name)
        verdict, offsets = self._memoised((parts, key_type, None))
        if offsets is not None:
            if len(self._fast) >= MEMO_LIMIT:
                self._fast.clear()
            self._fast[fast_key] = (verdict, offsets)
        else:
            checks = hex_checks(name, parts)
            if checks is not None:
                if len(self._hex_fast) >= MEMO_LIMIT:
                    self._hex_fast.clear()
                self._hex_fast[hex_key] = (verdict, checks)
        return verdict

    def feed_name(self, name: bytes, line: int | None = None, key_type: str | None = None) -> bytes:
        """Check one concrete key name (the fast path: no fact object is built unless a rule needs one).

        Returns the pattern the key was counted under.
        """
        verdict = self._verdict(name, key_type)
        self.keys += 1
        recorded = self.patterns.add(verdict.pattern)
        violations = verdict.violations
        if violations:
            if verdict.flags:
                self.flagged.add(recorded)
            self._count_name_violations(verdict, recorded, name, self._origin, line)
        if verdict.name_accumulators:
            origin = self._origin
            if line is not None:
                origin = Location(origin.source, origin.path, line, None, origin.db)
            fact = KeyFact(name, origin, origin.db, key_type)
            for accumulator in verdict.name_accumulators:
                accumulator.add(fact, recorded)
        return recorded

    def feed_names(self, batch: KeyNames) -> None:
        """Check a batch of names from one input (a key list): `feed_name` for each, at its line."""
        self._origin = batch.origin
        feed = self.feed_name
        for name, line, key_type in batch.records:
            feed(name, line, key_type)

    def feed_unreadable(self, key: UnreadableKey) -> None:
        """A key the scanning user may not read: judged by its name, counted under its pattern."""
        before = self._origin
        self._origin = key.origin
        self._unreadable.add(self.feed_name(key.name))
        self._origin = before

    def feed(self, fact: KeyFact) -> None:
        """Check one fact: a concrete key with probed fields, or a template from code."""
        name = fact.name
        if not isinstance(name, bytes) and fact.origin.line is not None:
            self._feed_site_template(fact, name)
            return
        if isinstance(name, bytes):
            verdict = self._verdict(name, fact.type)
            example = name
        else:
            scope = self._scope_of(name.pattern) if self._scoped else None
            verdict = self._memoised((name.parts, fact.type, scope))[0]
            example = name.pattern
        self.keys += 1
        recorded = self.patterns.add(verdict.pattern)
        flagged = verdict.flags
        origin = fact.origin
        add = self.groups.add
        if verdict.violations:
            self._count_name_violations(verdict, recorded, example, origin, None)
        template = verdict.template
        for check, configured, ctx, _gate, _uniform in verdict.fact_checks:
            found = check(fact, template, ctx)
            if found is not None:
                resolved = self.resolve_found(configured, ctx, found)
                flagged = flagged or resolved.severity >= Severity.WARNING
                add(resolved, recorded, example, origin, self.keys)
        if flagged:
            self.flagged.add(recorded)
        for accumulator in verdict.accumulators:
            accumulator.add(fact, recorded)
        if isinstance(name, bytes) and (
            fact.type is not None or fact.ttl_ms is not None or fact.memory is not None or fact.length is not None
        ):
            if self._fields_left:  # which summary fields keys carry, from the first keys
                self._fields_left -= 1
                self.keyspace.note_fields(fact)
            self.keyspace.add(fact, verdict.scope.namespace, recorded)
        if self._slots is not None and isinstance(name, bytes):
            self._slots.add(name, fact.memory)

    def resolve_found(self, configured: ConfiguredRule, ctx: RuleContext[Any], found: Violation) -> ResolvedViolation:
        """The resolved form of a violation a fact rule returned. Rules hand out shared violations where they
        can (a constant, a memo): each is resolved once."""
        cached = self._resolved.get(id(found))
        if cached is not None and cached[0] is found and cached[1] is ctx:
            return cached[2]
        resolved = self._resolve_one(configured, ctx, found)
        if len(self._resolved) >= RESOLVED_LIMIT:
            self._resolved.clear()
        self._resolved[id(found)] = (found, ctx, resolved)  # holding `found` keeps its id unique
        return resolved

    def _count_name_violations(
        self, verdict: NameVerdict, recorded: bytes, example: bytes, origin: Location, line: int | None
    ) -> None:
        """Count one key against its template's memoised violations, through the groups it hit last time.

        Most keys of a template land in the same pattern as the one before, so the verdict keeps the groups
        of its last pattern and skips building a group key and a dict lookup per violation.
        """
        cached = verdict.groups
        if cached is None or cached[0] != recorded:
            groups = self.groups
            cached = verdict.groups = (recorded, [groups.group_for(v, recorded) for v in verdict.violations])
        limit, rank = self.groups.examples, self.keys
        for group, violation in zip(cached[1], verdict.violations, strict=True):
            group.count_key(violation, example, origin, line, limit, rank)

    def _feed_site_template(self, fact: KeyFact, name: KeyTemplate) -> None:
        """A key template at a place in code: its name violations become findings at that place."""
        scope = self._scope_of(name.pattern) if self._scoped else None
        verdict = self._memoised((name.parts, fact.type, scope))[0]
        self.keys += 1
        self.patterns.add(verdict.pattern)
        if verdict.violations:
            if verdict.flags:
                self.flagged.add(verdict.pattern)
            for resolved in verdict.violations:
                self.groups.add_site(resolved, fact.origin, verdict.pattern, None, rank=self.keys)

    def feed_command(self, fact: CommandFact) -> None:
        """Check one command (from commandstats, the slow log or code).

        A command at a place in a file (code) makes findings at that place; others are grouped by command.
        """
        # a window's calls (traffic) and the counts since the server started (a scan) are never summed
        evidence = f"{fact.evidence}@{SOURCE_TRAFFIC}" if fact.origin.source == SOURCE_TRAFFIC else fact.evidence
        subject, example = (fact.name, evidence), _command_line(fact)
        at_site = fact.origin.line is not None
        for resolved in self.judge_command(fact):
            if at_site:
                self.groups.add_site(resolved, fact.origin, None, fact.name, rank=self.keys)
            else:
                self.groups.add_subject(resolved, subject, fact.origin, example, fact.calls, rank=self.keys)

    def judge_command(self, fact: CommandFact) -> list[ResolvedViolation]:
        """The command rules' verdicts on one command, recorded nowhere (the caller places them)."""
        found: list[ResolvedViolation] = []
        for configured, ctx in self._scope(None).command_rules_for(fact.name):
            found.extend(self._resolve(configured, ctx, cast(CommandRule[Any], configured.rule).check(fact, ctx)))
        return found

    def judges_command(self, name: str) -> bool:
        """Whether some command rule of the default scope judges the command `name`."""
        return bool(self._scope(None).command_rules_for(name))

    def feed_call(self, call: CodeCall) -> None:
        """Check one call site in code with the call rules, in the scope of its first key's namespace."""
        pattern = call.keys[0].pattern if call.keys else None
        subject = call.command or call.method
        for resolved in self.judge_call(call):
            self.groups.add_site(resolved, call.origin, pattern, subject, rank=self.keys)

    def judge_call(self, call: CodeCall) -> list[ResolvedViolation]:
        """The call rules' verdicts on one call, in the scope of its first key's namespace, recorded nowhere."""
        pattern = call.keys[0].pattern if call.keys else None
        scope = self._scope_of(pattern) if self._scoped and pattern is not None else None
        found: list[ResolvedViolation] = []
        for configured, ctx in self._scope(scope).call_rules:
            found.extend(self._resolve(configured, ctx, cast(CallRule[Any], configured.rule).check(call, ctx)))
        return found

    def name_verdict(self, name: bytes, key_type: str | None = None) -> NameVerdict:
        """The memoised verdict of the name rules on a concrete key, and the fact checks of its scope and type
        (see `_verdict`); nothing is counted."""
        return self._verdict(name, key_type)

    def judge_fact(self, fact: KeyFact, verdict: NameVerdict) -> list[ResolvedViolation]:
        """The fact rules' verdicts on one key's observed fields (a value written, a TTL given), recorded
        nowhere; `verdict` is the key's `name_verdict` with the fact's type."""
        found: list[ResolvedViolation] = []
        template = verdict.template
        for check, configured, ctx, _gate, _uniform in verdict.fact_checks:
            violation = check(fact, template, ctx)
            if violation is not None:
                found.append(self._resolve_one(configured, ctx, violation))
        return found

    # -- evaluation ------------------------------------------------------------------------------------

    def _resolve(
        self, configured: ConfiguredRule, ctx: RuleContext[Any], violations: Iterable[Violation]
    ) -> Iterable[ResolvedViolation]:
        for v in violations:
            yield self._resolve_one(configured, ctx, v)

    _resolve_one = staticmethod(resolve)

    def _memoised(self, memo_key: Any) -> tuple[NameVerdict, tuple[int, ...] | None]:
        found = self._memo.get(memo_key)
        return found if found is not None else self._evaluate(memo_key)

    def _evaluate(self, memo_key: Any) -> tuple[NameVerdict, tuple[int, ...] | None]:
        parts, key_type, scope = memo_key
        template = KeyTemplate(parts)
        rules = self._scope(scope)
        family = self._attribute(template, key_type)
        judge = family is None or self._libraries is None or self._libraries.judges_names(family)

        def applies(configured: ConfiguredRule) -> bool:
            return family is None or not exempt(family, configured.id, configured.rule.meta.family, judge)

        checked = [
            (configured, ctx, list(cast(NameRule[Any], configured.rule).check(template, key_type, ctx)))
            for configured, ctx in rules.name_rules  # `_scope` sorted the rules by kind
            if applies(configured)
        ]
        resolved: list[ResolvedViolation] = []
        for configured, ctx, violations in settle(checked, template, key_type):  # overlapping rules
            resolved.extend(self._resolve(configured, ctx, violations))
        wanted = [
            (configured.rule, acc)
            for configured, ctx, acc in rules.aggregates
            if applies(configured) and cast(AggregateRule[Any], configured.rule).relevant(template, ctx)
        ]
        verdict = NameVerdict(
            pattern=template.pattern,
            violations=tuple(resolved),
            flags=any(v.severity >= Severity.WARNING for v in resolved),
            accumulators=tuple(acc for _rule, acc in wanted),
            gated_accumulators=tuple(
                (acc, acc.gate.compiled() if acc.gate else None, acc.twin_add() or acc.add) for _rule, acc in wanted
            ),
            name_accumulators=tuple(acc for rule, acc in wanted if rule.needs <= NAME_FIELDS),
            template=template,
            scope=rules,
            fact_checks=tuple(
                (check, configured, ctx, _gate_of(configured, ctx), cast(FactRule[Any], configured.rule).uniform)
                for check, configured, ctx in rules.fact_checks
                if applies(configured)
                and (
                    key_type is None
                    or cast(FactRule[Any], configured.rule).types is None
                    or key_type in cast(FactRule[Any], configured.rule).types  # type: ignore[operator]
                )
            ),
        )
        self.patterns.note_family(template.pattern, family.id if family is not None else None)
        memoised = (verdict, skeleton_offsets(parts))
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[memo_key] = memoised
        return memoised

    def _attribute(self, template: KeyTemplate, key_type: str | None) -> KeyFamily | None:
        """The library family of a template, if the catalog claims it now. A family whose shape starts with a
        `{prefix}` that another key must prove is noted as a candidate and settled in `finish`."""
        if self._libraries is None:
            return None
        found = self._libraries.catalog.match(template, key_type)
        if found is None:
            return None
        family, prefix = found
        if prefix is None:
            return family
        if family.proves_prefix:
            self.patterns.prove_prefix(family.library, prefix)
            return family
        candidates = self._libraries.catalog.waiting(template, key_type)
        self.patterns.note_candidates(template.pattern, tuple((f.id, f.library, p) for f, p in candidates))
        return None

    # -- parts -----------------------------------------------------------------------------------------

    def partial(self) -> Partial:
        """What this engine accumulated, as a value that merges with another part's (its own structures:
        feed the engine nothing more once its partial is merged into another)."""
        from rediscipline.engine.partial import Partial  # loaded by runs of several parts only

        return Partial(
            part=self.part,
            keys=self.keys,
            patterns=self.patterns,
            groups=self.groups,
            flagged=self.flagged,
            keyspace=self.keyspace,
            unreadable=self._unreadable,
            accumulators=self._accumulators,
            servers=self._pending_servers(),
            judged=self._judged_servers,
            directives=tuple(self._directives),
            started=self._started,
            slots=self._slots,
            cluster=self._cluster,
            views=self._views,
        )

    def _pending_servers(self) -> tuple[tuple[int, ServerFact], ...]:
        """The servers judged at the end, by part: this engine's and those of the parts merged into it."""
        own = ((self.part, self.server),) if self.server is not None else ()
        return tuple(sorted(own + self._merged_servers, key=lambda item: item[0]))

    def merge(self, other: Partial) -> None:
        """Take in the partial of another part of this run (an engine with the same rules and settings);
        `finish` then reports on every part merged so far. `other` is spent."""
        merged = self.partial()
        merged.merge(other)
        self.keys = merged.keys
        own = self.server
        self._merged_servers = tuple(item for item in merged.servers if own is None or item[1] is not own)
        self._directives = list(merged.directives)
        self._started = merged.started
        self._slots, self._cluster, self._views = merged.slots, merged.cluster, merged.views

    # -- output ----------------------------------------------------------------------------------------

    def finish(self, source: str = SOURCE_KEYS) -> EngineResult:
        """Compact patterns, flush aggregate rules, judge the servers and return findings and statistics.

        `source` names where keys came from, for findings that have no example to say so (an aggregate's).
        Aggregate results are taken in a fixed order (pattern, code, count), whichever order the accumulator
        holds them in, so that merged parts report what one pass reports.
        """
        self.patterns.compact(remember_all=True)
        canonical = self.patterns.canonical
        self.groups.remap(canonical)
        flagged_aggregates: list[tuple[bytes, int, str]] = []
        rank = AFTER_EVERY_KEY
        for configured in self.rules:
            accumulator = self._accumulators.get(configured.id)
            if accumulator is None:
                continue
            ctx = self._context(configured, None)
            for result in sorted(accumulator.finish(), key=_result_order):
                for resolved in self._resolve(configured, ctx, (result.violation,)):
                    target = canonical(result.pattern)
                    self.groups.add_counted(resolved, target, result.count, result.examples, rank)
                    rank += len(result.examples)
                    if resolved.severity >= Severity.WARNING:
                        flagged_aggregates.append((target, result.count, configured.id))
        late = {canonical(pattern) for pattern in self.patterns.settle_candidates()}
        families = self.patterns.families()
        keyspace = self.keyspace.finish() if self.keyspace.keys else None  # some key carried probed fields
        servers = [server for _part, server in self._pending_servers()]  # this part's and the merged parts'
        for server in servers:
            self._judge_server(server, keyspace, self.groups, named=len(servers) > 1)
        cluster = self._cluster
        if cluster is not None:
            if self._slots is not None:
                cluster = self._slots.complete(cluster)
            if self.keyspace.sample_rate is not None:
                cluster = replace(cluster, sample_rate=self.keyspace.sample_rate)
            judge_view(
                cluster,
                cluster.origin or Location(SOURCE_LIVE),
                self._scope(None).cluster_rules,
                self.groups,
                self.keys,
            )
        scope = self._scope(None)
        for _part, view in self._views:
            if isinstance(view, TrafficView):
                rules = scope.traffic_rules
            elif isinstance(view, ExpirySimulation):
                rules = scope.expiry_rules
            else:
                rules = scope.simulation_rules
            judge_view(view, view.origin, rules, self.groups, self.keys)
        traffic = tuple(view for _part, view in self._views if isinstance(view, TrafficView))
        eviction = tuple(view for _part, view in self._views if isinstance(view, EvictionSimulation))
        expiry = tuple(view for _part, view in self._views if isinstance(view, ExpirySimulation))
        findings = self._judged_servers.findings(source) + self.groups.findings(source)
        if late:
            findings, flagged_aggregates = self._settle_late(findings, flagged_aggregates, late, families)
        flagged = self.flagged.total(((p, c) for p, c, _id in flagged_aggregates), self.patterns.counts, self.keys)
        if families:
            findings = [
                replace(f, library=families[f.pattern]) if f.pattern is not None and f.pattern in families else f
                for f in findings
            ]
        rate = self.keyspace.sample_rate
        if rate is not None:
            findings = [
                replace(f, estimate=count_estimate(f.count, rate)) if f.pattern is not None else f for f in findings
            ]
        stats = Stats(
            keys=self.keys,
            patterns=len(self.patterns.counts),
            pattern_cap=self.patterns.cap,
            overflow_keys=self.patterns.overflow_keys,
            elapsed_seconds=round(time.perf_counter() - self._started, 3),
            pattern_stats=self.keyspace.patterns.finish(
                self.patterns.counts, canonical, families, self.keyspace.measured
            ),
            keys_flagged=flagged,
            score=score(self.keys, flagged, findings, has_server=bool(servers)),
            keyspace=keyspace,
            cluster=cluster,
            traffic=traffic,
            eviction=eviction,
            expiry=expiry,
        )
        unreadable = self._unreadable.summary(self.patterns.canonical, self.rules)
        return EngineResult(tuple(findings), stats, self.plan, tuple(self._directives), unreadable)

    def _settle_late(
        self,
        findings: list[Finding],
        aggregates: list[tuple[bytes, int, str]],
        late: set[bytes],
        families: Mapping[bytes, str],
    ) -> tuple[list[Finding], list[tuple[bytes, int, str]]]:
        """Apply the library policy to patterns attributed at the end (a prefix another key proved): their keys
        were judged like the team's while they were fed, so the findings of the rules that leave a library's
        keys alone go now, and the flagged count of each such pattern is bounded by the findings left on it."""
        assert self._libraries is not None
        policy = self._libraries
        rule_family = {configured.id: configured.rule.meta.family for configured in self.rules}

        def dropped(pattern: bytes | None, rule_id: str) -> bool:
            family = policy.catalog.by_id.get(families.get(pattern, "")) if pattern in late else None
            if family is None:
                return False
            return exempt(family, rule_id, rule_family.get(rule_id, ""), policy.judges_names(family))

        kept = [f for f in findings if not dropped(f.pattern, f.rule_id)]
        left: dict[bytes, int] = {}
        for finding in kept:
            if finding.pattern in late and finding.severity >= Severity.WARNING:
                left[finding.pattern] = max(left.get(finding.pattern, 0), finding.count)
        for pattern in late:
            self.flagged.cap(pattern, left.get(pattern, 0))
        return kept, [item for item in aggregates if not dropped(item[0], item[2])]

    def _judge_server(self, server: ServerFact, keyspace: Any, groups: Groups, *, named: bool = False) -> None:
        """Run the instance rules on `server`: a server described by files (redis.conf, an ACL file) has its
        findings at the line that sets what they are about, else at the file; a live one's are about it,
        with its address as the example when the run judges several (the shards of a cluster)."""
        in_file = server.origin.source == SOURCE_CONFIG
        for configured, ctx in self._scope(None).instance_rules:
            slug = configured.rule.meta.slug
            for violation in cast(InstanceRule[Any], configured.rule).check(server, keyspace, ctx):
                resolved = self._resolve_one(configured, ctx, violation)
                if in_file:
                    origin = server.settings_origin.get(violation.setting or "", server.origin)
                    groups.add_site(resolved, origin, None, violation.setting or slug, rank=self.keys)
                else:
                    example = server.origin.path.encode() if named and server.origin.path else None
                    groups.add_subject(resolved, (slug, ""), server.origin, example, 1, rank=self.keys)

    def judge_suppressions(self, unused: Iterable[UnusedSuppression]) -> tuple[Finding, ...]:
        """Findings of the suppression rules (SUP001) on what the suppression step left unused (`suppressions`)."""
        rules = [c for c in self.rules if isinstance(c.rule, SuppressionRule)]
        return suppression_findings(rules, self._scopes, unused, self.groups.examples)


def _result_order(result: AggregateResult) -> tuple[bytes, str, int, tuple[bytes, ...]]:
    return (result.pattern, result.violation.code, -result.count, tuple(e.name for e in result.examples))


def _command_line(fact: CommandFact) -> bytes | None:
    """`KEYS *` for an example, when the arguments are known."""
    if fact.args is None:
        return None
    return b" ".join((fact.name.replace("|", " ").upper().encode(), *fact.args))


def _gate_of(configured: ConfiguredRule, ctx: RuleContext[Any]) -> CompiledGate | None:
    """The rule's gate with this context, as the compiled core tests it (`rules.gate`)."""
    gate = cast(FactRule[Any], configured.rule).gate(ctx)
    return gate.compiled() if gate is not None else None
