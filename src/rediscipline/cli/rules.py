"""`rediscipline rules` (the catalog table) and `rediscipline rule ID` (one rule's full documentation)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.markdown import Markdown
from rich.table import Table

from rediscipline.cli.options import plain_console
from rediscipline.model.text import LANGUAGES, Text
from rediscipline.render.citations import citation_fields, with_citations
from rediscipline.render.notes import PLACES
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
        data = [{**_rule_dict(cls, lang), "doc": cls.meta.doc_in(lang)} for cls in classes]
        json.dump(data if len(data) > 1 else data[0], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    for cls in classes:
        text = rule_markdown(cls, lang)
        if output_format == "markdown" or not sys.stdout.isatty():
            sys.stdout.write(text + "\n")
        else:
            plain_console().print(Markdown(text))


#: The words of a rule page around its documentation, in each language.
_PAGE = {
    "family": Text("family", "类别"),
    "severity": Text("default severity", "默认严重级别"),
    "where": Text("checked in", "检查位置"),
    "reference": Text("Option reference", "选项一览"),
}
_TYPES_ZH = {"boolean": "布尔值", "integer": "整数", "number": "数值", "string": "字符串"}


def rule_markdown(cls: type[Rule[Any]], lang: str = "en") -> str:
    """The rule page: title line, metadata, the docstring sections (in `lang` when translated) with the
    sentences of its sources after the Source section (English adds the Chinese original), then the option
    table (whose one-line meanings are English: the Chinese page leaves them to its `选项` section)."""
    meta = cls.meta
    zh = lang == "zh"
    colon = "：" if zh else ": "
    family = f"{meta.family}（{FAMILIES[meta.family].zh}）" if zh else f"{meta.family} ({FAMILIES[meta.family].en})"
    where = "、".join(PLACES[p].zh if p in PLACES else p for p in meta.where) if zh else ", ".join(meta.where)
    lines = [
        f"# {meta.id} {meta.slug}{colon}{meta.title.in_(lang)}",
        "",
        f"- {_PAGE['family'].in_(lang)}{colon}{family}",
        f"- {_PAGE['severity'].in_(lang)}{colon}{meta.severity.label}",
        f"- {_PAGE['where'].in_(lang)}{colon}{where}",
        "",
        with_citations(meta.doc_in(lang), meta.citations, lang),
    ]
    option_specs = specs(cls.Options)
    if option_specs:
        lines += ["", f"## {_PAGE['reference'].in_(lang)}", ""]
        if zh:
            lines += ["| 选项 | 类型 | 默认值 |", "|---|---|---|"]
        else:
            lines += ["| option | type | default | meaning |", "|---|---|---|---|"]
        for spec in option_specs:
            default = json.dumps(_jsonable(spec.default), ensure_ascii=False)
            if zh:
                lines.append(f"| `{spec.name}` | {_type_zh(spec.type_name)} | `{default}` |")
            else:
                lines.append(f"| `{spec.name}` | {spec.type_name} | `{default}` | {spec.doc} |")
    section = f"`[rules.{meta.slug}]`"
    if zh:
        lines += ["", f'在 `rediscipline.toml` 中配置：{section}（加上 `severity = "error"` 可覆盖默认严重级别）。']
    else:
        lines += ["", f'Configure in `rediscipline.toml`: {section} (plus `severity = "error"` to override).']
    return "\n".join(lines)


def _type_zh(name: str) -> str:
    """An option's type (`OptionSpec.type_name`) in Chinese."""
    if name.startswith("list of "):
        return f"{_type_zh(name.removeprefix('list of '))}列表"
    if name.startswith("table of "):
        key, _, value = name.removeprefix("table of ").partition(" → ")
        return f"映射（{_type_zh(key)} → {_type_zh(value)}）"
    if " or " in name:
        return " 或 ".join(_type_zh(part) for part in name.split(" or "))
    return _TYPES_ZH.get(name, name)
