"""Check application code (and server config files) before it ships: `rediscipline check PATH...`.

Python files give call sites, commands and key templates; the rules that can be checked on code judge them,
one finding per place. `redis.conf` and ACL files named on the command line are audited by the config rules.
Then inline suppressions, per-file ignores and the baseline decide what is left to report (`driver.run`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rediscipline.api.defaults import baseline_at, settings_for
from rediscipline.api.driver import run
from rediscipline.model.report import Report
from rediscipline.model.source import Source
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.checked_files import split_files
from rediscipline.sources.code.files import FileSelection, find_files
from rediscipline.sources.code.source import CodeSource, ParseProblem
from rediscipline.sources.config.source import ConfigSource


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
    baseline = baseline_at(options.baseline) if apply_baseline else None
    if root is None and settings.root is not None:
        root = Path(settings.root)  # paths relative to the project (the convention file's folder), as SARIF wants
    python, configs = split_files(find_files(options.targets, options.selection, root))
    code = CodeSource(python, count_note=not configs)
    sources: list[Source] = [code] if python or not configs else []
    if configs:
        sources.append(ConfigSource(configs))
    report = run(
        sources,
        settings,
        command="check",
        registry=registry,
        baseline=baseline,
        inputs=options.targets,
        root=str(root or Path.cwd()),
    )
    return CodeCheckResult(report, tuple(code.problems), len(python) + len(configs))
