"""What the modules of one checked project export to each other: clients and client factories.

Teams create the client once (`shop/extensions.py: redis_client = redis.Redis.from_url(...)`) and import it
everywhere else (`from shop.extensions import redis_client`, `from .extensions import cache`). A module
read alone cannot know that `cache` is a client, so `check` first reads the modules that mention Redis and
records what each exports; then every module's imports are resolved against that table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath

from rediscipline.sources.code.definitions import Definitions
from rediscipline.sources.code.module import ModuleInfo


def module_name(shown: str) -> str:
    """`shop/extensions.py` → `shop.extensions`; `shop/__init__.py` → `shop` (paths as findings show them)."""
    path = PurePosixPath(shown)
    parts = [p for p in path.with_suffix("").parts if p not in ("", ".", "..", "/")]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@dataclass
class ProjectExports:
    """Module name → names it binds to a client, and names of its functions that return one."""

    clients: dict[str, set[str]] = field(default_factory=dict)
    factories: dict[str, set[str]] = field(default_factory=dict)
    definitions: dict[str, Definitions] = field(default_factory=dict)

    def record_definitions(self, name: str, definitions: Definitions) -> None:
        if definitions:
            self.definitions[name] = definitions

    def defined(self, module: str) -> Definitions | None:
        """The constants and key builders a project module offers, if it offers any."""
        return self.definitions.get(module)

    def record(self, name: str, info: ModuleInfo) -> None:
        if info.client_globals:
            self.clients[name] = set(info.client_globals)
        if info.client_functions:
            self.factories[name] = set(info.client_functions)

    def resolve(self, importer: str, module: str | None, level: int) -> str | None:
        """The project module an import names: absolute, or relative to `importer`'s package; a module
        imported by a shorter absolute name (`from extensions import x` run from inside `shop/`) matches
        the one project module whose name ends with it."""
        if level:
            package = importer.split(".")
            base = package[: len(package) - level] if len(package) >= level else []
            return ".".join([*base, module] if module else base)
        if module is None:
            return None
        known = (*self.clients, *self.factories, *self.definitions)
        if module in known:
            return module
        suffix = "." + module
        matches = {m for m in known if m.endswith(suffix)}
        return matches.pop() if len(matches) == 1 else module

    def exported(self, module: str, name: str) -> str | None:
        """ "client" or "factory" when `module` exports `name` as one, else None."""
        if name in self.clients.get(module, ()):
            return "client"
        if name in self.factories.get(module, ()):
            return "factory"
        return None
