"""The rule contract: metadata, documentation, options, and the kinds of rule.

* `NameRule` judges a key name. It sees only the name's template, the key's type (when a source knows it)
  and the namespace policy, so the engine evaluates it once per distinct template, not once per key.
* `FactRule` judges one key fact with all its probed fields (type, sizes, encoding, TTL, idle time).
* `AggregateRule` folds many facts into a bounded accumulator and reports at the end (slot skew,
  expiry cliffs); the accumulators of the parts of a run (dumps, nodes) merge.
* `CommandRule` judges one command: seen in code or on a server (commandstats, slow log).
* `CallRule` judges one call site in source code with what only the code shows (TTL options, loops, batches).
* `InstanceRule` judges a whole server once, at the end, from its `ServerFact` and the keyspace statistics.
* `SuppressionRule` judges the tool's own suppression comments that suppressed nothing, after the others ran.
* `ClusterRule` judges a whole cluster once, at the end, from what every shard's scan found (`ClusterView`).
* `TrafficRule` judges what a server was sent during an observation window once, at the end (`TrafficView`).

A rule may be both a `FactRule` and an `AggregateRule`: it judges each fact and folds some of them too (a TTL
too long per key, too short per pattern).

Key rules that compare a key with the server's own settings (its listpack limits, `lazyfree-lazy-expire`)
read `ctx.server`, which is None when the source has no server (a key list, a dump without config).

Rules never do I/O, never print, never know output formats. They return `Violation`s; only the engine
creates `Finding`s.

Two name rules may describe the same bytes of a name for the same reason (a camelCase word is upper case
too). A table of `Overlap`s, given to `@rule(overlaps=...)`, says which one wins; the loser's `defers_to`
names its winners, and the engine drops or narrows (`NameRule.narrow`) what the loser says about bytes a
winner reports (`Violation.spans`). The rows also write the rule page's `Overlaps` section.
"""

from __future__ import annotations

import bisect
import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, TypeVar

from rediscipline.model.cluster import ClusterView
from rediscipline.model.code import CodeCall, UnusedSuppression
from rediscipline.model.facts import CommandFact, KeyFact
from rediscipline.model.finding import Example, Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.plan import SERVER_CONFIG
from rediscipline.model.report import RuleMeta
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.simulation import EvictionSimulation, ExpirySimulation
from rediscipline.model.text import Text
from rediscipline.model.traffic import TrafficView
from rediscipline.rules.citations import citations_for
from rediscipline.rules.gate import Gate
from rediscipline.rules.options import RuleOptions
from rediscipline.rules.translation import HEADINGS_ZH, ChineseDoc

#: Where a rule can be checked, in the order the catalog shows them.
WHERE = ("code", "runtime", "live", "rdb", "config", "keys", "traffic", "simulation")
DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Options", "Source")
FAMILIES = {
    "KEY": Text("key naming", "键名规范"),
    "VAL": Text("values and sizes", "值与大小"),
    "TTL": Text("expiry", "过期时间"),
    "CMD": Text("commands", "命令使用"),
    "BAT": Text("batches and pipelines", "批量与管道"),
    "PUB": Text("pub/sub and queues", "发布订阅与队列"),
    "CFG": Text("server configuration", "服务端配置"),
    "SEC": Text("security", "安全"),
    "HOT": Text("hot keys", "热点 Key"),
    "EXP": Text("expiry risk", "过期风险"),
    "EVI": Text("eviction risk", "淘汰风险"),
    "CLU": Text("cluster", "集群"),
    "SUP": Text("suppressions", "抑制注释"),
}
#: A section a rule page has after DOC_SECTIONS when its rule is in an overlap table (generated, never written).
OVERLAPS_SECTION = "Overlaps"
_ID = re.compile(r"([A-Z]{3})(\d{3})")
#: `CommandRule.commands` of a rule that judges every command: the engine offers it each one.
ANY_COMMAND: frozenset[str] = frozenset({"*"})

OptionsT = TypeVar("OptionsT", bound=RuleOptions)
EntryT = TypeVar("EntryT")
#: A half-open range of positions in a template's parts (`Violation.spans`).
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Overlap:
    """Two rules that can describe the same bytes of a name, and which one reports them.

    `winner` is the more specific rule: where both report the same bytes, only it does (the other stays
    silent for those bytes when the winner is enabled in that scope). None: the rules report them for
    different reasons, and both do. `example` is a name on which they meet; `reason` says why in words
    (in both languages: it is written on the rule pages of both).
    """

    rules: tuple[str, str]
    winner: str | None
    example: str
    reason: Text

    def other(self, rule_id: str) -> str:
        first, second = self.rules
        return second if rule_id == first else first


def merge_spans(spans: Iterable[Span]) -> tuple[Span, ...]:
    """The union of `spans` as sorted, disjoint spans (adjacent ones joined)."""
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return tuple(merged)


def _start(span: Span) -> int:
    return span[0]


def covered_by(span: Span, union: Sequence[Span]) -> bool:
    """True when `span` lies wholly inside one span of `union` (as `merge_spans` gives it)."""
    index = bisect.bisect_right(union, span[0], key=_start) - 1
    return index >= 0 and union[index][0] <= span[0] and span[1] <= union[index][1]


@dataclass(frozen=True, slots=True)
class RuleContext(Generic[OptionsT]):
    """What a rule may know besides the fact: its options, the key's namespace policy, the server."""

    options: OptionsT
    severity: Severity
    namespace: NamespacePolicy | None = None
    namespaces: tuple[NamespacePolicy, ...] = ()  # every declared namespace (for the undeclared-namespace rule)
    server: ServerFact | None = None  # the instance the facts come from, when the source has one
    #: A rule's own memo for this context (one run, one scope): results that depend only on the options, the
    #: server and a few fact values with few distinct values, such as a limit or a message per element count.
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    #: Every rule the tool knows, by id, and the ids enabled in this run: for rules about rules (SUP001).
    catalog: Mapping[str, RuleMeta] = field(default_factory=dict, compare=False, repr=False)
    enabled: frozenset[str] = frozenset()


class Rule(Generic[OptionsT]):
    """Base of all rules. Subclasses are decorated with `@rule(...)`, which fills `meta`."""

    meta: ClassVar[RuleMeta]
    Options: ClassVar[type[RuleOptions]] = RuleOptions
    #: KeyFact fields this rule needs a source to probe (drives the ProbePlan's `key_fields`).
    needs: ClassVar[frozenset[str]] = frozenset()
    #: Parts of the server it reads besides INFO (`model.plan.SERVER_PARTS`; drives the plan's `server`).
    reads_server: ClassVar[frozenset[str]] = frozenset()
    #: Options of a declared namespace it checks (`ttl-min`, `type`...): an option that no rule of a run
    #: checks is reported in a note rather than silently ignored.
    reads_namespace: ClassVar[frozenset[str]] = frozenset()
    #: The rows of an overlap table that name this rule (`@rule(overlaps=...)`).
    overlaps: ClassVar[tuple[Overlap, ...]] = ()

    @classmethod
    def doc(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")


class NameRule(Rule[OptionsT]):
    """A rule on key names; evaluated once per (template, type, namespace) and memoised by the engine.

    Its violations say which bytes they are about (`Violation.spans`). `defers_to` names the rules that
    win over it on the bytes both report (from its overlap rows): when one of them is enabled and reports
    bytes this rule reports too, the engine asks `narrow` for what is left.
    """

    defers_to: ClassVar[frozenset[str]] = frozenset()

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[OptionsT]) -> Iterable[Violation]:
        raise NotImplementedError

    def narrow(
        self,
        violation: Violation,
        covered: Sequence[Span],
        key: KeyTemplate,
        key_type: str | None,
        ctx: RuleContext[OptionsT],
    ) -> Violation | None:
        """`violation` without what it says about the `covered` spans (`merge_spans` of what the winners
        report), or None when nothing is left. This keeps the uncovered spans under the same message, which
        suits a message that names no bytes; a rule whose message lists items rebuilds it from the rest."""
        left = tuple(span for span in violation.spans if not covered_by(span, covered))
        if not left:
            return None
        return replace(violation, spans=left)


class FactRule(Rule[OptionsT]):
    """A rule on one fact with its probed fields: it returns the one violation the fact shows, or None.

    Fact rules run on every key of a scan or a dump, so their protocol is the cheapest Python has: a plain
    call returning None (a generator costs three times as much per key even when it yields nothing). A fact
    breaks a rule at most once; the codes of a rule are alternatives. `types` names the key types the rule
    can say something about (None: any type), and the engine never calls it for other types.
    """

    types: ClassVar[frozenset[str] | None] = None
    #: For every key that passes `gate`, `check` returns the same verdict under one context (no field of the
    #: key shows in it): the compiled core then calls `check` once per template and counts the other keys.
    uniform: ClassVar[bool] = False

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[OptionsT]) -> Violation | None:
        raise NotImplementedError

    def gate(self, ctx: RuleContext[OptionsT]) -> Gate | None:
        """The keys this rule can report with these options and this context, as the compiled core tests them
        before calling `check` (`rules.gate`); None when no comparison of fields states it (every key of
        `types` is checked)."""
        return None


@dataclass(frozen=True, slots=True)
class AggregateResult:
    """What an aggregate rule reports for one pattern: the violation, how many keys, a few examples."""

    pattern: bytes
    violation: Violation
    count: int
    examples: tuple[Example, ...] = ()


#: An example an accumulator keeps, with the part of the run its key came from (`Accumulator.part`).
PartExample = tuple[int, Example]


class Accumulator:
    """Bounded state of an aggregate rule for one part of a run (a dump, a node; the whole run when it has one).

    Accumulators of the parts of a run merge (`merge`) into what one accumulator fed every part in order gives,
    as long as no part reached the accumulator's bounds (its documented caps; past them a merged result keeps
    the rule's guarantees, never inventing a finding, but may differ from one pass). `part` is the index of the
    part whose facts it is fed (the engine sets it): the examples it keeps carry it, so that a merge keeps the
    earliest ones whichever order the parts are merged in.
    """

    part: int = 0
    #: The keys `add` can change anything for, as the compiled core tests them before calling it (`rules.gate`);
    #: None: every key of a relevant template is added.
    gate: ClassVar[Gate | None] = None

    def add(self, fact: KeyFact, pattern: bytes) -> None:
        raise NotImplementedError

    def twin_add(self) -> Callable[[KeyFact, bytes], None] | None:
        """A compiled callable that does what `add` does to this accumulator, for the compiled engine kernel to
        call instead; None (the default) when there is none or the compiled core is off."""
        return None

    def merge(self, other: Accumulator) -> None:
        """Fold the accumulator of another part (same rule, same options) into this one; `other` is spent."""
        raise NotImplementedError

    def finish(self) -> Iterable[AggregateResult]:
        raise NotImplementedError


def earliest(first: list[PartExample], second: list[PartExample], limit: int) -> list[PartExample]:
    """The first `limit` examples of two lists, each in arrival order within its parts: by part, what one pass
    over the parts in order keeps (two lists never hold examples of the same part)."""
    if not second:
        return first[:limit]
    if not first:
        return second[:limit]
    return sorted(first + second, key=_part)[:limit]


def _part(example: PartExample) -> int:
    return example[0]


def prune_table(table: dict[bytes, EntryT], weight: Callable[[EntryT], int]) -> None:
    """Make room in an accumulator's bounded table (per pattern, per tag): drop, in place, the entries whose
    weight (keys counted so far) is at most the lower quartile's, a quarter of the table at least; the others
    keep their order. Heavy entries survive, and a dropped entry that comes back counts again from zero, so
    a rule judging counts can only miss a finding this way, never invent one."""
    totals = sorted(weight(entry) for entry in table.values())
    cutoff = totals[len(totals) // 4]
    for key in [key for key, entry in table.items() if weight(entry) <= cutoff]:
        del table[key]


def merge_table(
    mine: dict[bytes, EntryT],
    theirs: dict[bytes, EntryT],
    capacity: int,
    weight: Callable[[EntryT], int],
    combine: Callable[[EntryT, EntryT], None],
) -> None:
    """Fold another part's bounded table into `mine` as adding its keys would grow it: an entry both tables
    hold is combined into `mine`'s, a new one enters after `prune_table` has made room in a full table."""
    for key, entry in theirs.items():
        kept = mine.get(key)
        if kept is None:
            if len(mine) >= capacity:
                prune_table(mine, weight)
            mine[key] = entry
        else:
            combine(kept, entry)


def examples_of(kept: Iterable[PartExample]) -> tuple[Example, ...]:
    return tuple(example for _part, example in kept)


class AggregateRule(Rule[OptionsT]):
    """A rule over many facts. `relevant` is asked once per template; only relevant facts are added."""

    def relevant(self, key: KeyTemplate, ctx: RuleContext[OptionsT]) -> bool:
        return True

    def accumulator(self, ctx: RuleContext[OptionsT]) -> Accumulator:
        raise NotImplementedError


class CommandRule(Rule[OptionsT]):
    """A rule on one command (name and, when known, arguments).

    `commands` names the commands the rule judges, as `CommandFact` names them (`keys`, `config|set`; a
    command with subcommands, `module`, stands for all of them); the engine offers the rule only facts
    about those. A rule whose list is an option overrides `judged`; a rule on every command declares
    ANY_COMMAND.
    """

    commands: ClassVar[frozenset[str]] = frozenset()

    def judged(self, options: OptionsT) -> frozenset[str]:
        """The commands judged with these options (the engine asks once per run)."""
        return self.commands

    def check(self, fact: CommandFact, ctx: RuleContext[OptionsT]) -> Iterable[Violation]:
        raise NotImplementedError


class CallRule(Rule[OptionsT]):
    """A rule on one call in source code (`CodeCall`): how a command is sent, not just which one.

    TTL on the write that creates a key, batch and pipeline sizes, loops, blocking timeouts: what only the
    call site shows. `ctx.namespace` is the declared namespace of the call's first key, when it has one.
    """

    def check(self, call: CodeCall, ctx: RuleContext[OptionsT]) -> Iterable[Violation]:
        raise NotImplementedError


class InstanceRule(Rule[OptionsT]):
    """A rule on a whole server, run once at the end with the keyspace statistics of the scan.

    `keyspace` is None when no key was probed (the scan was stopped, or a config-only source). Violations
    become findings about the server; set `Violation.value` to the measured quantity.
    """

    reads_server = frozenset({SERVER_CONFIG})

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[OptionsT]
    ) -> Iterable[Violation]:
        raise NotImplementedError


@dataclass(slots=True)
class SubjectViolation:
    """A cluster or traffic rule's violation with what it is about: `subject` names it in the finding
    (`shard 10.0.0.5:7001`, `slot 866`, a setting, a client) and `example`, when given, is shown as its
    example (a hashtag's bytes, a shard's address, a key)."""

    violation: Violation
    subject: str
    example: bytes | None = None


class ClusterRule(Rule[OptionsT]):
    """A rule on a whole cluster, run once at the end of a cluster scan with what every shard's scan found.

    Violations become findings about the cluster, one per (code, subject); set `Violation.value` to the
    measured quantity (a ratio, a share, a count).
    """

    def check(self, cluster: ClusterView, ctx: RuleContext[OptionsT]) -> Iterable[SubjectViolation]:
        raise NotImplementedError


class TrafficRule(Rule[OptionsT]):
    """A rule on what a server was sent during an observation window (`rediscipline traffic`), run once at
    the end of the run with the whole window (`TrafficView`): its clients, commands and slow calls.

    Violations become findings about the server, one per (code, subject); set `Violation.value` to the
    measured quantity (channels, bytes, calls per second).
    """

    def check(self, traffic: TrafficView, ctx: RuleContext[OptionsT]) -> Iterable[SubjectViolation]:
        raise NotImplementedError


class SimulationRule(Rule[OptionsT]):
    """A rule on what a simulator predicts (`rediscipline simulate`), run once at the end of the run with the
    whole simulation (`EvictionSimulation`): every policy and size replayed.

    Violations become findings about the simulated input, one per (code, subject); set `Violation.value` to
    the predicted quantity (points of hit ratio, errors).
    """

    def check(self, simulation: EvictionSimulation, ctx: RuleContext[OptionsT]) -> Iterable[SubjectViolation]:
        raise NotImplementedError


class ExpiryRule(Rule[OptionsT]):
    """A rule on what the expiry simulator predicts (`rediscipline simulate expiry`), run once at the end of the
    run with the whole simulation (`ExpirySimulation`): every database's series and the cycle's cost per step.

    Violations become findings about the simulated keyspace, one per (code, subject); set `Violation.value`
    to the predicted quantity (a share of memory, seconds of storm).
    """

    def check(self, simulation: ExpirySimulation, ctx: RuleContext[OptionsT]) -> Iterable[SubjectViolation]:
        raise NotImplementedError


class SuppressionRule(Rule[OptionsT]):
    """A rule on suppression comments that suppressed nothing, run after suppressions were applied.

    `unused` holds what one directive left unused, in the order of its codes (`code` None: the whole
    directive); `ctx.catalog` and `ctx.enabled` say which rules exist and which ran.
    """

    def check(self, unused: Sequence[UnusedSuppression], ctx: RuleContext[OptionsT]) -> Iterable[Violation]:
        raise NotImplementedError


def rule(
    id: str,
    slug: str,
    *,
    title: tuple[str, str],
    severity: Severity,
    where: tuple[str, ...],
    sources: tuple[str, ...],
    overlaps: Iterable[Overlap] = (),
) -> Callable[[type[Any]], type[Any]]:
    """Attach metadata to a rule class; validates the id format and the `where` names.

    The meta's `citations` hold the sentence of each source, from the table `rules.citations` reads once.

    `overlaps` is an overlap table (the whole table: the rows naming this rule are kept): they set
    `defers_to` and are written as the doc's `Overlaps` section.
    """
    match = _ID.fullmatch(id)
    if match is None or match.group(1) not in FAMILIES:
        raise ValueError(f"bad rule id {id!r}")
    unknown = set(where) - set(WHERE)
    if unknown:
        raise ValueError(f"{id}: unknown check locations {sorted(unknown)}")

    mine = tuple(row for row in overlaps if id in row.rules)

    def decorate(cls: type[Any]) -> type[Any]:
        doc = inspect.cleandoc(cls.__doc__ or "")
        if mine:
            cls.overlaps = mine
            cls.defers_to = frozenset(row.winner for row in mine if row.winner is not None and row.winner != id)
            doc += "\n\n" + overlaps_section(id, mine)
        zh_overlaps = overlaps_section(id, mine, "zh") if mine else ""
        cls.meta = RuleMeta(
            id=id,
            slug=slug,
            family=match.group(1),
            title=Text(*title),
            severity=severity,
            where=where,
            sources=sources,
            doc=doc,
            family_title=FAMILIES[match.group(1)],
            citations=citations_for(id, sources),
            doc_zh=ChineseDoc(id, zh_overlaps),
        )
        return cls

    return decorate


def overlaps_section(rule_id: str, rows: Sequence[Overlap], lang: str = "en") -> str:
    """The `Overlaps` section of a rule's doc in `lang`, written from its overlap rows."""
    if lang == "zh":
        lines = [
            f"## {HEADINGS_ZH[OVERLAPS_SECTION]}",
            "可能与本规则报告键名中同一段字节的规则，以及由谁报告这些字节：",
        ]
    else:
        lines = [
            f"## {OVERLAPS_SECTION}",
            "Rules that can report the same bytes of a name as this one, and which of them reports those bytes:",
        ]
    for row in rows:
        other = row.other(rule_id)
        if row.winner == rule_id:
            head = Text(
                f"Wins over {other} on the bytes both report (`{row.example}`): only this rule reports them.",
                f"在两者都报告的字节上优先于 {other}（`{row.example}`）：只由本规则报告。",
            )
        elif row.winner == other:
            head = Text(
                f"Yields to {other} on the bytes both report (`{row.example}`): only {other} reports them while "
                "it is enabled; this rule still reports the bytes only it sees.",
                f"在两者都报告的字节上让位于 {other}（`{row.example}`）：{other} 启用时只由它报告；"
                "只有本规则发现的字节仍由本规则报告。",
            )
        else:
            head = Text(
                f"Reports alongside {other} (`{row.example}`): both report, for different reasons.",
                f"与 {other} 同时报告（`{row.example}`）：两者出于不同的原因都会报告。",
            )
        lines.append(f"- {head.in_(lang)}{'' if lang == 'zh' else ' '}{row.reason.in_(lang)}")
    return "\n".join(lines)


def doc_sections(doc: str) -> dict[str, str]:
    """Split a rule docstring into its `## Section` bodies."""
    sections: dict[str, str] = {}
    current: str | None = None
    lines: list[str] = []
    for line in doc.splitlines():
        if line.startswith("## "):
            if current is not None:
                sections[current] = "\n".join(lines).strip()
            current, lines = line[3:].strip(), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        sections[current] = "\n".join(lines).strip()
    return sections


_OPTION_BULLET = re.compile(r"^\s*[-*]\s+`([a-z0-9-]+)`", re.M)


def documented_options(doc: str) -> tuple[str, ...]:
    """Option names listed as ``- `name` `` bullets in the Options section."""
    return tuple(_OPTION_BULLET.findall(doc_sections(doc).get("Options", "")))


@dataclass(frozen=True, slots=True)
class ConfiguredRule:
    """A rule enabled by the settings, with validated options and its effective severity.

    `forced` is True when the user set `severity` explicitly: it then overrides the per-violation
    severities a rule chooses itself (e.g. key-length's note/warning/error levels).
    """

    rule: Rule[Any]
    options: RuleOptions
    severity: Severity
    forced: bool = False

    @property
    def id(self) -> str:
        return self.rule.meta.id
