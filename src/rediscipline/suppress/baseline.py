"""The baseline: findings a legacy code base already has, so a run fails only on new ones.

The file is JSON, sorted so that it diffs well in review::

    {"version": 1, "tool": "rediscipline", "created": "2025-06-01",
     "findings": [{"fingerprint": "…", "rule": "CMD001", "code": "keys", "path": "app/cache.py",
                   "message": "…"}]}

Only `fingerprint` decides a match; the other fields are there for the humans reading the file. Findings
are matched as a multiset: two identical findings baselined let two stay hidden, and a third is new.
Code fingerprints come from the rule, the file and the statement, not the line, so moved code still
matches (see `engine.fingerprint.site_fingerprint`); a key-name fact in a file has one fingerprint for all
its places (`file_pattern_fingerprint`), so it stays hidden however its places move or multiply.

A run matches in two steps through one `Matching` (one budget): the places before they are folded into
facts, which is how baselines written when each place was its own finding still match, then the findings
as reported.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

from rediscipline.model.finding import Finding
from rediscipline.settings.errors import ConfigError
from rediscipline.suppress.paths import relative_path

VERSION = 1
TOOL = "rediscipline"
_ENTRY_FIELDS = ("fingerprint", "rule", "code", "path", "message")


@dataclass(frozen=True, slots=True)
class BaselineEntry:
    fingerprint: str
    rule: str
    code: str
    path: str | None
    message: str


class Filtered(NamedTuple):
    """`new`: findings not in the baseline; `matched`: how many were; `fixed`: baselined ones not seen."""

    new: list[Finding]
    matched: int
    fixed: int


@dataclass(frozen=True, slots=True)
class Baseline:
    path: str
    created: str
    entries: tuple[BaselineEntry, ...]

    def filter(self, findings: Iterable[Finding]) -> Filtered:
        """Hide the baselined findings, each fingerprint as many times as the baseline holds it."""
        matching = self.matching()
        new = matching.hide(findings)
        return Filtered(new, matching.matched, matching.fixed)

    def matching(self) -> Matching:
        """A budget of this baseline's entries to spend over several steps of one run."""
        return Matching(Counter(entry.fingerprint for entry in self.entries))


@dataclass(slots=True)
class Matching:
    """What is left of a baseline's entries while a run spends them (see the module docstring)."""

    budget: Counter[str]
    matched: int = 0

    def hide(self, findings: Iterable[Finding]) -> list[Finding]:
        """The findings the budget does not hold; each one it holds spends one entry."""
        budget = self.budget
        new: list[Finding] = []
        for finding in findings:
            if budget[finding.fingerprint] > 0:
                budget[finding.fingerprint] -= 1
                self.matched += 1
            else:
                new.append(finding)
        return new

    @property
    def fixed(self) -> int:
        """Entries no finding spent: problems no longer seen."""
        return sum(self.budget.values())


def baseline_entries(findings: Iterable[Finding], root: str | None = None) -> list[BaselineEntry]:
    """The entries of `findings`, paths relative to `root`, in the file's order (path, rule, code, …)."""
    entries = [
        BaselineEntry(
            fingerprint=f.fingerprint,
            rule=f.rule_id,
            code=f.code,
            path=relative_path(f.location.path, root) if f.location.path is not None else None,
            message=f.message.en,
        )
        for f in findings
    ]
    entries.sort(key=lambda e: (e.path or "", e.rule, e.code, e.message, e.fingerprint))
    return entries


def write_baseline(
    findings: Iterable[Finding], path: Path, *, root: str | None = None, created: date | None = None
) -> int:
    """Write the baseline of `findings` to `path` atomically; returns how many findings it holds.

    Absolute finding paths under `root` (default: the working directory) are written relative to it.
    A non-UTF-8 file name is kept as a `\\udcXX` escape, which reads back to the same string.
    """
    entries = baseline_entries(findings, root if root is not None else os.getcwd())
    document: dict[str, Any] = {
        "version": VERSION,
        "tool": TOOL,
        "created": (created or datetime.now(timezone.utc).date()).isoformat(),
        "findings": [{name: getattr(entry, name) for name in _ENTRY_FIELDS} for entry in entries],
    }
    data = (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8", "backslashreplace")
    folder = path.parent if str(path.parent) else Path(".")
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, _mode(path))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(entries)


def _mode(path: Path) -> int:
    """The permissions to give the new file: the old file's, else rw-r--r-- (a temp file starts rw-------)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o644


def load_baseline(path: Path) -> Baseline:
    """Read a baseline file; raises a one-line ConfigError naming the file when it is not one."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the baseline: {error.strerror or error}") from None
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a rediscipline baseline (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise ConfigError(
            f"{path}: not a rediscipline baseline (bad JSON at line {error.lineno} column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise ConfigError(f"{path}: not a rediscipline baseline (JSON nested too deeply)") from None
    if not isinstance(document, dict) or document.get("tool") != TOOL:
        raise ConfigError(f'{path}: not a rediscipline baseline (no "tool": "{TOOL}")')
    version = document.get("version")
    if version != VERSION:
        raise ConfigError(
            f"{path}: baseline version {_one_line(version)} is not supported (expected {VERSION}); "
            "recreate it with `rediscipline baseline create`"
        )
    items = document.get("findings")
    if not isinstance(items, list):
        raise ConfigError(f'{path}: baseline has no "findings" list')
    entries = tuple(_entry(item, index, path) for index, item in enumerate(items))
    created = document.get("created")
    return Baseline(str(path), created if isinstance(created, str) else "", entries)


def _entry(item: Any, index: int, path: Path) -> BaselineEntry:
    if not isinstance(item, dict) or not isinstance(item.get("fingerprint"), str) or not item["fingerprint"]:
        raise ConfigError(f"{path}: baseline finding {index + 1} has no fingerprint")
    texts = {name: item.get(name) for name in _ENTRY_FIELDS}
    return BaselineEntry(
        fingerprint=item["fingerprint"],
        rule=texts["rule"] if isinstance(texts["rule"], str) else "",
        code=texts["code"] if isinstance(texts["code"], str) else "",
        path=texts["path"] if isinstance(texts["path"], str) else None,
        message=texts["message"] if isinstance(texts["message"], str) else "",
    )


def _one_line(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:39] + "…"


__all__ = ["Baseline", "BaselineEntry", "Filtered", "baseline_entries", "load_baseline", "write_baseline"]
