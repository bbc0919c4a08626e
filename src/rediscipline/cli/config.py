"""`rediscipline config --show`: every effective setting with the layer it came from."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.table import Table

from rediscipline.api import settings_for
from rediscipline.cli.options import overrides_from, plain_console, settings_options
from rediscipline.settings.presets import builtin_names, load_preset


@click.command("config")
@click.option("--show", is_flag=True, help="Print every effective value with its origin (the default action).")
@click.option("--presets", "list_presets", is_flag=True, help="List the built-in presets.")
@click.option("--format", "output_format", type=click.Choice(("text", "json")), default="text", show_default=True)
@settings_options
def config_command(show: bool, list_presets: bool, output_format: str, **params: Any) -> None:
    """Show the resolved configuration: built-in < preset chain < overlays < file < command line."""
    if list_presets:
        presets = [load_preset(name) for name in builtin_names()]
        if output_format == "json":
            rows = [
                {"name": p.name, "extends": list(p.extends), "overlay": p.overlay, "description": p.description}
                for p in presets
            ]
            json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
            return
        table = Table(box=None, header_style="bold", pad_edge=False)
        for column in ("preset", "extends", "kind", "description"):
            table.add_column(column)
        for p in presets:
            table.add_row(p.name, ", ".join(p.extends), "overlay" if p.overlay else "preset", p.description)
        plain_console().print(table)
        return
    settings = settings_for(overrides_from(params))
    if output_format == "json":
        rows = [{"key": p.key, "value": p.value, "origin": p.origin} for p in settings.provenance]
        json.dump({"config_file": settings.config_file, "values": rows}, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    console = plain_console()
    console.print(f"config file: {settings.config_file or '(none)'}", markup=False)
    table = Table(box=None, header_style="bold", pad_edge=False)
    for column in ("key", "value", "origin"):
        table.add_column(column)
    for row in settings.provenance:
        table.add_row(row.key, row.value, row.origin)
    console.print(table)
