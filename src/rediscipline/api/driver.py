"""The one driver every command goes through: sources → engine → suppressions → facts → baseline → Report.

`run` narrows the enabled rules to those that can be checked where the given sources look (a rule's `where`),
plans what the sources read (`engine.plan`), feeds the engine through its one entry, applies inline
suppressions and per-file ignores place by place, has the engine judge the suppressions that suppressed
nothing (SUP001), folds the places of one key-name fact in a file into one finding (`engine.folding`), tells
test code apart and applies the `tests` mode (`suppress.test_code`), hides what the baseline records (for
every command: code, key lists, servers and dumps alike), ranks the findings and builds the Report. The
engine's result is never changed: the report is built beside it.

A source of several parts read at once (`model.source.PartedSource`: the dumps of one scan) gives each part an
engine of its own; a `JobSource` (the shards of a cluster) hands out its parts as jobs, each read with an
engine of its own wherever the executor runs it (`api.parts`). Once every source is read, the partials are
merged into the run's engine in part order, the job sources settle (a cluster's view), and the engine finishes
the run as if it had been fed every part in order (`engine.partial`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from rediscipline import __version__
from rediscipline.api.parts import EngineSpec, PartTask, consume, run_tasks
from rediscipline.engine.folding import fold_key_sites
from rediscipline.engine.libraries import LibraryPolicy, default_catalog
from rediscipline.engine.runner import Engine, EngineResult
from rediscipline.model.finding import CONTEXT_TEST, Finding
from rediscipline.model.location import SOURCE_CODE, SOURCE_RUNTIME, SOURCE_SIMULATION
from rediscipline.model.note import Note, note
from rediscipline.model.report import LAYOUT_PATTERNS, LAYOUT_SITES, Report, RunInfo, ServerSummary, Stats
from rediscipline.model.source import Fact, JobSource, JudgedSource, PartedSource, PartRun, Source, SourceOutcome
from rediscipline.rules import default_registry
from rediscipline.rules.base import WHERE, ConfiguredRule
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.namespaces import options_set

if TYPE_CHECKING:
    from rediscipline.api.executors import Executor
    from rediscipline.engine.partial import Partial
    from rediscipline.suppress.baseline import Baseline


def run(
    sources: Sequence[Source | JobSource | JudgedSource],
    settings: Settings,
    *,
    command: str,
    registry: Registry | None = None,
    baseline: Baseline | None = None,
    summary: bool = False,
    inputs: Sequence[str] | None = None,
    root: str | None = None,
    executor: Executor | None = None,
) -> Report:
    """Check `sources` against `settings` and return the finished report.

    `command` names the run in the report (`check`, `scan`, `keys`); `baseline` hides the findings it
    records; `summary` asks live sources for the full keyspace summary's probes; `inputs` overrides what the
    header names (default: every source's inputs); `root` is what per-file-ignore globs are relative to
    (default: the convention file's folder, else the working directory); `executor`: where the parts of a
    `JobSource` are read (default: here, one after another).
    """
    registry = registry or default_registry()
    places = {source.place for source in sources}
    spec = engine_spec(settings, places, registry, summary=summary)
    checkable = spec.rules
    engine = spec.engine(0)
    partials: list[Partial] = []
    after_parts: list[Iterator[Fact]] = []
    for source in sources:
        first = max((partial.part for partial in partials), default=0) + 1
        if isinstance(source, JobSource):
            jobs = source.jobs(engine.plan)
            tasks = [PartTask(job, spec, index, first + index, source.sharded) for index, job in enumerate(jobs)]
            results = run_tasks(tasks, executor, source.part_done)
            partials += [result.partial for result in results if result.partial is not None]
            after_parts.append(source.settle([result.report for result in results]))
        elif isinstance(source, JudgedSource):
            partials.append(cast("Partial", source.judged()))
        elif isinstance(source, PartedSource):
            partials += [part.partial() for part in _consume_parts(source.runs(engine.plan), spec.engine, first)]
        else:
            consume(engine.consume, source.facts(engine.plan))
    for partial in sorted(partials, key=lambda partial: partial.part):
        engine.merge(partial)
    for facts in after_parts:
        engine.consume(facts)
    result = engine.finish(sources[0].place if sources else "keys")
    outcomes = [source.outcome() for source in sources]
    notes = [n for outcome in outcomes for n in outcome.notes]
    if places != {SOURCE_SIMULATION}:  # a simulation has its own rules: the others are for other inputs
        notes += _unchecked(settings, checkable, places, registry)
    kept, more_notes = _filter(engine, result, settings=settings, registry=registry, baseline=baseline, root=root)
    counts_keys = any(source.counts_keys for source in sources)
    notes += more_notes + _data_notes(result, counts_keys)
    shown = tuple(inputs) if inputs is not None else tuple(i for source in sources for i in source.inputs)
    run_info = RunInfo(
        tool_version=__version__,
        command=command,
        inputs=shown,
        preset=settings.preset,
        overlays=settings.overlays,
        config_file=settings.config_file,
        rules_enabled=len(checkable),
        layout=LAYOUT_PATTERNS if counts_keys else LAYOUT_SITES,
        root=_base(root, settings),
    )
    return _report(result, kept, registry, run_info=run_info, notes=notes, outcomes=outcomes)


def _base(root: str | None, settings: Settings) -> str:
    """The folder relative paths of findings are relative to: `root`, else the convention file's, else here."""
    return os.path.realpath(root if root is not None else settings.root if settings.root is not None else os.getcwd())


def engine_spec(
    settings: Settings, places: Iterable[str], registry: Registry | None = None, *, summary: bool = False
) -> EngineSpec:
    """How the engines of a run over sources of `places` are configured: the enabled rules that can be
    checked there (a rule's `where`), the namespaces, ignores and library policy of `settings`."""
    registry = registry or default_registry()
    places = set(places)
    checkable = tuple(r for r in settings.rules if places.intersection(r.rule.meta.where))
    catalog = {cls.meta.id: cls.meta for cls in registry}
    enabled = frozenset(r.id for r in settings.rules)
    # Python code (read, or running) writes the keys of Python libraries; servers and dumps hold every language's.
    python = bool(places & {SOURCE_CODE, SOURCE_RUNTIME})
    libraries = LibraryPolicy(
        default_catalog("python" if python else None), settings.library_keys, settings.library_modes
    )
    return EngineSpec(
        checkable,
        tuple(settings.namespaces),
        dict(settings.key_ignores),
        settings.pattern_cap,
        summary,
        catalog,
        enabled,
        libraries,
    )


def _consume_parts(runs: Iterator[PartRun], engine_for: Callable[[int], Engine], first: int) -> list[Engine]:
    """Feed each part of a parted source to an engine of its own (parts `first`, `first + 1`... in the
    source's order); returns the engines in that order."""
    engines: dict[int, Engine] = {}

    def take(items: Iterable[PartRun]) -> None:
        for index, facts in items:
            engine = engines.get(index)
            if engine is None:
                engine = engines[index] = engine_for(first + index)
            engine.consume(facts)

    consume(take, runs)
    return [engines[index] for index in sorted(engines)]


def _unchecked(
    settings: Settings, checkable: Sequence[ConfiguredRule], places: set[str], registry: Registry
) -> list[Note]:
    """Enabled rules that cannot be checked where these sources look, and namespace options only such rules
    check (a `ttl-min` while only key lists are read)."""
    ids = {r.id for r in checkable}
    skipped = [r for r in settings.rules if r.id not in ids]
    notes: list[Note] = []
    if skipped:
        wheres = {place for r in skipped for place in r.rule.meta.where} - places
        order = {place: index for index, place in enumerate(WHERE)}
        shown = tuple(sorted(wheres, key=lambda place: order.get(place, len(order))))
        notes.append(note("rules-not-checked", rules=tuple(sorted(r.id for r in skipped)), places=shown))
    readers: dict[str, list[str]] = {}
    for cls in registry:
        for option in cls.reads_namespace:
            readers.setdefault(option, []).append(cls.meta.id)
    for policy in settings.namespaces:
        for option in options_set(policy):
            rules = readers.get(option, [])
            if rules and not ids.intersection(rules):
                notes.append(
                    note("namespace-option-unchecked", namespace=policy.pattern, option=option, rules=tuple(rules))
                )
    return notes


def _filter(
    engine: Engine,
    result: EngineResult,
    *,
    settings: Settings,
    registry: Registry,
    baseline: Baseline | None,
    root: str | None,
) -> tuple[list[Finding], list[Note]]:
    """The findings left after suppressions (and SUP001's findings on the unused ones) and the baseline, folded
    per fact, each in a file with its context (test code or not) and what the `tests` mode keeps of them."""
    notes: list[Note] = []
    kept = list(result.findings)
    base = _base(root, settings)
    if result.directives or settings.file_ignores:  # nothing to suppress otherwise (key lists, servers, dumps)
        from rediscipline.suppress.apply import suppress

        directives = {file.path: file for file in result.directives}
        suppressed = suppress(kept, directives, settings.file_ignores, registry.resolve, root=base)
        kept = suppressed.kept + list(engine.judge_suppressions(suppressed.unused))
        if suppressed.suppressed:
            notes.append(note("suppressed", findings=suppressed.suppressed))
    if baseline is None:
        kept = fold_key_sites(kept)
    else:  # places first (a baseline may hold the places of a fact one by one), then the folded facts
        matching = baseline.matching()
        kept = matching.hide(fold_key_sites(matching.hide(kept)))
        notes.append(note("baseline", path=baseline.path, matched=matching.matched, fixed=matching.fixed))
    if any(f.location.path is not None for f in kept):
        from rediscipline.suppress.test_code import TestPaths, split_tests

        split = split_tests(kept, TestPaths(settings.test_paths, base), settings.tests)
        kept = split.kept
        if split.left_out:
            notes.append(note("tests-left-out", findings=split.left_out, mode=settings.tests))
    return kept, notes


def _data_notes(result: EngineResult, counts_keys: bool) -> list[Note]:
    stats = result.stats
    notes: list[Note] = []
    if counts_keys and stats.keys == 0:
        notes.append(note("no-keys"))
    if stats.overflow_keys:
        notes.append(note("pattern-cap", cap=stats.pattern_cap, keys=stats.overflow_keys))
    unreadable = result.unreadable
    if unreadable is not None:
        patterns = tuple((p.pattern, p.count) for p in unreadable.patterns)
        notes.append(note("unreadable-keys", keys=unreadable.keys, patterns=patterns, rules=unreadable.rules))
    return notes


def _report(
    result: EngineResult,
    findings: Iterable[Finding],
    registry: Registry,
    *,
    run_info: RunInfo,
    notes: list[Note],
    outcomes: Sequence[SourceOutcome],
) -> Report:
    """Findings ranked (`_rank`) from the engine's order (key lists, servers, dumps) or from file order (code,
    config files); the server summary and memory model the sources gave; no score for places in files,
    which are not keys."""
    counts_keys = run_info.layout == LAYOUT_PATTERNS
    given = list(findings) if counts_keys else sorted(findings, key=_file_order)
    ordered = tuple(sorted(given, key=_rank))
    fired = {f.rule_id for f in ordered}
    metas = {cls.meta.id: cls.meta for cls in registry if cls.meta.id in fired}
    return Report(ordered, metas, run_info, _stats(result, outcomes, counts_keys), tuple(notes))


def _stats(result: EngineResult, outcomes: Sequence[SourceOutcome], counts_keys: bool) -> Stats:
    stats = result.stats
    server: ServerSummary | None = next((o.server for o in outcomes if o.server is not None), None)
    if server is not None and result.unreadable is not None:
        server = replace(server, unreadable=result.unreadable)
    keyspace = stats.keyspace
    model = next((o.memory_model for o in outcomes if o.memory_model is not None), None)
    if keyspace is not None and model is not None:
        keyspace = replace(keyspace, memory_model=model)
    return replace(stats, server=server, keyspace=keyspace, score=stats.score if counts_keys else None)


def _rank(finding: Finding) -> tuple[int, bool, int]:
    """What is most worth fixing first: the most severe, in library code before test code, shared by the
    most keys or places. Python's sort is stable: ties keep the order they were given in."""
    return -finding.severity, finding.context == CONTEXT_TEST, -finding.count


def _file_order(finding: Finding) -> tuple[str, int, int, str]:
    location = finding.location
    return (location.path or "", location.line or 0, location.column or 0, finding.rule_id)
