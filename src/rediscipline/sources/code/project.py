"""What the modules of one checked project export to each other: clients, factories, classes, evidence.

Teams create the client once (`shop/extensions.py: redis_client = redis.Redis.from_url(...)`) and import it
everywhere else (`from shop.extensions import redis_client`, `from .extensions import cache`), subclass
`redis.Redis` in one module and use it in another, or keep the client in an attribute of a class whose
instances travel through the code base (`broker.client`, `queue.connection`). A module read alone cannot
know any of that, so `check` first reads the modules that may concern Redis and records what each exports;
every module's imports are then resolved against these tables, and the modules are read again until the
tables stop changing (a class in one module may hold what a factory of another returns).

The evidence on receivers (evidence.py) is pooled here too, so a receiver named the same way in several
modules (an imported global, a wrapper's attribute) gets the same verdict in all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath

from rediscipline.sources.code.constructors import Constructed, agreed_kind, snapshot
from rediscipline.sources.code.definitions import Definitions
from rediscipline.sources.code.evidence import Evidence, Receivers
from rediscipline.sources.code.kinds import KIND_CLIENT, KIND_OTHER, Kind
from rediscipline.sources.code.module import ClassInfo, ModuleInfo

#: How many re-exports are followed (`pkg` imports from `pkg.sub`, which imports from `pkg.sub.impl`).
REEXPORT_DEPTH = 4


def module_name(shown: str) -> str:
    """`shop/extensions.py` → `shop.extensions`; `shop/__init__.py` → `shop` (paths as findings show them)."""
    path = PurePosixPath(shown)
    parts = [p for p in path.with_suffix("").parts if p not in ("", ".", "..", "/")]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@dataclass
class ProjectExports:
    """Module name → what its names hold and what its functions return; classes by qualified name;
    the evidence on receivers, pooled over the modules."""

    globals: dict[str, dict[str, Kind]] = field(default_factory=dict)
    functions: dict[str, dict[str, Kind]] = field(default_factory=dict)
    type_aliases: dict[str, dict[str, Kind]] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    definitions: dict[str, Definitions] = field(default_factory=dict)
    receivers: dict[str, Evidence] = field(default_factory=dict)
    modules: set[str] = field(default_factory=set)
    #: module → name it imports → what that name is (`tasktiger` → `TaskTiger` → `tasktiger.tasktiger.TaskTiger`)
    reexports: dict[str, dict[str, str]] = field(default_factory=dict)
    #: every dotted component of the run's module names: imports from these are the project's own
    packages: set[str] = field(default_factory=set)
    inits: set[str] = field(default_factory=set)  # modules that are a package's `__init__.py`
    _shorter: dict[str, str] = field(default_factory=dict)  # `extensions` → `shop.extensions`, once found
    _holders: dict[str, bool] = field(default_factory=dict)  # classes that hold a client, once settled
    #: pytest fixtures of the `conftest.py` modules: name → defining module → what it provides
    fixtures: dict[str, dict[str, Kind]] = field(default_factory=dict)
    #: module → what its calls give the `__init__` of project classes (constructors.py)
    constructed: dict[str, Constructed] = field(default_factory=dict)
    _constructed_index: Constructed | None = None  # the same, merged over the modules, once asked for

    def add_module(self, name: str, *, package: bool = False) -> None:
        """A module of the run; `package` for a package's `__init__.py`, whose relative imports start
        from the package itself."""
        if name:
            self.modules.add(name)
            self.packages.update(name.split("."))
            if package:
                self.inits.add(name)

    def record_definitions(self, name: str, definitions: Definitions) -> None:
        if definitions:
            self.definitions[name] = definitions

    def defined(self, module: str) -> Definitions | None:
        """The constants and key builders a project module offers, if it offers any."""
        return self.definitions.get(module)

    def record_receivers(self, receivers: Receivers) -> None:
        for identity, evidence in receivers.evidence.items():
            pooled = self.receivers.setdefault(identity, Evidence())
            pooled.merge(evidence)

    def record_reexport(self, module: str, local: str, qualified: str) -> None:
        if qualified != f"{module}.{local}":
            self.reexports.setdefault(module, {})[local] = qualified

    def _origin(self, qualified: str, depth: int = 0) -> str | None:
        """Where a name a package re-exports is defined (`pkg.Redis` → `pkg.client.Redis`), or None."""
        module, _, name = qualified.rpartition(".")
        target = self.reexports.get(module, {}).get(name)
        if target is None or depth > REEXPORT_DEPTH:
            return None
        return self._origin(target, depth + 1) or target

    def record(self, name: str, info: ModuleInfo) -> bool:
        """Record what a module exports; True when that changed what the project knows."""
        for local, qualified in info.imported.items():
            if "." in qualified:
                self.record_reexport(name, local, qualified)
        names = {n: info.global_kind(n) for n in (*info.globals, *info.imported)}
        exported = {n: k for n, k in names.items() if k is not None}
        functions = dict(info.function_kinds)
        classes = {cls.qualname: cls for cls in info.classes.values()}
        changed = exported != self.globals.get(name, {}) or functions != self.functions.get(name, {})
        changed = changed or info.type_aliases != self.type_aliases.get(name, {})
        if name.rsplit(".", 1)[-1] == "conftest":
            for fixture, kind in info.fixtures.items():
                providers = self.fixtures.setdefault(fixture, {})
                changed = changed or providers.get(name) != kind
                providers[name] = kind
        if snapshot(info.constructed) != snapshot(self.constructed.get(name, {})):
            changed = True
            self.constructed[name] = {owner: dict(parameters) for owner, parameters in info.constructed.items()}
            self._constructed_index = None
        for qualname, cls in classes.items():
            known = self.classes.get(qualname)
            changed = changed or known is None or known.snapshot() != cls.snapshot() or known.bases != cls.bases
        if exported:
            self.globals[name] = exported
        if functions:
            self.functions[name] = functions
        if info.type_aliases:
            self.type_aliases[name] = dict(info.type_aliases)
        self.classes.update(classes)
        if changed:
            self._holders.clear()
        return changed

    def resolve(self, importer: str, module: str | None, level: int) -> str | None:
        """The project module an import names: absolute, or relative to `importer`'s package; a module
        imported by a shorter absolute name (`from extensions import x` run from inside `shop/`) matches
        the one project module whose name ends with it."""
        if level:
            package = importer.split(".") + ([""] if importer in self.inits else [])
            base = package[: len(package) - level] if len(package) >= level else []
            return ".".join([*base, module] if module else base)
        if module is None:
            return None
        if module in self.modules or module in self.definitions or module in self.globals:
            return module
        known = self._shorter.get(module)
        if known is None:
            suffix = "." + module
            matches = {m for m in (*self.modules, *self.definitions, *self.globals) if m.endswith(suffix)}
            known = self._shorter[module] = matches.pop() if len(matches) == 1 else module
        return known

    def global_kind(self, module: str, name: str) -> Kind | None:
        found = self.globals.get(module, {}).get(name)
        if found is None:
            origin = self._origin(f"{module}.{name}")
            if origin is not None:
                owner, _, local = origin.rpartition(".")
                return self.globals.get(owner, {}).get(local)
        return found

    def function_kind(self, module: str, name: str) -> Kind | None:
        found = self.functions.get(module, {}).get(name)
        if found is None:
            origin = self._origin(f"{module}.{name}")
            if origin is not None:
                owner, _, local = origin.rpartition(".")
                return self.functions.get(owner, {}).get(local)
        return found

    def type_alias(self, qualified: str) -> Kind | None:
        module, _, name = qualified.rpartition(".")
        found = self.type_aliases.get(module, {}).get(name)
        if found is None:
            origin = self._origin(qualified)
            if origin is not None:
                owner, _, local = origin.rpartition(".")
                return self.type_aliases.get(owner, {}).get(local)
        return found

    def class_info(self, qualname: str) -> ClassInfo | None:
        found = self.classes.get(qualname)
        if found is None:
            origin = self._origin(qualname)
            return self.classes.get(origin) if origin is not None else None
        return found

    def evidence(self, identity: str) -> Evidence | None:
        return self.receivers.get(identity)

    def is_own(self, package: str) -> bool:
        return package in self.packages

    def is_module(self, qualified: str) -> bool:
        return qualified in self.modules

    def constructed_kinds(self, qualname: str, parameter: str) -> set[Kind]:
        if self._constructed_index is None:
            index: Constructed = {}
            for recorded in self.constructed.values():
                for owner, parameters in recorded.items():
                    for name, kinds in parameters.items():
                        index.setdefault(owner, {}).setdefault(name, set()).update(kinds)
            self._constructed_index = index
        return self._constructed_index.get(qualname, {}).get(parameter, set())

    def built_with_clients(self) -> set[str]:
        """The modules whose classes the run builds with a client (or what leads to one) for a parameter of
        their `__init__`: they must be read even when nothing in their text names Redis."""
        self.constructed_kinds("", "")  # builds the index
        assert self._constructed_index is not None
        found: set[str] = set()
        for owner, parameters in self._constructed_index.items():
            for kinds in parameters.values():
                kind = agreed_kind(kinds)
                if kind is not None and self.holds_client(kind):
                    found.add(owner.rpartition(".")[0])
        return found

    def fixture_kind(self, name: str) -> Kind | None:
        kinds = self.fixtures.get(name)
        return next(iter(kinds.values())) if kinds is not None and len(set(kinds.values())) == 1 else None

    def exported(self, module: str, name: str) -> str | None:
        """ "client" or "factory" when `module` exports `name` as one, else None."""
        kind = self.global_kind(module, name)
        if kind is not None and kind.kind == KIND_CLIENT:
            return "client"
        function = self.function_kind(module, name)
        if function is not None and function.kind == KIND_CLIENT:
            return "factory"
        return None

    def leads_to_clients(self, module: str, name: str) -> bool:
        """Whether importing `name` from `module` can bring a client into a module: a client, a factory, an
        instance of a class that holds one, or such a class."""
        exported = (
            self.global_kind(module, name),
            self.function_kind(module, name),
            self.type_alias(f"{module}.{name}"),
        )
        for kind in exported:
            if kind is not None and self.holds_client(kind):
                return True
        return self._class_holds_client(f"{module}.{name}", 0)

    def holds_client(self, kind: Kind, depth: int = 0) -> bool:
        """A client, a pipeline, or an instance of a project class with a client in its attributes."""
        if kind.kind != KIND_OTHER:
            return True
        if kind.item is not None:
            return self.holds_client(kind.item, depth + 1)  # `list[Redis]`, `Callable[..., Redis]`
        return kind.cls is not None and self._class_holds_client(kind.cls, depth)

    def _class_holds_client(self, qualname: str, depth: int) -> bool:
        known = self._holders.get(qualname)
        if known is not None:
            return known
        cls = self.class_info(qualname)
        found = False
        if cls is not None and depth <= REEXPORT_DEPTH:
            self._holders[qualname] = False  # a class holding itself holds nothing more
            kinds = (*cls.attributes.values(), *cls.returns.values())
            found = any(self.holds_client(kind, depth + 1) for kind in kinds) or any(
                base not in self.classes or self._class_holds_client(base, depth + 1) for base in cls.bases
            )
        self._holders[qualname] = found
        return found
