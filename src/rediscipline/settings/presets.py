"""Built-in presets: TOML files in `settings/presets/`, chained with `extends`.

A preset is a convention file like the team's own, plus `extends` and `description`; `overlay = true`
marks presets meant to be added on top of another (`cluster`). A preset may also be given as a path to a
`.toml` file, so a company can keep its own preset next to its services.

The built-in presets are read from the folder beside this module (the wheel installs it with the package),
by path: `importlib.resources` would cost every run ~3 ms of imports (zipfile, tempfile) for one folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rediscipline.settings.errors import ConfigError
from rediscipline.settings.toml import load_toml_file, load_toml_text

#: The built-in presets, `<name>.toml` each.
BUILTIN_FOLDER = Path(__file__).with_name("presets")


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    data: dict[str, Any]  # the convention-file part (select, ignore, rules, namespaces...)
    description: str
    extends: tuple[str, ...]
    overlay: bool
    origin: str  # shown by `config --show`, e.g. "preset:baidu"


def builtin_names() -> list[str]:
    return sorted(entry.name[: -len(".toml")] for entry in BUILTIN_FOLDER.iterdir() if entry.name.endswith(".toml"))


def load_preset(name: str) -> Preset:
    if name.endswith(".toml") or "/" in name:
        path = Path(name)
        data = load_toml_file(path)
        origin = f"preset:{path}"
    else:
        resource = BUILTIN_FOLDER / f"{name}.toml"
        if not resource.is_file():
            raise ConfigError(f"unknown preset {name!r} (available: {', '.join(builtin_names())})")
        data = load_toml_text(resource.read_text(encoding="utf-8"), f"preset {name}")
        origin = f"preset:{name}"
    extends = data.pop("extends", ())
    if isinstance(extends, str):
        extends = (extends,)
    if not isinstance(extends, (list, tuple)) or not all(isinstance(e, str) for e in extends):
        raise ConfigError(f"{origin}: extends must be a preset name or a list of names")
    description = data.pop("description", "")
    overlay = bool(data.pop("overlay", False))
    data.pop("source", None)
    return Preset(name, data, str(description), tuple(extends), overlay, origin)


def preset_chain(name: str, _trail: tuple[str, ...] = ()) -> list[Preset]:
    """The preset and its ancestors, root first; a cycle is an error that shows the loop."""
    if name in _trail:
        loop = " → ".join((*_trail[_trail.index(name) :], name))
        raise ConfigError(f"preset {name!r} extends itself: {loop}")
    preset = load_preset(name)
    chain: list[Preset] = []
    for parent in preset.extends:
        for ancestor in preset_chain(parent, (*_trail, name)):
            if ancestor.name not in {p.name for p in chain}:
                chain.append(ancestor)
    chain.append(preset)
    return chain
