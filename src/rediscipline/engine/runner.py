"""Run configured rules over key facts, memoising name rules per template, and build the findings.

The per-key path (`feed_name`) is the hot loop of `rediscipline keys` on 40 M names: one regex split to get
the template, one dict lookup in the memo of rule results, one pattern count, and a counter bump per
violation. Rules run only on a memo miss, once per distinct (template, type, scope).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from rediscipline.engine.groups import Groups, ResolvedViolation
from rediscipline.engine.keyspace import KeyspaceCollector, count_estimate
from rediscipline.engine.patterns import PatternTable
from rediscipline.engine.plan import ProbePlan, plan_for
from rediscipline.model.facts import CommandFact, KeyFact
from rediscipline.model.finding import Finding
from rediscipline.model.glob import GlobMatcher
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import DATE_PREFIXES, DIGITS_TO_ZERO, infer_parts, skeleton_offsets
from rediscipline.model.location import Location
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.report import PatternStat, Stats
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.rules.base import (
    Accumulator,
    AggregateRule,
    CommandRule,
    ConfiguredRule,
    FactRule,
    InstanceRule,
    NameRule,
    RuleContext,
)

MEMO_LIMIT = 200_000
#: A memoised verdict: the key's pattern, the violations of name rules, the aggregates that want it.
_Entry = tuple[bytes, tuple[ResolvedViolation, ...], tuple[Accumulator, ...]]
#: Instance findings cost the score this much each, by severity (see `_score`).
INSTANCE_PENALTY = {Severity.ERROR: 10, Severity.WARNING: 4, Severity.NOTE: 1}


@dataclass(slots=True)
class _Scope:
    """The rules that apply to keys of one (namespace, per-key-ignore) combination."""

    name_rules: list[tuple[ConfiguredRule, RuleContext[Any]]]
    fact_rules: list[tuple[ConfiguredRule, RuleContext[Any]]]
    aggregates: list[tuple[ConfiguredRule, RuleContext[Any], Accumulator]]
    namespace: str | None
    command_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)
    instance_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)


@dataclass
class EngineResult:
    findings: list[Finding]
    stats: Stats
    plan: ProbePlan
    rule_ids: frozenset[str] = field(default_factory=frozenset)


class Engine:
    def __init__(
        self,
        rules: Sequence[ConfiguredRule],
        namespaces: Sequence[NamespacePolicy] = (),
        key_ignores: Mapping[str, frozenset[str]] | None = None,
        *,
        pattern_cap: int = 50_000,
        examples: int = 3,
    ) -> None:
        self.rules = list(rules)
        self.plan = plan_for(r.rule for r in self.rules)
        self.namespaces = tuple(namespaces)
        self._ns_matcher = GlobMatcher([ns.pattern for ns in self.namespaces]) if self.namespaces else None
        ignores = dict(key_ignores or {})
        self._ignore_globs = [GlobMatcher([glob]) for glob in ignores]
        self._ignore_sets = list(ignores.values())
        self._scoped = self._ns_matcher is not None or bool(self._ignore_globs)
        self._scopes: dict[tuple[int | None, tuple[int, ...]], _Scope] = {}
        self._accumulators: dict[str, Accumulator] = {}
        self._memo: dict[Any, tuple[_Entry, tuple[int, ...] | None]] = {}
        self._fast: dict[bytes, tuple[_Entry, tuple[int, ...]]] = {}
        self.patterns = PatternTable(pattern_cap)
        self.groups = Groups(examples)
        self.keys = 0
        self.flagged = 0
        self.server: ServerFact | None = None
        self.keyspace = KeyspaceCollector()
        self._probed = False  # some fact carried probed fields: report keyspace statistics
        self._sample_rate: float | None = None
        self._origin = Location("keys")
        self._started = time.perf_counter()

    # -- input -----------------------------------------------------------------------------------------

    def set_server(self, server: ServerFact) -> None:
        """Make the instance visible to rules (`ctx.server`); call before feeding its keys."""
        self.server = server
        self._scopes.clear()
        self._memo.clear()
        self._fast.clear()

    def set_sampling(self, rate: float, population: int) -> None:
        """Keys are a Bernoulli sample of rate `rate` of `population` keys: report estimates with CIs."""
        self._sample_rate = rate
        self.keyspace.set_sampling(rate, population)

    def skip(self) -> None:
        """Count a key that vanished or changed type between listing and probing."""
        self.keyspace.skipped += 1

    def begin_input(self, origin: Location) -> None:
        """Set where the following keys come from (file, server, dump); examples carry it."""
        self._origin = origin

    def feed_name(self, name: bytes, line: int | None = None, key_type: str | None = None) -> None:
        """Check one concrete key name (the fast path: no fact object is built unless a rule needs one).

        Keys whose ids are plain numbers are looked up by their skeleton (digits → 0), a C-speed
        translate plus one dict lookup; other keys go through pattern inference and the template memo.
        """
        entry = None
        if key_type is None and not self._scoped:
            skeleton = name.translate(DIGITS_TO_ZERO)
            fast = self._fast.get(skeleton)
            if fast is not None:
                entry, date_offsets = fast
                for offset in date_offsets:
                    if name[offset : offset + 2] in DATE_PREFIXES:
                        entry = None  # may be a date: infer it properly
                        break
            if entry is None:
                entry = self._entry_for(name, key_type, None, skeleton)
        else:
            scope = self._scope_of(name) if self._scoped else None
            entry = self._entry_for(name, key_type, scope, None)
        pattern, violations, accumulators = entry
        self.keys += 1
        recorded = self.patterns.add(pattern)
        if violations:
            if any(v.severity >= Severity.WARNING for v in violations):
                self.flagged += 1
            add = self.groups.add
            for violation in violations:
                add(violation, recorded, name, self._origin, line)
        if accumulators:
            origin = self._origin
            if line is not None:
                origin = Location(origin.source, origin.path, line, None, origin.db)
            fact = KeyFact(name, origin, origin.db, key_type)
            for accumulator in accumulators:
                accumulator.add(fact, recorded)

    def _entry_for(self, name: bytes, key_type: str | None, scope: Any, skeleton: bytes | None) -> _Entry:
        entry, offsets = self._memoised((infer_parts(name), key_type, scope))
        if skeleton is not None and offsets is not None:
            if len(self._fast) >= MEMO_LIMIT:
                self._fast.clear()
            self._fast[skeleton] = (entry, offsets)
        return entry

    def feed(self, fact: KeyFact) -> None:
        """Check one fact: a concrete key with probed fields, or a template from code."""
        template = fact.name if isinstance(fact.name, KeyTemplate) else KeyTemplate(infer_parts(fact.name))
        name_for_scope = fact.name if isinstance(fact.name, bytes) else template.pattern
        scope = self._scope_of(name_for_scope) if self._scoped else None
        memo_key = (template.parts, fact.type, scope)
        entry, _offsets = self._memoised(memo_key)
        pattern, violations, accumulators = entry
        self.keys += 1
        recorded = self.patterns.add(pattern)
        example_name = fact.name if isinstance(fact.name, bytes) else template.pattern
        flagged = False
        for violation in violations:
            flagged = flagged or violation.severity >= Severity.WARNING
            self.groups.add(violation, recorded, example_name, fact.origin, None)
        rules = self._scope(scope)
        for configured, ctx in rules.fact_rules:
            checked = cast(FactRule[Any], configured.rule).check(fact, template, ctx)  # `_scope` sorted them by kind
            for resolved in self._resolve(configured, ctx, checked):
                flagged = flagged or resolved.severity >= Severity.WARNING
                self.groups.add(resolved, recorded, example_name, fact.origin, None)
        self.flagged += flagged
        for accumulator in accumulators:
            accumulator.add(fact, recorded)
        if fact.type is not None and isinstance(fact.name, bytes):
            self._probed = True
            self.keyspace.add(fact, rules.namespace)

    def feed_command(self, fact: CommandFact) -> None:
        """Check one command (from commandstats, the slow log, code or the runtime guard)."""
        for configured, ctx in self._scope(None).command_rules:
            checked = cast(CommandRule[Any], configured.rule).check(fact, ctx)
            for resolved in self._resolve(configured, ctx, checked):
                self.groups.add_subject(resolved, fact.name, fact.origin, _command_line(fact), fact.calls)

    # -- evaluation ------------------------------------------------------------------------------------

    def _scope_of(self, name: bytes) -> tuple[int | None, tuple[int, ...]]:
        namespace = self._ns_matcher.match(name) if self._ns_matcher is not None else None
        ignored = tuple(i for i, matcher in enumerate(self._ignore_globs) if matcher.match(name) is not None)
        return (namespace, ignored)

    def _scope(self, scope: tuple[int | None, tuple[int, ...]] | None) -> _Scope:
        found = self._scopes.get(scope or (None, ()))
        if found is not None:
            return found
        ns_index, ignored = scope or (None, ())
        namespace = self.namespaces[ns_index] if ns_index is not None else None
        skip: set[str] = set()
        for index in ignored:
            skip |= self._ignore_sets[index]
        if namespace is not None:
            skip |= set(namespace.ignore)
        built = _Scope([], [], [], namespace.pattern if namespace else None)
        for configured in self.rules:
            if configured.id in skip:
                continue
            ctx: RuleContext[Any] = RuleContext(
                configured.options, configured.severity, namespace, self.namespaces, self.server
            )
            if isinstance(configured.rule, CommandRule):
                built.command_rules.append((configured, ctx))
            elif isinstance(configured.rule, InstanceRule):
                built.instance_rules.append((configured, ctx))
            elif isinstance(configured.rule, NameRule):
                built.name_rules.append((configured, ctx))
            elif isinstance(configured.rule, FactRule):
                built.fact_rules.append((configured, ctx))
            elif isinstance(configured.rule, AggregateRule):
                accumulator = self._accumulators.get(configured.id)
                if accumulator is None:
                    accumulator = configured.rule.accumulator(ctx)
                    self._accumulators[configured.id] = accumulator
                built.aggregates.append((configured, ctx, accumulator))
        self._scopes[scope or (None, ())] = built
        return built

    def _resolve(
        self, configured: ConfiguredRule, ctx: RuleContext[Any], violations: Iterable[Any]
    ) -> Iterable[ResolvedViolation]:
        namespace = ctx.namespace.pattern if ctx.namespace else None
        for v in violations:
            severity = configured.severity if configured.forced else (v.severity or configured.severity)
            yield ResolvedViolation(configured.id, v.code, severity, v.message, v.value, namespace)

    def _memoised(self, memo_key: Any) -> tuple[_Entry, tuple[int, ...] | None]:
        found = self._memo.get(memo_key)
        return found if found is not None else self._evaluate(memo_key)

    def _evaluate(self, memo_key: Any) -> tuple[_Entry, tuple[int, ...] | None]:
        parts, key_type, scope = memo_key
        template = KeyTemplate(parts)
        rules = self._scope(scope)
        resolved: list[ResolvedViolation] = []
        for configured, ctx in rules.name_rules:  # `_scope` sorted the rules by kind
            checked = cast(NameRule[Any], configured.rule).check(template, key_type, ctx)
            resolved.extend(self._resolve(configured, ctx, checked))
        accumulators = tuple(
            acc
            for configured, ctx, acc in rules.aggregates
            if cast(AggregateRule[Any], configured.rule).relevant(template, ctx)
        )
        memoised = ((template.pattern, tuple(resolved), accumulators), skeleton_offsets(parts))
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[memo_key] = memoised
        return memoised

    # -- output ----------------------------------------------------------------------------------------

    def finish(self, source: str) -> EngineResult:
        """Compact patterns, flush aggregate rules and return findings and statistics."""
        self.groups.remap(self.patterns.compact())
        for configured in self.rules:
            accumulator = self._accumulators.get(configured.id)
            if accumulator is None:
                continue
            ctx = RuleContext(configured.options, configured.severity, None, self.namespaces, self.server)
            for result in accumulator.finish():
                for resolved in self._resolve(configured, ctx, (result.violation,)):
                    target = self.patterns.canonical(result.pattern)
                    self.groups.add_counted(resolved, target, result.count, result.examples)
        keyspace = self.keyspace.finish() if self._probed else None
        if self.server is not None:
            server = self.server
            for configured, ctx in self._scope(None).instance_rules:
                checked = cast(InstanceRule[Any], configured.rule).check(server, keyspace, ctx)
                for resolved in self._resolve(configured, ctx, checked):
                    self.groups.add_subject(resolved, configured.rule.meta.slug, server.origin, None, 1)
        findings = self.groups.findings(source)
        if self._sample_rate is not None:
            rate = self._sample_rate
            findings = [
                replace(f, estimate=count_estimate(f.count, rate)) if f.pattern is not None else f for f in findings
            ]
        stats = Stats(
            keys=self.keys,
            patterns=len(self.patterns.counts),
            pattern_cap=self.patterns.cap,
            overflow_keys=self.patterns.overflow_keys,
            elapsed_seconds=round(time.perf_counter() - self._started, 3),
            top_patterns=tuple(PatternStat(p, c) for p, c in self.patterns.top(10)),
            keys_flagged=self.flagged,
            score=_score(self.keys, self.flagged, findings),
            keyspace=keyspace,
        )
        return EngineResult(findings, stats, self.plan, frozenset(r.id for r in self.rules))


def _command_line(fact: CommandFact) -> bytes | None:
    """`KEYS *` for an example, when the arguments are known."""
    if fact.args is None:
        return None
    return b" ".join((fact.name.replace("|", " ").upper().encode(), *fact.args))


def _score(keys: int, flagged: int, findings: Sequence[Finding]) -> int:
    """0–100: the share of keys without a warning or error, less a fixed penalty per server-level finding.

    Key findings weigh by how many keys they cover, so one bad pattern among millions of clean keys barely
    moves the score; a server finding (no maxmemory, KEYS callable) costs the same on any keyspace size.
    """
    score = 100.0 * (1 - flagged / keys) if keys else 100.0
    for finding in findings:
        if finding.pattern is None:
            score -= INSTANCE_PENALTY[finding.severity]
    return max(0, min(100, round(score)))
