"""Human output of `rediscipline diff`: the totals before and after, the findings new, worsened, fixed and
improved by rule, the patterns that grew most, the shards of a cluster, and for fleets the targets added,
removed, failing or recovered before each target's own changes; the regressions that set the exit code last.

As in the report (`render.text`), everything goes into rich `Text` objects, never markup, and everything a
report file holds passes `model.display` first: exact names through `display_bytes`, the display text of a
name the report cut and the messages and paths (already in a report's display form) through `inert`, other
strings through `display_text`, each bounded.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from rich.console import Console
from rich.text import Text as RichText

from rediscipline.model.display import NAME_LIMIT, PATH_LIMIT, TEXT_LIMIT, display_text, inert
from rediscipline.model.report_diff import (
    CHANGE_FIXED,
    CHANGE_NEW,
    CHANGE_WORSENED,
    CHANGES,
    TARGET_ADDED,
    TARGET_COMPARED,
    TARGET_NEWLY_FAILING,
    TARGET_RECOVERED,
    TARGET_REMOVED,
    TARGET_STILL_FAILING,
    Delta,
    DiffNote,
    DiffResult,
    FindingChange,
    FleetDiff,
    PatternGrowth,
    ReportDiff,
    TargetDiff,
)
from rediscipline.model.severity import Severity
from rediscipline.render.diff_labels import note_line, shown_name, word
from rediscipline.render.labels import SEVERITY
from rediscipline.render.numbers import human_bytes
from rediscipline.render.text import MARK, STYLE, console_for
from rediscipline.render.text_live import table

#: Fleet targets without changes named in one line before `… and N more`.
NAMES_SHOWN = 20


def _number(value: float | None, size: bool = False) -> str:
    if value is None:
        return "?"
    return human_bytes(value) if size else f"{value:,.0f}"


def _signed(change: float | None, size: bool = False) -> str:
    if change is None:
        return "?"
    sign = "+" if change > 0 else "−" if change < 0 else "±"
    return sign + (human_bytes(abs(change)) if size else f"{abs(change):,.0f}")


def _delta_text(name: str, delta: Delta, lang: str, size: bool = False) -> str:
    text = f"{word(name, lang)} {_number(delta.old, size)} → {_number(delta.new, size)}"
    if delta.change:
        text += f" ({_signed(delta.change, size)})"
    return text


def _totals(diff: ReportDiff, console: Console, lang: str, indent: str) -> None:
    parts = [_delta_text("score", diff.score, lang)] if diff.score.old is not None or diff.score.new is not None else []
    parts.append(_delta_text("keys", diff.keys, lang))
    if diff.memory is not None:
        parts.append(_delta_text("memory", diff.memory, lang, size=True))
    parts.append(_delta_text("patterns", diff.pattern_count, lang))
    style = "bold red" if (diff.score.change or 0) < 0 else "green" if (diff.score.change or 0) > 0 else ""
    console.print(RichText(indent + " · ".join(parts), style=style))
    line = RichText(indent)
    for index, (severity, delta) in enumerate(diff.by_severity):
        if index:
            line.append(" · ", style="dim")
        text = f"{SEVERITY[severity].in_(lang)} {_number(delta.old)} → {_number(delta.new)}"
        line.append(text, style=STYLE[severity] if delta.new else "dim")
    console.print(line)
    counts = RichText(indent + word("findings", lang), style="bold")
    for index, change in enumerate(CHANGES):
        if index:
            counts.append(" · ", style="dim")
        n = len(diff.of(change))
        style = ("bold red" if change in (CHANGE_NEW, CHANGE_WORSENED) else "green") if n else "dim"
        counts.append(f"{n:,} {word(change, lang)}", style=style)
    counts.append(f" · {diff.unchanged:,} {word('unchanged', lang)}", style="dim")
    console.print(counts)


def _subject(change: FindingChange) -> str:
    """What the finding is about: its place in a file, its key pattern, or its command or setting."""
    parts = []
    if change.place is not None:
        where = inert(change.place.path, PATH_LIMIT)
        parts.append(f"{where}:{change.place.line}" if change.place.line is not None else where)
    if change.pattern is not None:
        parts.append(shown_name(change.pattern))
    elif change.subject is not None:
        parts.append(display_text(change.subject, NAME_LIMIT))
    return "  ".join(parts)


def _unit(change: FindingChange, count: int, lang: str) -> str:
    one = count == 1
    if change.place is not None:
        return word("unit-place" if one else "unit-places", lang)
    return word("unit-key" if one else "unit-keys", lang)


def _counts(change: FindingChange, lang: str) -> str:
    """`2 → 3 keys` (`3 keys` when unchanged). A finding at a place in a file, or about a command or a server,
    has a count of 1 unless it says more: its count is shown only when it changed or is more than 1."""
    old, new = change.old, change.new
    before, after = (None if old is None else old.count), (None if new is None else new.count)
    by_keys = change.pattern is not None and change.place is None
    unit = word("unit-count", lang) if change.pattern is None and change.place is None else ""
    if before is not None and after is not None and before != after:
        return (
            f"{unit} {before:,} → {after:,}".strip() if unit else f"{before:,} → {after:,} {_unit(change, after, lang)}"
        )
    count = after if after is not None else before
    assert count is not None
    if not by_keys and count == 1:
        return ""
    return f"{unit} {count:,}" if unit else f"{count:,} {_unit(change, count, lang)}"


def _measures(change: FindingChange, lang: str) -> str:
    """`2 → 3 keys`, `worst 130 → 200`, `warning → error`: what changed, or the count of a new or fixed one and
    the severity a fixed one had."""
    old, new = change.old, change.new
    parts = [_counts(change, lang)]
    if old is not None and new is not None:
        if old.worst is not None and new.worst is not None and old.worst != new.worst:
            parts.append(f"{word('worst', lang)} {old.worst:,.12g} → {new.worst:,.12g}")
        if old.severity != new.severity:
            parts.append(f"{SEVERITY[old.severity].in_(lang)} → {SEVERITY[new.severity].in_(lang)}")
    elif old is not None:
        parts.append(word("was", lang, severity=SEVERITY[old.severity].in_(lang)))
    return "  ".join(part for part in parts if part)


def _change_line(change: FindingChange, console: Console, lang: str, indent: str) -> None:
    line = RichText(indent + "    ")
    if change.change == CHANGE_FIXED:
        line.append("✔ ", style="green")
    else:
        line.append(MARK[change.severity] + " ", style=STYLE[change.severity])
    line.append(_subject(change), style="bold")
    measures = _measures(change, lang)
    if measures:
        line.append("  " + measures, style="magenta")
    line.append("  " + inert(change.message.in_(lang)), style="dim" if change.change == CHANGE_FIXED else "")
    console.print(line)


def _changes(diff: ReportDiff, console: Console, lang: str, indent: str) -> None:
    for kind in CHANGES:
        items = diff.of(kind)
        if not items:
            continue
        console.print()
        style = "bold red" if kind in (CHANGE_NEW, CHANGE_WORSENED) else "bold green"
        console.print(RichText(indent + word(f"section-{kind}", lang, n=f"{len(items):,}"), style=style))
        rule_id = None
        for change in items:
            if change.rule_id != rule_id:
                rule_id = change.rule_id
                header = RichText(indent + "  ")
                header.append(display_text(rule_id, NAME_LIMIT), style=STYLE[change.severity])
                meta = diff.rules.get(rule_id)
                if meta is not None:
                    header.append(f" {display_text(meta.slug, NAME_LIMIT)}", style="bold")
                    header.append("  " + inert(meta.title.in_(lang)))
                console.print(header)
            _change_line(change, console, lang, indent)


def _growth_table(
    title: str, rows: Iterable[PatternGrowth], console: Console, lang: str, *, indent: str, memory: bool
) -> None:
    cells: list[tuple[str, ...]] = []
    for row in rows:
        delta = row.memory if memory else row.keys
        cells.append(
            (
                indent + shown_name(row.pattern),
                _number(delta.old, memory),
                _number(delta.new, memory),
                _signed(delta.change, memory),
            )
        )
    if cells:
        console.print()
        headers = (indent + word("pattern", lang), word("before", lang), word("after", lang), word("change", lang))
        table(console, indent + title, headers, cells)


def _patterns(diff: ReportDiff, top: int, console: Console, lang: str, indent: str) -> None:
    patterns = diff.patterns
    if patterns is None:
        return
    _growth_table(word("grew-keys", lang, top=top), patterns.keys_grew, console, lang, indent=indent, memory=False)
    if patterns.memory_grew is not None:
        _growth_table(
            word("grew-memory", lang, top=top), patterns.memory_grew, console, lang, indent=indent, memory=True
        )
    if patterns.added or patterns.removed:
        came = word("patterns-came-went", lang, added=f"{patterns.added:,}", removed=f"{patterns.removed:,}")
        console.print(RichText(indent + came, style="dim"))


def _shards(diff: ReportDiff, console: Console, lang: str, indent: str) -> None:
    if not diff.shards:
        return
    rows: list[tuple[str, ...]] = []
    for shard in diff.shards:
        status = " → ".join(display_text(s or "-", 40) for s in dict.fromkeys((shard.old_status, shard.new_status)))
        rows.append(
            (
                indent + display_text(shard.shard_id, 48),
                display_text(shard.address or "?", NAME_LIMIT),
                f"{_number(shard.keys.old)} → {_number(shard.keys.new)}",
                _signed(shard.keys.change),
                f"{_number(shard.memory.old, True)} → {_number(shard.memory.new, True)}",
                _signed(shard.memory.change, True),
                status,
            )
        )
    headers = (
        indent + word("shard", lang),
        word("address", lang),
        word("keys", lang),
        word("change", lang),
        word("memory", lang),
        word("change", lang),
        word("status", lang),
    )
    console.print()
    table(console, indent + word("shards", lang), headers, rows)


def _notes(notes: Iterable[DiffNote], console: Console, lang: str, indent: str) -> None:
    lines = [note_line(item, lang) for item in notes]
    if lines:
        console.print()
        console.print(RichText(indent + word("notes", lang), style="bold"))
        for line in lines:
            console.print(RichText(f"{indent}  {line}", style="yellow"))


def report_body(diff: ReportDiff, top: int, console: Console, lang: str, indent: str = "") -> None:
    """Everything about two reports compared (also each compared target of a fleet, indented)."""
    _totals(diff, console, lang, indent)
    _changes(diff, console, lang, indent)
    _patterns(diff, top, console, lang, indent)
    _shards(diff, console, lang, indent)
    _notes(diff.notes, console, lang, indent)


def _target_line(target: TargetDiff, lang: str) -> RichText:
    marks = {
        TARGET_NEWLY_FAILING: ("✖", "bold red"),
        TARGET_ADDED: ("+", "cyan"),
        TARGET_RECOVERED: ("✔", "green"),
        TARGET_REMOVED: ("-", "dim"),
        TARGET_STILL_FAILING: ("✖", "yellow"),
    }
    mark, style = marks[target.status]
    line = RichText(f"  {mark} ", style=style)
    line.append(display_text(target.name, NAME_LIMIT), style="bold")
    line.append(f" ({word(target.status, lang)})", style=style)
    side = target.side
    if side is not None:
        parts = [f"{word('score', lang)} {side.score}"] if side.score is not None else []
        if side.keys is not None:
            parts.append(f"{side.keys:,} {word('unit-keys', lang)}")
        parts.append(word("target-findings", lang, n=f"{side.findings:,}"))
        line.append(": " + " · ".join(parts), style="dim")
    error = target.new_error if target.new_error is not None else target.old_error
    if error is not None:
        line.append(": " + display_text(error, TEXT_LIMIT), style=style)
    return line


def _tags(target: TargetDiff) -> str:
    return ", ".join(f"{display_text(k, 40)}={display_text(v, 80)}" for k, v in target.tags)


def fleet_body(fleet: FleetDiff, top: int, console: Console, lang: str) -> None:
    counts = [f"{word('targets', lang)} {fleet.old_targets:,} → {fleet.new_targets:,}"]
    for status in (TARGET_ADDED, TARGET_REMOVED, TARGET_NEWLY_FAILING, TARGET_RECOVERED):
        counts.append(f"{word(status, lang)} {len(fleet.with_status(status)):,}")
    console.print(RichText(" · ".join(counts)))
    for target in fleet.targets:
        if target.status != TARGET_COMPARED:
            console.print(_target_line(target, lang))
    quiet = []
    for target in fleet.with_status(TARGET_COMPARED):
        assert target.diff is not None
        if not target.diff.changes:
            quiet.append(display_text(target.name, NAME_LIMIT))
            continue
        console.print()
        header = RichText("── ", style="dim")
        header.append(display_text(target.name, NAME_LIMIT), style="bold")
        if target.tags:
            header.append(f"  {_tags(target)}", style="dim")
        header.append(" ──", style="dim")
        console.print(header)
        report_body(target.diff, top, console, lang, indent="  ")
    if quiet:
        names = ", ".join(quiet[:NAMES_SHOWN])
        if len(quiet) > NAMES_SHOWN:
            names += " " + word("more", lang, n=f"{len(quiet) - NAMES_SHOWN:,}")
        console.print()
        text = word(
            "unchanged-targets" if len(quiet) > 1 else "unchanged-target", lang, n=f"{len(quiet):,}", names=names
        )
        console.print(RichText(text, style="dim"))


def render_diff_text(result: DiffResult, stream: TextIO, lang: str, color: bool, fail_on: Severity) -> None:
    console = console_for(stream, color)
    head = RichText(word("title", lang), style="bold")
    if result.fleet is not None:
        head.append(f" · {word('fleet', lang)}")
    head.append(f" · {inert(result.old_path, PATH_LIMIT)} → {inert(result.new_path, PATH_LIMIT)}")
    console.print(head)
    if result.report is not None:
        report_body(result.report, result.top, console, lang)
    if result.fleet is not None:
        fleet_body(result.fleet, result.top, console, lang)
    console.print()
    regressions = result.regressions(fail_on)
    severity = SEVERITY[fail_on].in_(lang)
    if regressions:
        text = word("regressions" if regressions > 1 else "regression", lang, n=f"{regressions:,}", severity=severity)
        console.print(RichText(text, style="bold red"))
    else:
        console.print(RichText(word("no-regressions", lang, severity=severity), style="green"))


__all__ = ["fleet_body", "render_diff_text", "report_body"]
