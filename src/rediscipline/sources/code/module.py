"""What one module declares before any of its code runs: imports, constants, client factories, classes.

The extractor needs this first pass because Python code uses names before their definition is read in file
order (a method uses `self.redis` assigned in `__init__` further down, a function calls a factory defined
below it). It records only what resolution needs: which local names stand for redis-py modules and classes,
module-level constants (for key templates and sizes), functions and methods that return a client, and the
attributes each class assigns a client or a pipeline to.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Protocol

from rediscipline.sources.code.definitions import Definitions
from rediscipline.sources.code.definitions import module_classes as module_definitions_classes
from rediscipline.sources.code.receivers import (
    CLIENT_FACTORIES,
    CLIENT_METHODS,
    GENERIC_METHODS,
    KIND_OTHER,
    is_client_type,
    is_pipeline_type,
)
from rediscipline.sources.code.table import METHOD_COMMANDS

#: Top-level packages whose imports matter to resolution.
REDIS_PACKAGES = ("redis", "aioredis", "django_redis", "fakeredis")
#: How many type aliases deep an annotation is followed (`Cache = RedisClient`, `RedisClient = redis.Redis`).
ALIAS_DEPTH = 4
#: Passes over the factories: a factory that returns another factory's client needs a second look.
FACTORY_PASSES = 3


@dataclass
class ClassInfo:
    """Attributes of one class that hold a client or a pipeline, and its methods that return a client."""

    name: str
    constants: dict[str, ast.expr] = field(default_factory=dict)  # class-level `PREFIX = "user"`
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    clients: set[str] = field(default_factory=set)
    pipelines: set[str] = field(default_factory=set)
    others: set[str] = field(default_factory=set)  # attributes holding an instance of a project class
    client_methods: set[str] = field(default_factory=set)


@dataclass
class ModuleInfo:
    aliases: dict[str, str] = field(default_factory=dict)  # local name → qualified redis name
    constants: dict[str, ast.expr] = field(default_factory=dict)
    client_globals: set[str] = field(default_factory=set)
    client_functions: set[str] = field(default_factory=set)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    #: project modules imported as a whole (`import shop.keys as keys`, `from shop import keys`) → what they define
    imported_modules: dict[str, Definitions] = field(default_factory=dict)
    #: classes of this module or imported from the project: their instances are not clients...
    project_classes: set[str] = field(default_factory=set)
    #: ...unless the class extends a redis-py client (`class Cache(redis.Redis)`)
    client_classes: set[str] = field(default_factory=set)
    #: module-level names bound to an instance of a project class (`cache = RedisCache(url)`)
    other_globals: set[str] = field(default_factory=set)
    #: names bound by imports of other packages (`os`, `shutil`): modules and classes, never a client
    imported: set[str] = field(default_factory=set)
    #: receivers the module calls a Redis-only method on (`self.cache`, `conn`), keyed by their code
    redis_receivers: set[str] = field(default_factory=set)
    #: functions and methods handed to `client.transaction(fn, ...)`: their `pipe.multi()` is that transaction's
    transaction_callbacks: set[str] = field(default_factory=set)

    def qualified(self, expr: ast.expr) -> str | None:
        """`redis.asyncio.Redis` for `aioredis.Redis` after `import redis.asyncio as aioredis`, or None."""
        if isinstance(expr, ast.Name):
            return self.aliases.get(expr.id)
        if isinstance(expr, ast.Attribute):
            base = self.qualified(expr.value)
            return f"{base}.{expr.attr}" if base is not None else None
        return None

    def annotation_kind(self, annotation: ast.expr | None, depth: int = 0) -> str | None:
        """ "client" or "pipeline" for an annotation naming a redis-py type (`Redis`, `redis.Redis | None`,
        `Optional["Redis"]`, or a module-level alias such as `RedisClient = redis.Redis`), else None."""
        if annotation is None or depth > ALIAS_DEPTH:
            return None
        for node in ast.walk(annotation):
            name = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                try:
                    found = self.annotation_kind(ast.parse(node.value.strip(), mode="eval").body, depth + 1)
                except SyntaxError:
                    continue
                if found is not None:
                    return found
            elif isinstance(node, (ast.Name, ast.Attribute)):
                name = self.qualified(node) or (node.id if isinstance(node, ast.Name) else node.attr)
                alias = self.constants.get(node.id) if isinstance(node, ast.Name) else None
                if alias is not None and alias is not annotation:
                    found = self.annotation_kind(alias, depth + 1)
                    if found is not None:
                        return found
            if name is None:
                continue
            if is_pipeline_type(name):
                return "pipeline"
            if is_client_type(name) or name.rsplit(".", 1)[-1] in self.client_classes:
                return "client"
            if name.rsplit(".", 1)[-1] in self.project_classes:
                return KIND_OTHER  # the project's own class, such as a cache wrapper
        return None

    def is_other_call(self, call: ast.Call) -> bool:
        """A call that builds an instance of one of the project's own classes (never a client)."""
        func = call.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in self.project_classes and name not in self.client_classes

    def is_client_call(self, call: ast.Call, class_info: ClassInfo | None = None) -> bool:
        """A call that returns a client: a redis-py constructor or factory, or one of this module's own."""
        func = call.func
        name = self.qualified(func)
        if name is not None and (name in CLIENT_FACTORIES or name.rsplit(".", 1)[-1] in ("Redis", "StrictRedis")):
            return True
        if isinstance(func, ast.Name):
            return func.id in self.client_functions or func.id in self.client_classes
        if isinstance(func, ast.Attribute):
            if func.attr in CLIENT_METHODS:
                return True
            if func.attr == "from_url" and isinstance(func.value, ast.Name):
                return self.qualified(func.value) is not None
            owner = func.value
            if class_info is not None and isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                return func.attr in class_info.client_methods
        return False


class Imports(Protocol):
    """Clients and factories other modules of the project export (see `project.ProjectExports`)."""

    def resolve(self, importer: str, module: str | None, level: int) -> str | None: ...

    def exported(self, module: str, name: str) -> str | None: ...

    def defined(self, module: str) -> Definitions | None: ...


def read_module(tree: ast.Module, name: str = "", imports: Imports | None = None) -> ModuleInfo:
    """The first pass over a module (see the module docstring); `imports` resolves `from x import client`."""
    info = ModuleInfo()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method == "transaction" and node.args:
                callback = node.args[0]
                if isinstance(callback, (ast.Name, ast.Attribute)):
                    info.transaction_callbacks.add(callback.id if isinstance(callback, ast.Name) else callback.attr)
            if method in METHOD_COMMANDS and method not in GENERIC_METHODS:
                key = receiver_key(node.func.value)
                if key is not None and key not in ("self", "cls"):
                    info.redis_receivers.add(key)  # `self.hgetall()` is a wrapper's own method, not a client's
        elif isinstance(node, ast.Import):
            for alias in node.names:
                info.imported.add((alias.asname or alias.name).split(".")[0])
                _import_module(info, imports, name, alias.name, alias.asname or alias.name)
                if alias.name.split(".")[0] in REDIS_PACKAGES:
                    local = alias.asname or alias.name.split(".")[0]
                    info.aliases[local] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in REDIS_PACKAGES:
            for alias in node.names:
                info.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.ImportFrom):
            info.imported.update(alias.asname or alias.name for alias in node.names)
            source = imports.resolve(name, node.module, node.level) if imports is not None else None
            defined = imports.defined(source) if imports is not None and source is not None else None
            for alias in node.names:
                local = alias.asname or alias.name
                kind = imports.exported(source, alias.name) if imports is not None and source is not None else None
                if kind == "client":
                    info.client_globals.add(local)
                elif kind == "factory":
                    info.client_functions.add(local)
                if defined is not None and alias.name in defined.classes:
                    info.project_classes.add(local)
                    if alias.name in defined.client_classes:
                        info.client_classes.add(local)
                if defined is not None and alias.name in defined.instances:
                    info.other_globals.add(local)
                if defined is not None and alias.name in defined.constants:
                    info.constants[local] = defined.constants[alias.name]
                elif defined is not None and alias.name in defined.builders:
                    info.functions[local] = defined.builders[alias.name]
                elif source is not None:  # `from shop import keys`: a module
                    _import_module(info, imports, name, f"{source}.{alias.name}", local)
    own = module_definitions_classes(tree)
    info.project_classes |= own.classes
    info.client_classes |= own.client_classes
    info.other_globals |= own.instances
    for statement in tree.body:
        _read_top_level(info, statement)
    functions = [s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    info.functions.update({f.name: f for f in functions})
    classes = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    summaries: dict[int, _Summary] = {}
    for _ in range(FACTORY_PASSES):  # until a pass learns nothing new
        before = _learned(info)
        for function in functions:
            if function.name not in info.client_functions and _returns_client(info, function, None, summaries):
                info.client_functions.add(function.name)
        for cls in classes:
            _read_class(info, cls, summaries)
        if _learned(info) == before:
            break
    return info


@dataclass
class _Summary:
    """What resolution reads in one function, collected in a single walk: assignments and returned values."""

    assigns: list[ast.Assign | ast.AnnAssign]
    returns: list[ast.expr]


def _summary(function: ast.FunctionDef | ast.AsyncFunctionDef, cache: dict[int, _Summary]) -> _Summary:
    found = cache.get(id(function))
    if found is None:
        found = cache[id(function)] = _Summary([], [])
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                found.assigns.append(node)
            elif isinstance(node, ast.Return) and node.value is not None:
                found.returns.append(node.value.value if isinstance(node.value, ast.Await) else node.value)
    return found


def _learned(info: ModuleInfo) -> tuple[int, ...]:
    """How much resolution knows, to stop the passes when one adds nothing."""
    sizes = [len(info.client_functions)]
    for cls in info.classes.values():
        sizes += [len(cls.clients), len(cls.pipelines), len(cls.client_methods)]
    return tuple(sizes)


def _import_module(info: ModuleInfo, imports: Imports | None, importer: str, module: str, local: str) -> None:
    """Remember a project module imported whole, so `keys.cart_key(uid)` and `keys.CART_TTL` can be read."""
    if imports is None:
        return
    source = imports.resolve(importer, module, 0)
    defined = imports.defined(source) if source is not None else None
    if defined is not None:
        info.imported_modules[local] = defined


def receiver_key(expr: ast.expr) -> str | None:
    """`conn`, `self.cache`, `app.state.redis`: a receiver written as a dotted name, else None."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        owner = receiver_key(expr.value)
        return f"{owner}.{expr.attr}" if owner is not None else None
    return None


def _read_top_level(info: ModuleInfo, statement: ast.stmt) -> None:
    targets: list[ast.expr] = []
    value: ast.expr | None = None
    if isinstance(statement, ast.Assign):
        targets, value = statement.targets, statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        targets, value = [statement.target], statement.value
        if info.annotation_kind(statement.annotation) == "client" and isinstance(statement.target, ast.Name):
            info.client_globals.add(statement.target.id)
    if value is None:
        return
    for target in targets:
        if isinstance(target, ast.Name):
            info.constants[target.id] = value
            made = isinstance(value, ast.Call) and info.is_client_call(value)
            if made or (isinstance(value, ast.Name) and value.id in info.client_globals):
                info.client_globals.add(target.id)


def _returns_client(
    info: ModuleInfo,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    cls: ClassInfo | None,
    summaries: dict[int, _Summary],
) -> bool:
    """A function whose annotation or some `return` gives a client (a factory: `def get_redis(): ...`)."""
    if info.annotation_kind(function.returns) == "client":
        return True
    summary = _summary(function, summaries)
    local_clients: set[str] = set()
    for node in summary.assigns:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and info.is_client_call(node.value, cls):
            local_clients.update(t.id for t in node.targets if isinstance(t, ast.Name))
    for value in summary.returns:
        if isinstance(value, ast.Call) and info.is_client_call(value, cls):
            return True
        if isinstance(value, ast.Name) and (value.id in local_clients or value.id in info.client_globals):
            return True
        held = isinstance(value, ast.Attribute) and _is_self_attribute(value)
        if cls is not None and held and value.attr in cls.clients:  # type: ignore[attr-defined]
            return True
    return False


def _is_self_attribute(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls")


def _read_class(info: ModuleInfo, cls: ast.ClassDef, summaries: dict[int, _Summary]) -> None:
    found = info.classes.setdefault(cls.name, ClassInfo(cls.name))
    for statement in cls.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.methods[statement.name] = statement
        elif isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            found.constants[statement.targets[0].id] = statement.value
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            kind = info.annotation_kind(statement.annotation)
            if kind == "client" or (isinstance(statement.value, ast.Call) and info.is_client_call(statement.value)):
                found.clients.add(statement.target.id)
            elif kind == "pipeline":
                found.pipelines.add(statement.target.id)
            elif kind == KIND_OTHER:
                found.others.add(statement.target.id)
        elif (
            isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Call)
            and info.is_client_call(statement.value)
        ):
            found.clients.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        annotated = {
            a.arg: info.annotation_kind(a.annotation)
            for a in (*method.args.posonlyargs, *method.args.args, *method.args.kwonlyargs)
        }
        for node in _summary(method, summaries).assigns:
            assert node.value is not None
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not _is_self_attribute(target):
                    continue
                attribute = target.attr  # type: ignore[attr-defined]
                kind = _value_kind(info, node.value, annotated, found)
                if isinstance(node, ast.AnnAssign):
                    kind = info.annotation_kind(node.annotation) or kind
                if kind == "client":
                    found.clients.add(attribute)
                elif kind == "pipeline":
                    found.pipelines.add(attribute)
                elif kind == KIND_OTHER:
                    found.others.add(attribute)
        if _returns_client(info, method, found, summaries):
            found.client_methods.add(method.name)
            if any(_decorator_name(d) in ("property", "cached_property") for d in method.decorator_list):
                found.clients.add(method.name)


def _value_kind(info: ModuleInfo, value: ast.expr, annotated: dict[str, str | None], cls: ClassInfo) -> str | None:
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call):
        if info.is_client_call(value, cls):
            return "client"
        if isinstance(value.func, ast.Attribute) and value.func.attr == "pipeline":
            return "pipeline"
        if info.is_other_call(value):
            return KIND_OTHER
    if isinstance(value, ast.Name):
        if value.id in info.client_globals:
            return "client"
        if value.id in info.other_globals:
            return KIND_OTHER
        return annotated.get(value.id)
    if _is_self_attribute(value) and value.attr in cls.clients:  # type: ignore[attr-defined]
        return "client"
    if isinstance(value, ast.BoolOp):  # `self.redis = redis or Redis()`
        kinds = {_value_kind(info, v, annotated, cls) for v in value.values}
        return "client" if "client" in kinds else None
    return None


def _decorator_name(decorator: ast.expr) -> str:
    if isinstance(decorator, ast.Attribute):
        return decorator.attr
    if isinstance(decorator, ast.Name):
        return decorator.id
    return ""
