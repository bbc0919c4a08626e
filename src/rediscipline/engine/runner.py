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

from rediscipline.engine.flagged import FlaggedKeys
from rediscipline.engine.groups import Group, Groups, ResolvedViolation
from rediscipline.engine.keyspace import KeyspaceCollector, count_estimate
from rediscipline.engine.patterns import PatternTable
from rediscipline.engine.plan import ProbePlan, plan_for
from rediscipline.model.code import CodeCall
from rediscipline.model.facts import CommandFact, KeyFact
from rediscipline.model.finding import Finding, Violation
from rediscipline.model.glob import GlobMatcher
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import DATE_PREFIXES, DIGITS_TO_ZERO, infer_parts, skeleton_offsets
from rediscipline.model.location import SOURCE_CONFIG, Location
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.report import PatternStat, Stats
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.rules.base import (
    ANY_COMMAND,
    Accumulator,
    AggregateRule,
    CallRule,
    CommandRule,
    ConfiguredRule,
    FactRule,
    InstanceRule,
    NameRule,
    RuleContext,
)

MEMO_LIMIT = 200_000
#: Resolved forms of the violations fact rules returned, by identity (most are shared: see `feed`).
RESOLVED_LIMIT = 4_096
#: What a rule firing on the server costs the server part of the score, by severity (see `_score`).
#: KeyFact fields a names-only source (a key list) can provide: aggregates needing more are not fed names.
NAME_FIELDS = frozenset({"type"})
INSTANCE_PENALTY = {Severity.ERROR: 25, Severity.WARNING: 10, Severity.NOTE: 3}


@dataclass(slots=True)
class _Scope:
    """The rules that apply to keys of one (namespace, per-key-ignore) combination."""

    name_rules: list[tuple[ConfiguredRule, RuleContext[Any]]]
    aggregates: list[tuple[ConfiguredRule, RuleContext[Any], Accumulator]]
    namespace: str | None
    #: command rules with the commands they judge, by name without subcommand (`config` for `config|set`)
    command_rules: list[tuple[ConfiguredRule, RuleContext[Any], frozenset[str]]] = field(default_factory=list)
    #: command name (without subcommand) → the command rules that judge it, in rule order; filled on demand
    command_index: dict[str, list[tuple[ConfiguredRule, RuleContext[Any]]]] = field(default_factory=dict)
    call_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)
    instance_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)
    #: bound `check` methods of the fact rules, so the per-key loop does no attribute lookups
    fact_checks: list[tuple[Any, ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)


@dataclass(slots=True)
class _Verdict:
    """What is known of every key with one template, type and scope: evaluated once, then memoised."""

    pattern: bytes
    violations: tuple[ResolvedViolation, ...]
    flags: bool  # some violation is a warning or worse: the key counts as flagged
    accumulators: tuple[Accumulator, ...]  # aggregates that want this key's facts
    name_accumulators: tuple[Accumulator, ...]  # the subset that needs nothing but the name and type
    template: KeyTemplate
    scope: _Scope
    fact_checks: tuple[tuple[Any, ConfiguredRule, RuleContext[Any]], ...]  # the scope's, for this key type
    #: the groups its violations were last counted in, with that pattern (see Engine._count_name_violations)
    groups: tuple[bytes, list[Group]] | None = None


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
        self._memo: dict[Any, tuple[_Verdict, tuple[int, ...] | None]] = {}
        self._fast: dict[bytes | tuple[bytes, str], tuple[_Verdict, tuple[int, ...]]] = {}
        self._resolved: dict[int, tuple[Violation, RuleContext[Any], ResolvedViolation]] = {}
        self.patterns = PatternTable(pattern_cap)
        self.groups = Groups(examples)
        self.keys = 0
        self.flagged = FlaggedKeys(self.patterns.canonical)
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

    def _verdict(self, name: bytes, key_type: str | None) -> _Verdict:
        """The memoised verdict of name rules for a concrete key.

        Keys whose ids are plain numbers are looked up by their skeleton (digits → 0), a C-speed translate
        plus one dict lookup; other keys go through pattern inference and the template memo.
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
        verdict, offsets = self._memoised((infer_parts(name), key_type, None))
        if offsets is not None:
            if len(self._fast) >= MEMO_LIMIT:
                self._fast.clear()
            self._fast[fast_key] = (verdict, offsets)
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
        for check, configured, ctx in verdict.fact_checks:
            found = check(fact, template, ctx)
            if found is not None:
                # Rules hand out shared violations where they can (a constant, a memo): resolve each once.
                cached = self._resolved.get(id(found))
                if cached is not None and cached[0] is found and cached[1] is ctx:
                    resolved = cached[2]
                else:
                    resolved = self._resolve_one(configured, ctx, found)
                    if len(self._resolved) >= RESOLVED_LIMIT:
                        self._resolved.clear()
                    self._resolved[id(found)] = (found, ctx, resolved)  # holding `found` keeps its id unique
                flagged = flagged or resolved.severity >= Severity.WARNING
                add(resolved, recorded, example, origin, None)
        if flagged:
            self.flagged.add(recorded)
        for accumulator in verdict.accumulators:
            accumulator.add(fact, recorded)
        if fact.type is not None and isinstance(name, bytes):
            self._probed = True
            self.keyspace.add(fact, verdict.scope.namespace, recorded)

    def _count_name_violations(
        self, verdict: _Verdict, recorded: bytes, example: bytes, origin: Location, line: int | None
    ) -> None:
        """Count one key against its template's memoised violations, through the groups it hit last time.

        Most keys of a template land in the same pattern as the one before, so the verdict keeps the groups
        of its last pattern and skips building a group key and a dict lookup per violation.
        """
        cached = verdict.groups
        if cached is None or cached[0] != recorded:
            groups = self.groups
            cached = verdict.groups = (recorded, [groups.group_for(v, recorded) for v in verdict.violations])
        limit = self.groups.examples
        for group, violation in zip(cached[1], verdict.violations, strict=True):
            group.count_key(violation, example, origin, line, limit)

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
                self.groups.add_site(resolved, fact.origin, verdict.pattern, None)

    def feed_command(self, fact: CommandFact) -> None:
        """Check one command (from commandstats, the slow log, code or the runtime guard).

        A command at a place in a file (code) makes findings at that place; others are grouped by command.
        """
        subject, example = (fact.name, fact.evidence), _command_line(fact)
        at_site = fact.origin.line is not None
        for configured, ctx in self._command_rules(fact.name):
            checked = cast(CommandRule[Any], configured.rule).check(fact, ctx)
            for resolved in self._resolve(configured, ctx, checked):
                if at_site:
                    self.groups.add_site(resolved, fact.origin, None, fact.name)
                else:
                    self.groups.add_subject(resolved, subject, fact.origin, example, fact.calls)

    def feed_call(self, call: CodeCall) -> None:
        """Check one call site in code with the call rules, in the scope of its first key's namespace."""
        pattern = call.keys[0].pattern if call.keys else None
        scope = self._scope_of(pattern) if self._scoped and pattern is not None else None
        subject = call.command or call.method
        for configured, ctx in self._scope(scope).call_rules:
            checked = cast(CallRule[Any], configured.rule).check(call, ctx)
            for resolved in self._resolve(configured, ctx, checked):
                self.groups.add_site(resolved, call.origin, pattern, subject)

    def _command_rules(self, name: str) -> list[tuple[ConfiguredRule, RuleContext[Any]]]:
        """The command rules that declared `name` (by its command, without subcommand) or any command."""
        scope = self._scope(None)
        command = name.lower().partition("|")[0]
        found = scope.command_index.get(command)
        if found is None:
            found = [
                (configured, ctx)
                for configured, ctx, judged in scope.command_rules
                if command in judged or judged >= ANY_COMMAND
            ]
            scope.command_index[command] = found
        return found

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
        built = _Scope([], [], namespace.pattern if namespace else None)
        for configured in self.rules:
            if configured.id in skip:
                continue
            ctx: RuleContext[Any] = RuleContext(
                configured.options, configured.severity, namespace, self.namespaces, self.server
            )
            if isinstance(configured.rule, CommandRule):
                judged = configured.rule.judged(configured.options)
                built.command_rules.append((configured, ctx, frozenset(n.partition("|")[0] for n in judged)))
            elif isinstance(configured.rule, CallRule):
                built.call_rules.append((configured, ctx))
            elif isinstance(configured.rule, InstanceRule):
                built.instance_rules.append((configured, ctx))
            elif isinstance(configured.rule, NameRule):
                built.name_rules.append((configured, ctx))
            elif isinstance(configured.rule, FactRule):
                built.fact_checks.append((configured.rule.check, configured, ctx))
            elif isinstance(configured.rule, AggregateRule):
                accumulator = self._accumulators.get(configured.id)
                if accumulator is None:
                    accumulator = configured.rule.accumulator(ctx)
                    self._accumulators[configured.id] = accumulator
                built.aggregates.append((configured, ctx, accumulator))
        self._scopes[scope or (None, ())] = built
        return built

    def _resolve(
        self, configured: ConfiguredRule, ctx: RuleContext[Any], violations: Iterable[Violation]
    ) -> Iterable[ResolvedViolation]:
        for v in violations:
            yield self._resolve_one(configured, ctx, v)

    @staticmethod
    def _resolve_one(configured: ConfiguredRule, ctx: RuleContext[Any], v: Violation) -> ResolvedViolation:
        namespace = ctx.namespace.pattern if ctx.namespace else None
        severity = configured.severity if configured.forced else (v.severity or configured.severity)
        return ResolvedViolation(configured.id, v.code, severity, v.message, v.value, namespace)

    def _memoised(self, memo_key: Any) -> tuple[_Verdict, tuple[int, ...] | None]:
        found = self._memo.get(memo_key)
        return found if found is not None else self._evaluate(memo_key)

    def _evaluate(self, memo_key: Any) -> tuple[_Verdict, tuple[int, ...] | None]:
        parts, key_type, scope = memo_key
        template = KeyTemplate(parts)
        rules = self._scope(scope)
        resolved: list[ResolvedViolation] = []
        for configured, ctx in rules.name_rules:  # `_scope` sorted the rules by kind
            checked = cast(NameRule[Any], configured.rule).check(template, key_type, ctx)
            resolved.extend(self._resolve(configured, ctx, checked))
        wanted = [
            (configured.rule, acc)
            for configured, ctx, acc in rules.aggregates
            if cast(AggregateRule[Any], configured.rule).relevant(template, ctx)
        ]
        verdict = _Verdict(
            pattern=template.pattern,
            violations=tuple(resolved),
            flags=any(v.severity >= Severity.WARNING for v in resolved),
            accumulators=tuple(acc for _rule, acc in wanted),
            name_accumulators=tuple(acc for rule, acc in wanted if rule.needs <= NAME_FIELDS),
            template=template,
            scope=rules,
            fact_checks=tuple(
                (check, configured, ctx)
                for check, configured, ctx in rules.fact_checks
                if key_type is None
                or cast(FactRule[Any], configured.rule).types is None
                or key_type in cast(FactRule[Any], configured.rule).types  # type: ignore[operator]
            ),
        )
        memoised = (verdict, skeleton_offsets(parts))
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[memo_key] = memoised
        return memoised

    # -- output ----------------------------------------------------------------------------------------

    def finish(self, source: str) -> EngineResult:
        """Compact patterns, flush aggregate rules and return findings and statistics."""
        self.groups.remap(self.patterns.compact())
        flagged_aggregates: list[tuple[bytes, int]] = []
        for configured in self.rules:
            accumulator = self._accumulators.get(configured.id)
            if accumulator is None:
                continue
            ctx = RuleContext(configured.options, configured.severity, None, self.namespaces, self.server)
            for result in accumulator.finish():
                for resolved in self._resolve(configured, ctx, (result.violation,)):
                    target = self.patterns.canonical(result.pattern)
                    self.groups.add_counted(resolved, target, result.count, result.examples)
                    if resolved.severity >= Severity.WARNING:
                        flagged_aggregates.append((target, result.count))
        flagged = self.flagged.total(flagged_aggregates, self.patterns.counts, self.keys)
        keyspace = self.keyspace.finish() if self._probed else None
        if self.server is not None:
            server = self.server
            in_file = server.origin.source == SOURCE_CONFIG
            for configured, ctx in self._scope(None).instance_rules:
                slug = configured.rule.meta.slug
                for violation in cast(InstanceRule[Any], configured.rule).check(server, keyspace, ctx):
                    resolved = self._resolve_one(configured, ctx, violation)
                    if in_file:  # a config file: at the line that sets it, else at the file
                        origin = server.settings_origin.get(violation.setting or "", server.origin)
                        self.groups.add_site(resolved, origin, None, violation.setting or slug)
                    else:
                        self.groups.add_subject(resolved, (slug, ""), server.origin, None, 1)
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
            keys_flagged=flagged,
            score=_score(self.keys, flagged, findings, has_server=self.server is not None),
            keyspace=keyspace,
        )
        return EngineResult(findings, stats, self.plan, frozenset(r.id for r in self.rules))


def _command_line(fact: CommandFact) -> bytes | None:
    """`KEYS *` for an example, when the arguments are known."""
    if fact.args is None:
        return None
    return b" ".join((fact.name.replace("|", " ").upper().encode(), *fact.args))


def _score(keys: int, flagged: int, findings: Sequence[Finding], *, has_server: bool) -> int:
    """0–100: 70% from the share of keys without a warning or error, 30% from the server's own health.

    Key findings weigh by how many keys they cover, so one bad pattern among millions of clean keys barely
    moves the score. The server part loses a fixed amount per rule that fired on the server or its commands
    (INSTANCE_PENALTY by the rule's worst severity), whatever the keyspace size. Without keys, the score is
    the server part alone; without a server (a key list, code), the key part alone.
    """
    key_part = 100.0 * (1 - flagged / keys) if keys else 100.0
    if not has_server:
        return max(0, min(100, round(key_part)))
    worst: dict[str, Severity] = {}
    for finding in findings:
        if finding.pattern is None:
            worst[finding.rule_id] = max(worst.get(finding.rule_id, finding.severity), finding.severity)
    server = max(0.0, 100.0 - sum(INSTANCE_PENALTY[severity] for severity in worst.values()))
    if not keys:
        return round(server)
    return max(0, min(100, round(0.7 * key_part + 0.3 * server)))
