"""Check application code (and server config files) before it ships: `rediscipline check PATH...`.

Python files give call sites, commands and key templates; the rules that can be checked on code judge them,
one finding per place. `redis.conf` and ACL files named on the command line are audited by the config rules.
Then inline suppressions, per-file ignores and the baseline decide what is left to report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rediscipline.api.common import build_report, new_engine, settings_for
from rediscipline.engine.runner import Engine
from rediscipline.model.code import FileDirectives
from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_CODE, SOURCE_CONFIG
from rediscipline.model.report import Report
from rediscipline.model.text import Text
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.code.files import PYTHON_SUFFIXES, FileSelection, SourceFile, find_files
from rediscipline.sources.code.source import ParsedFile, ParseProblem, parse_python, read_project
from rediscipline.sources.config import HEAD_BYTES, config_kind, read_config_file
from rediscipline.sources.errors import SourceError
from rediscipline.suppress.apply import suppress
from rediscipline.suppress.baseline import Baseline, load_baseline
from rediscipline.suppress.unused import unused_findings


@dataclass(frozen=True, slots=True)
class CodeCheckOptions:
    targets: tuple[str, ...]  # files and folders
    selection: FileSelection = field(default_factory=FileSelection)
    baseline: Path | None = None  # hide the findings recorded in this baseline file


@dataclass(frozen=True, slots=True)
class CodeCheckResult:
    """The report, plus the files that could not be parsed (the CLI prints them and exits with 2)."""

    report: Report
    problems: tuple[ParseProblem, ...] = ()
    files: int = 0


def check_code(
    options: CodeCheckOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    root: Path | None = None,
    apply_baseline: bool = True,
) -> CodeCheckResult:
    """Check Python files and config files; see the module docstring."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    baseline = load_baseline(options.baseline) if options.baseline is not None and apply_baseline else None
    if root is None and settings.root is not None:
        root = Path(settings.root)  # paths relative to the project (the convention file's folder), as SARIF wants
    files = find_files(options.targets, options.selection, root)
    python, configs = _split(files)
    code_rules = replace(settings, rules=tuple(r for r in settings.rules if SOURCE_CODE in r.rule.meta.where))
    engine = new_engine(code_rules)
    problems, directives = _feed_python(python, engine)
    result = engine.finish(SOURCE_CODE)
    findings = list(result.findings)
    findings += _config_findings(configs, settings)
    root_text = str((root or Path.cwd()).resolve())
    suppressed = suppress(findings, directives, settings.file_ignores, registry, root=root_text)
    kept = suppressed.kept + unused_findings(suppressed.unused, settings.rules, registry)
    notes = _notes(len(python), len(configs), suppressed.suppressed, problems)
    if baseline is not None:
        kept, baseline_note = _filter_baseline(baseline, kept)
        notes.append(baseline_note)
    result.findings = sorted(kept, key=_file_order)
    report = build_report(result, settings, registry, "check", options.targets, notes=tuple(notes), count_keys=False)
    return CodeCheckResult(report, tuple(problems), len(python) + len(configs))


def _feed_python(python: Sequence[SourceFile], engine: Engine) -> tuple[list[ParseProblem], dict[str, FileDirectives]]:
    """Feed every Python file's facts to the engine; return the files that did not parse and the
    suppression comments by path.

    Two passes: the first parses every file and reads the declarations of the modules that may concern
    Redis against each other's (what each exports: clients, factories, classes, receiver evidence), so
    that the second resolves `from shop.extensions import cache` in the modules that import them.
    """
    problems: list[ParseProblem] = []
    parsed: list[ParsedFile] = []
    for source in python:
        read = parse_python(source)
        if isinstance(read, ParseProblem):
            problems.append(read)
            continue
        parsed.append(read)
    project, declarations, forced = read_project(parsed)
    directives: dict[str, FileDirectives] = {}
    for file in parsed:
        facts = file.facts(project, declarations.get(file.source.shown), forced)
        if isinstance(facts, ParseProblem):
            problems.append(facts)
            continue
        directives[file.source.shown] = facts.directives
        for key in facts.facts.keys:
            engine.feed(key)
        for command in facts.facts.commands:
            engine.feed_command(command)
        for call in facts.facts.calls:
            engine.feed_call(call)
    return problems, directives


def _split(files: Sequence[SourceFile]) -> tuple[list[SourceFile], list[tuple[SourceFile, str]]]:
    """Python files, and config files with their kind; a named file that is neither is an error."""
    python: list[SourceFile] = []
    configs: list[tuple[SourceFile, str]] = []
    for source in files:
        if source.path.suffix in PYTHON_SUFFIXES:
            python.append(source)
            continue
        kind = config_kind(source.path, _head(source.path))
        if kind is not None:
            configs.append((source, kind))
        elif source.explicit:
            raise SourceError(f"cannot check {source.shown}: not a Python file, a redis.conf or an ACL file")
        else:
            python.append(source)  # matched an --include glob: read as Python
    return python, configs


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as stream:
            return stream.read(HEAD_BYTES)
    except OSError as error:
        raise SourceError(f"cannot read {path}: {error.strerror or error}") from None


def _config_findings(configs: Sequence[tuple[SourceFile, str]], settings: Settings) -> list[Finding]:
    """Each config file is one server: its own engine runs the config rules on what the file sets."""
    config_rules = replace(settings, rules=tuple(r for r in settings.rules if SOURCE_CONFIG in r.rule.meta.where))
    findings: list[Finding] = []
    for source, kind in configs:
        engine: Engine = new_engine(config_rules)
        engine.set_server(read_config_file(source.path, source.shown, kind))
        findings += engine.finish(SOURCE_CONFIG).findings
    return findings


def _filter_baseline(baseline: Baseline, findings: list[Finding]) -> tuple[list[Finding], Text]:
    filtered = baseline.filter(findings)
    note = Text(
        f"baseline {baseline.path}: {filtered.matched} known finding(s) hidden, {filtered.fixed} no longer seen",
        f"基线 {baseline.path}：隐藏了 {filtered.matched} 个已知问题，{filtered.fixed} 个已不再出现",
    )
    return filtered.new, note


def _notes(python: int, configs: int, suppressed: int, problems: Sequence[ParseProblem]) -> list[Text]:
    notes = (
        [Text(f"{python} Python file(s) checked", f"检查了 {python} 个 Python 文件")] if python or not configs else []
    )
    if configs:
        notes.append(Text(f"{configs} config file(s) checked", f"检查了 {configs} 个配置文件"))
    if suppressed:
        notes.append(
            Text(
                f"{suppressed} finding(s) suppressed by comments or per-file-ignores",
                f"{suppressed} 个问题被注释或 per-file-ignores 抑制",
            )
        )
    if problems:
        notes.append(Text(f"{len(problems)} file(s) could not be parsed", f"{len(problems)} 个文件无法解析"))
    return notes


def _file_order(finding: Finding) -> tuple[str, int, int, str]:
    location = finding.location
    return (location.path or "", location.line or 0, location.column or 0, finding.rule_id)
