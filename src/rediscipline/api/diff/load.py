"""Reading a report file for `diff`: a `rediscipline.report` (single or cluster) or a `rediscipline.fleet`.

A report file is someone else's JSON: every field the comparison uses is checked for its type here, and a
file that is missing, is not JSON, is not a rediscipline report, or holds a field of the wrong type raises
`ReportFileError`, one line naming the file and the field. Sections a report may lack (`keyspace`,
`patterns`, `shards`, `server`, `rules`) read as None and are then left out of the diff; only `schema`,
`schema_version`, `summary` and `findings` (with each finding's `fingerprint`, `rule`, `code`, `severity`
and `count`) are required, and a fleet's `targets` with each target's `name` and `status`.
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from rediscipline.model.display import NAME_LIMIT, PATH_LIMIT, display_text
from rediscipline.model.fleet import FLEET_SCHEMA_VERSION
from rediscipline.model.location import FILE_SOURCES
from rediscipline.model.report import SCHEMA_VERSION
from rediscipline.model.report_diff import (
    SCHEMA_FLEET,
    SCHEMA_REPORT,
    FindingState,
    Place,
    RuleTitle,
    ShownName,
)
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.render.sites import is_file_path
from rediscipline.sources.errors import SourceError

#: The versions of each schema this rediscipline reads.
READABLE = {SCHEMA_REPORT: (SCHEMA_VERSION,), SCHEMA_FLEET: (FLEET_SCHEMA_VERSION,)}
_KIND = {SCHEMA_REPORT: "rediscipline report", SCHEMA_FLEET: "rediscipline fleet report"}
STATUS_OK = "ok"
STATUS_ERROR = "error"


class ReportFileError(SourceError):
    """A report file `diff` cannot read: missing, not JSON, not a rediscipline report, or not comparable."""


@dataclass(frozen=True, slots=True)
class FindingRow:
    """One finding of a report, as far as a comparison needs it."""

    fingerprint: str
    rule_id: str
    code: str
    message: Text
    state: FindingState
    pattern: ShownName | None
    subject: str | None
    place: Place | None


@dataclass(frozen=True, slots=True)
class PatternRow:
    name: ShownName
    keys: int
    memory: int | None


@dataclass(frozen=True, slots=True)
class ShardRow:
    shard_id: str
    address: str | None
    keys: int | None
    memory: int | None
    status: str | None


@dataclass(frozen=True, slots=True)
class ReportSnapshot:
    """What `diff` reads of one `rediscipline.report` document; None for a section the document lacks."""

    command: str | None
    score: int | None
    keys: int | None
    memory: int | None
    pattern_count: int | None
    findings: tuple[FindingRow, ...]
    patterns: tuple[PatternRow, ...] | None
    capped: bool
    partial: tuple[str, ...]
    shards: tuple[ShardRow, ...] | None
    rules: Mapping[str, RuleTitle]


@dataclass(frozen=True, slots=True)
class TargetRow:
    """One target of a fleet report: `report` is set when it was scanned (`status` ok)."""

    name: str
    tags: tuple[tuple[str, str], ...]
    error: str | None
    report: ReportSnapshot | None


@dataclass(frozen=True, slots=True)
class ReportFile:
    """A report file parsed: its schema and version, and the document, read further once both files agree."""

    shown: str  # the path as messages show it
    schema: str
    version: int
    document: dict[str, Any]


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(type(value), "a number")


class _Reader:
    """Typed access to one report document; every failure names the file and the field's path."""

    def __init__(self, shown: str, kind: str) -> None:
        self.shown = shown
        self.kind = kind

    def fail(self, where: str, what: str) -> NoReturn:
        """Raise the one line: the field's path comes from the file (rule ids, tag names), so it is escaped."""
        raise ReportFileError(f"{self.shown} is not a {self.kind}: `{display_text(where, NAME_LIMIT)}` {what}")

    def value(self, parent: Mapping[str, Any], key: str, where: str, kinds: tuple[type, ...], wanted: str) -> Any:
        """`parent[key]`, None when absent or null, else of one of `kinds` (never a bool for a number)."""
        value = parent.get(key)
        if value is None:
            return None
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            self.fail(f"{where}{key}", f"is {_type_name(value)}, not {wanted}")
        return value

    def text(self, parent: Mapping[str, Any], key: str, where: str) -> str | None:
        value: str | None = self.value(parent, key, where, (str,), "a string")
        return value

    def integer(self, parent: Mapping[str, Any], key: str, where: str) -> int | None:
        value: int | None = self.value(parent, key, where, (int,), "an integer")
        return value

    def number(self, parent: Mapping[str, Any], key: str, where: str) -> float | None:
        value: float | None = self.value(parent, key, where, (int, float), "a number")
        return value

    def section(self, parent: Mapping[str, Any], key: str, where: str) -> dict[str, Any] | None:
        value: dict[str, Any] | None = self.value(parent, key, where, (dict,), "an object")
        return value

    def items(self, parent: Mapping[str, Any], key: str, where: str) -> list[dict[str, Any]] | None:
        """A list of objects, None when absent."""
        value: list[Any] | None = self.value(parent, key, where, (list,), "a list")
        if value is None:
            return None
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(f"{where}{key}[{index}]", f"is {_type_name(item)}, not an object")
        return value

    def required(self, value: Any, where: str, wanted: str) -> Any:
        if value is None:
            self.fail(where, f"is missing (it must be {wanted})")
        return value

    def name(self, parent: Mapping[str, Any], field: str, where: str) -> ShownName | None:
        """A key pattern's `field`, `field_b64` and `field_length` (docs/json-report.md, "Key names are bytes")."""
        text = self.text(parent, field, where)
        if text is None:
            return None
        encoded = self.text(parent, f"{field}_b64", where)
        if encoded is not None:
            try:
                return ShownName(base64.b64decode(encoded, validate=True))
            except (binascii.Error, ValueError):
                self.fail(f"{where}{field}_b64", "is not base64")
        data = text.encode("utf-8", "surrogatepass")
        return ShownName(data, cut_length=self.integer(parent, f"{field}_length", where))


def read_document(path: str) -> tuple[str, Any]:
    """(the path as messages show it, the parsed JSON of the file at `path`; `-` is standard input)."""
    shown = "standard input" if path == "-" else display_text(path, PATH_LIMIT)
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as stream:
                raw = stream.read()
    except OSError as error:
        raise ReportFileError(f"cannot read {shown}: {error.strerror or error}") from None
    try:
        return shown, json.loads(raw)
    except UnicodeDecodeError:
        raise ReportFileError(f"{shown} is not JSON: it is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ReportFileError(
            f"{shown} is not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise ReportFileError(f"{shown} is not JSON a report could be: it is nested too deeply") from None


def schema_of(shown: str, document: Any) -> tuple[str, int]:
    """The document's (schema, schema_version); refuses a document that is not a rediscipline report."""
    if not isinstance(document, dict):
        raise ReportFileError(f"{shown} is not a rediscipline report: it holds {_type_name(document)}, not an object")
    schema = document.get("schema")
    if not isinstance(schema, str) or schema not in READABLE:
        seen = f"its schema is {display_text(schema, 80)!r}" if isinstance(schema, str) else "it has no `schema`"
        raise ReportFileError(f"{shown} is not a rediscipline report: {seen}")
    version = document.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ReportFileError(f"{shown} is not a rediscipline report: it has no integer `schema_version`")
    return schema, version


def check_readable(shown: str, schema: str, version: int) -> None:
    if version not in READABLE[schema]:
        known = ", ".join(str(v) for v in READABLE[schema])
        raise ReportFileError(f"{shown}: {schema} version {version} is not one this rediscipline reads ({known})")


def _place(reader: _Reader, finding: Mapping[str, Any], where: str) -> Place | None:
    location = reader.section(finding, "location", where)
    if location is None:
        return None
    inner = f"{where}location."
    source, path = reader.text(location, "source", inner), reader.text(location, "path", inner)
    if source not in FILE_SOURCES or path is None or not is_file_path(path):
        return None
    return Place(path, reader.integer(location, "line", inner))


def _bilingual(reader: _Reader, parent: Mapping[str, Any], one: str, both: str, where: str) -> Text:
    """`parent[both]` (`{"en", "zh"}`), a language it lacks taken from `parent[one]` (the run's language)."""
    plain = reader.text(parent, one, where) or ""
    texts = reader.section(parent, both, where) or {}
    en, zh = reader.text(texts, "en", f"{where}{both}."), reader.text(texts, "zh", f"{where}{both}.")
    return Text(en if en is not None else plain, zh if zh is not None else plain)


def _finding(reader: _Reader, finding: Mapping[str, Any], where: str) -> FindingRow:
    def need(key: str, value: Any, wanted: str) -> Any:
        return reader.required(value, f"{where}{key}", wanted)

    label = need("severity", reader.text(finding, "severity", where), "note, warning or error")
    if label not in Severity.choices():
        reader.fail(f"{where}severity", f"is {display_text(label, 80)!r}, not note, warning or error")
    count = need("count", reader.integer(finding, "count", where), "an integer")
    state = FindingState(Severity.parse(label), count, reader.number(finding, "worst", where))
    return FindingRow(
        fingerprint=need("fingerprint", reader.text(finding, "fingerprint", where), "a string"),
        rule_id=need("rule", reader.text(finding, "rule", where), "a string"),
        code=need("code", reader.text(finding, "code", where), "a string"),
        message=_bilingual(reader, finding, "message", "messages", where),
        state=state,
        pattern=reader.name(finding, "pattern", where),
        subject=reader.text(finding, "subject", where),
        place=_place(reader, finding, where),
    )


def _patterns(reader: _Reader, document: Mapping[str, Any], where: str) -> tuple[tuple[PatternRow, ...] | None, bool]:
    section = reader.section(document, "patterns", where)
    if section is None:
        return None, False
    inner = f"{where}patterns."
    items = reader.items(section, "items", inner)
    capped = bool(reader.value(section, "capped", inner, (bool,), "a boolean"))
    if items is None:
        return None, capped
    rows = []
    for index, item in enumerate(items):
        at = f"{inner}items[{index}]."
        name = reader.required(reader.name(item, "pattern", at), f"{at}pattern", "a string")
        keys = reader.required(reader.integer(item, "keys", at), f"{at}keys", "an integer")
        rows.append(PatternRow(name, keys, reader.integer(item, "memory", at)))
    return tuple(rows), capped


def _shards(reader: _Reader, document: Mapping[str, Any], where: str) -> tuple[ShardRow, ...] | None:
    items = reader.items(document, "shards", where)
    if items is None:
        return None
    rows = []
    for index, item in enumerate(items):
        at = f"{where}shards[{index}]."
        rows.append(
            ShardRow(
                shard_id=reader.required(reader.text(item, "shard_id", at), f"{at}shard_id", "a string"),
                address=reader.text(item, "address", at),
                keys=reader.integer(item, "keys", at),
                memory=reader.integer(item, "memory", at),
                status=reader.text(item, "status", at),
            )
        )
    return tuple(rows)


def _rules(reader: _Reader, document: Mapping[str, Any], where: str) -> dict[str, RuleTitle]:
    section = reader.section(document, "rules", where) or {}
    rules = {}
    for rule_id in section:
        at = f"{where}rules.{rule_id}."
        meta = reader.section(section, rule_id, f"{where}rules.")
        if meta is None:
            continue
        title = _bilingual(reader, meta, "title", "titles", at)
        rules[rule_id] = RuleTitle(reader.text(meta, "slug", at) or "", title)
    return rules


def read_report(reader: _Reader, document: Mapping[str, Any], where: str = "") -> ReportSnapshot:
    """One `rediscipline.report` document (`where` is its path inside a fleet report, for messages)."""
    summary = reader.required(reader.section(document, "summary", where), f"{where}summary", "an object")
    findings = reader.required(reader.items(document, "findings", where), f"{where}findings", "a list")
    run = reader.section(document, "run", where) or {}
    keyspace = reader.section(document, "keyspace", where) or {}
    server = reader.section(document, "server", where) or {}
    partial: list[Any] = reader.value(server, "partial", f"{where}server.", (list,), "a list") or []
    if not all(isinstance(reason, str) for reason in partial):
        reader.fail(f"{where}server.partial", "is not a list of strings")
    patterns, capped = _patterns(reader, document, where)
    return ReportSnapshot(
        command=reader.text(run, "command", f"{where}run."),
        score=reader.integer(summary, "score", f"{where}summary."),
        keys=reader.integer(summary, "keys", f"{where}summary."),
        memory=reader.integer(keyspace, "memory", f"{where}keyspace."),
        pattern_count=reader.integer(summary, "patterns", f"{where}summary."),
        findings=tuple(_finding(reader, item, f"{where}findings[{index}].") for index, item in enumerate(findings)),
        patterns=patterns,
        capped=capped,
        partial=tuple(partial),
        shards=_shards(reader, document, where),
        rules=_rules(reader, document, where),
    )


def _tags(reader: _Reader, target: Mapping[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    tags = reader.section(target, "tags", where) or {}
    shown = []
    for key, value in tags.items():
        if not isinstance(value, (str, int, float)):
            reader.fail(f"{where}tags.{key}", f"is {_type_name(value)}, not a string")
        shown.append((key, str(value)))
    return tuple(shown)


def _target(reader: _Reader, target: Mapping[str, Any], where: str) -> TargetRow:
    name = reader.required(reader.text(target, "name", where), f"{where}name", "a string")
    status = reader.required(reader.text(target, "status", where), f"{where}status", "ok or error")
    if status not in (STATUS_OK, STATUS_ERROR):
        reader.fail(f"{where}status", f"is {display_text(status, 80)!r}, not ok or error")
    document = reader.section(target, "report", where)
    report = None
    if status == STATUS_OK:
        document = reader.required(document, f"{where}report", "a report for a target whose status is ok")
        at = f"{where}report."
        schema, version = document.get("schema"), document.get("schema_version")
        if schema != SCHEMA_REPORT:
            reader.fail(f"{at}schema", f"is not {SCHEMA_REPORT}")
        if version not in READABLE[SCHEMA_REPORT] or isinstance(version, bool):
            reader.fail(f"{at}schema_version", f"is {version!r}, not one this rediscipline reads ({SCHEMA_VERSION})")
        report = read_report(reader, document, at)
    return TargetRow(name, _tags(reader, target, where), reader.text(target, "error", where), report)


def _fleet(reader: _Reader, document: Mapping[str, Any]) -> tuple[TargetRow, ...]:
    items = reader.required(reader.items(document, "targets", ""), "targets", "a list")
    rows = tuple(_target(reader, item, f"targets[{index}].") for index, item in enumerate(items))
    seen: set[str] = set()
    for index, row in enumerate(rows):
        if row.name in seen:
            reader.fail(f"targets[{index}].name", f"repeats the name {display_text(row.name, 80)!r}")
        seen.add(row.name)
    return rows


def open_report_file(path: str) -> ReportFile:
    """The document in the file at `path` with its schema and version, not yet read further."""
    shown, document = read_document(path)
    schema, version = schema_of(shown, document)
    return ReportFile(shown, schema, version, document)


def single_report(file: ReportFile) -> ReportSnapshot:
    """The `rediscipline.report` in `file` (its version checked as readable)."""
    return read_report(_Reader(file.shown, _KIND[SCHEMA_REPORT]), file.document)


def fleet_targets(file: ReportFile) -> tuple[TargetRow, ...]:
    """The targets of the `rediscipline.fleet` in `file` (its version checked as readable)."""
    return _fleet(_Reader(file.shown, _KIND[SCHEMA_FLEET]), file.document)
