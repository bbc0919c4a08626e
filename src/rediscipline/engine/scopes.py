"""Which rules apply to a key: its scope, the (declared namespace, per-key ignores) combination its name falls in.

A scope holds the enabled rules sorted by kind, each with its `RuleContext` (options, severity, the namespace
policy, the server), built once per scope and reused for every key in it. Aggregate rules share one
accumulator per rule across scopes, told the part of the run it is fed (`Accumulator.part`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rediscipline.model.glob import GlobMatcher
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.report import RuleMeta
from rediscipline.model.server import ServerFact
from rediscipline.rules.base import (
    ANY_COMMAND,
    Accumulator,
    AggregateRule,
    CallRule,
    ClusterRule,
    CommandRule,
    ConfiguredRule,
    ExpiryRule,
    FactRule,
    InstanceRule,
    NameRule,
    RuleContext,
    SimulationRule,
    TrafficRule,
)

#: (index of the declared namespace or None, indexes of the per-key ignore globs that match)
ScopeKey = tuple["int | None", tuple[int, ...]]


@dataclass(slots=True)
class Scope:
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
    cluster_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)
    traffic_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)
    simulation_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)
    expiry_rules: list[tuple[ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)
    #: bound `check` methods of the fact rules, so the per-key loop does no attribute lookups
    fact_checks: list[tuple[Any, ConfiguredRule, RuleContext[Any]]] = field(default_factory=list)

    def command_rules_for(self, name: str) -> list[tuple[ConfiguredRule, RuleContext[Any]]]:
        """The command rules that declared `name` (by its command, without subcommand) or any command."""
        command = name.lower().partition("|")[0]
        found = self.command_index.get(command)
        if found is None:
            found = [
                (configured, ctx)
                for configured, ctx, judged in self.command_rules
                if command in judged or judged >= ANY_COMMAND
            ]
            self.command_index[command] = found
        return found


class Scopes:
    """The scopes of one run, built on demand; `server` is what rules see as `ctx.server` (set it with
    `set_server`, which drops the scopes built for the server before)."""

    def __init__(
        self,
        rules: Sequence[ConfiguredRule],
        namespaces: Sequence[NamespacePolicy],
        key_ignores: Mapping[str, frozenset[str]],
        catalog: Mapping[str, RuleMeta],
        enabled: frozenset[str],
        *,
        part: int = 0,
    ) -> None:
        self.rules = rules
        self.part = part
        self.namespaces = tuple(namespaces)
        self._ns_matcher = GlobMatcher([ns.pattern for ns in self.namespaces]) if self.namespaces else None
        self._ignore_globs = [GlobMatcher([glob]) for glob in key_ignores]
        self._ignore_sets = list(key_ignores.values())
        #: some key may fall outside the default scope: names must be matched against the globs
        self.scoped = self._ns_matcher is not None or bool(self._ignore_globs)
        self._catalog = catalog
        self._enabled = enabled
        self._built: dict[ScopeKey, Scope] = {}
        self.accumulators: dict[str, Accumulator] = {}
        self.server: ServerFact | None = None

    def set_server(self, server: ServerFact) -> None:
        self.server = server
        self._built.clear()

    def of(self, name: bytes) -> ScopeKey:
        """The scope of a key name (or a pattern standing for its keys)."""
        namespace = self._ns_matcher.match(name) if self._ns_matcher is not None else None
        ignored = tuple(i for i, matcher in enumerate(self._ignore_globs) if matcher.match(name) is not None)
        return (namespace, ignored)

    def get(self, key: ScopeKey | None) -> Scope:
        """The rules of scope `key` (None: the default scope, no namespace and no ignore)."""
        key = key or (None, ())
        found = self._built.get(key)
        if found is not None:
            return found
        ns_index, ignored = key
        namespace = self.namespaces[ns_index] if ns_index is not None else None
        skip: set[str] = set()
        for index in ignored:
            skip |= self._ignore_sets[index]
        if namespace is not None:
            skip |= set(namespace.ignore)
        built = Scope([], [], namespace.pattern if namespace else None)
        for configured in self.rules:
            if configured.id in skip:
                continue
            rule, ctx = configured.rule, self.context(configured, namespace)
            if isinstance(rule, CommandRule):
                judged = frozenset(name.partition("|")[0] for name in rule.judged(configured.options))
                built.command_rules.append((configured, ctx, judged))
            elif isinstance(rule, CallRule):
                built.call_rules.append((configured, ctx))
            elif isinstance(rule, InstanceRule):
                built.instance_rules.append((configured, ctx))
            elif isinstance(rule, ClusterRule):
                built.cluster_rules.append((configured, ctx))
            elif isinstance(rule, TrafficRule):
                built.traffic_rules.append((configured, ctx))
            elif isinstance(rule, SimulationRule):
                built.simulation_rules.append((configured, ctx))
            elif isinstance(rule, ExpiryRule):
                built.expiry_rules.append((configured, ctx))
            elif isinstance(rule, NameRule):
                built.name_rules.append((configured, ctx))
            elif isinstance(rule, FactRule):
                built.fact_checks.append((rule.check, configured, ctx))
            if isinstance(rule, AggregateRule):  # a fact rule may fold facts too
                accumulator = self.accumulators.get(configured.id)
                if accumulator is None:
                    accumulator = self.accumulators[configured.id] = rule.accumulator(ctx)
                    accumulator.part = self.part
                built.aggregates.append((configured, ctx, accumulator))
        self._built[key] = built
        return built

    def context(self, configured: ConfiguredRule, namespace: NamespacePolicy | None) -> RuleContext[Any]:
        return RuleContext(
            configured.options,
            configured.severity,
            namespace,
            self.namespaces,
            self.server,
            catalog=self._catalog,
            enabled=self._enabled,
        )
