"""`rediscipline rules` (the catalog table) and `rediscipline rule ID` (one rule's full documentation)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.markdown import Markdown
from rich.table import Table

from rediscipline.cli.options import plain_console
from rediscipline.model.text import LANGUAGES
from rediscipline.render.citations import citation_fields, with_citations
from rediscipline.rules import default_registry
from rediscipline.rules.base import FAMILIES, Rule
from rediscipline.rules.options import specs


def _rule_dict(cls: type[Rule[Any]], lang: str) -> dict[str, Any]:
    meta = cls.meta
    return {
        "id": meta.id,
        "slug": meta.slug,
        "family": meta.family,
        "title": meta.title.in_(lang),
        "default_severity": meta.severity.label,
        "where": list(meta.where),
        "sources": list(meta.sources),
        "citations": citation_fields(meta.citations),
        "options": [
            {"name": s.name, "type": s.type_name, "default": _jsonable(s.default), "doc": s.doc}
            for s in specs(cls.Options)
        ],
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if hasattr(value, "items"):
        return dict(value.items())
    return value


@click.command("rules")
@click.option("--format", "output_format", type=click.Choice(("text", "json")), default="text", show_default=True)
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
def rules_command(output_format: str, lang: str) -> None:
    """List every rule: id, slug, family, default severity, where it can be checked."""
    registry = default_registry()
    if output_format == "json":
        json.dump([_rule_dict(cls, lang) for cls in registry], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    table = Table(box=None, header_style="bold", pad_edge=False)
    for column in ("id", "slug", "family", "severity", "where", "title"):
        table.add_column(column)
    for cls in registry:
        meta = cls.meta
        table.add_row(
            meta.id,
            meta.slug,
            f"{meta.family} {FAMILIES[meta.family].in_(lang)}",
            meta.severity.label,
            ", ".join(meta.where),
            meta.title.in_(lang),
        )
    plain_console().print(table)


@click.command("rule")
@click.argument("rule_ids", nargs=-1, required=True, metavar="ID|SLUG...")
@click.option(
    "--format", "output_format", type=click.Choice(("text", "json", "markdown")), default="text", show_default=True
)
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
def rule_command(rule_ids: tuple[str, ...], output_format: str, lang: str) -> None:
    """Show the full documentation of a rule (its docstring, cited sentences and options)."""
    registry = default_registry()
    classes = [registry.get(token) for token in rule_ids]
    if output_format == "json":
        data = [{**_rule_dict(cls, lang), "doc": cls.meta.doc} for cls in classes]
        json.dump(data if len(data) > 1 else data[0], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    for cls in classes:
        text = rule_markdown(cls, lang)
        if output_format == "markdown" or not sys.stdout.isatty():
            sys.stdout.write(text + "\n")
        else:
            plain_console().print(Markdown(text))


def rule_markdown(cls: type[Rule[Any]], lang: str = "en") -> str:
    """The rule page: title line, metadata, the docstring sections with the sentences of its sources after
    the Source section (in `lang`; English adds the Chinese original), then the option table."""
    meta = cls.meta
    lines = [
        f"# {meta.id} {meta.slug}: {meta.title.in_(lang)}",
        "",
        f"- family: {meta.family} ({FAMILIES[meta.family].in_(lang)})",
        f"- default severity: {meta.severity.label}",
        f"- checked in: {', '.join(meta.where)}",
        "",
        with_citations(meta.doc, meta.citations, lang),
    ]
    option_specs = specs(cls.Options)
    if option_specs:
        lines += ["", "## Option reference", "", "| option | type | default | meaning |", "|---|---|---|---|"]
        for spec in option_specs:
            default = json.dumps(_jsonable(spec.default), ensure_ascii=False)
            lines.append(f"| `{spec.name}` | {spec.type_name} | `{default}` | {spec.doc} |")
    lines += ["", f'Configure in `rediscipline.toml`: `[rules.{meta.slug}]` (plus `severity = "error"` to override).']
    return "\n".join(lines)
