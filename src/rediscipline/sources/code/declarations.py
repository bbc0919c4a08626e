"""Read a module's declarations into a `ModuleInfo`: imports, globals, factories, classes (module.py).

One walk finds the imports (at any depth) and the functions handed to `client.transaction`; the top level
gives constants, globals, functions and classes; then a few passes settle what functions return and what
class attributes hold, since a factory may return another factory's client and an attribute may hold
what a method returns.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from dataclasses import dataclass, field

from rediscipline.sources.code.constructors import record_constructions, snapshot
from rediscipline.sources.code.evidence import Receivers, collect
from rediscipline.sources.code.kinds import KIND_CLIENT, PIPELINE_KIND, REDIS_PACKAGES, Kind, is_class_name
from rediscipline.sources.code.module import FACTORY_PASSES, TYPING_MODULES, ClassInfo, ModuleInfo
from rediscipline.sources.code.project_api import Project

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass
class ReadCache:
    """What reading one tree finds that does not depend on the project, kept between the project's passes."""

    summaries: dict[int, _Summary] = field(default_factory=dict)
    imports: list[ast.Import | ast.ImportFrom] | None = None
    callbacks: set[str] = field(default_factory=set)


def read_module(
    tree: ast.Module,
    name: str = "",
    project: Project | None = None,
    receivers: Receivers | None = None,
    cache: ReadCache | None = None,
) -> ModuleInfo:
    """The first pass over a module (see the module docstring). `project` resolves imports of the project's
    other modules; `receivers` is the module's receiver evidence when it was already collected, and `cache`
    what an earlier reading of the same tree found."""
    info = ModuleInfo(name=name, project=project)
    cache = cache if cache is not None else ReadCache()
    if cache.imports is None:
        cache.imports = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "transaction" and node.args:
                    callback = node.args[0]
                    if isinstance(callback, (ast.Name, ast.Attribute)):
                        cache.callbacks.add(callback.id if isinstance(callback, ast.Name) else callback.attr)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                cache.imports.append(node)
    info.transaction_callbacks = set(cache.callbacks)
    for node in cache.imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                _import(info, alias)
        else:
            _import_from(info, node)
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            qualname = f"{name}.{statement.name}" if name else statement.name
            info.classes[statement.name] = ClassInfo(statement.name, qualname)
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            _declare_class(info, statement)
        elif isinstance(statement, _FUNCTIONS):
            info.functions[statement.name] = statement
    classes = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    functions = [s for s in tree.body if isinstance(s, _FUNCTIONS)]
    summaries = cache.summaries
    for _ in range(FACTORY_PASSES):  # until a pass learns nothing new
        before = _learned(info)
        for statement in tree.body:
            _read_top_level(info, statement)
        for function in functions:
            found = _returns_kind(info, function, None, summaries)
            fixture = _fixture_name(function)
            if fixture is not None:
                found = found or _yields_kind(info, function, summaries)
                if found is not None:
                    info.fixtures[fixture] = found
            elif found is not None:
                info.function_kinds[function.name] = found
        for cls in classes:
            _read_class(info, cls, summaries)
        _read_constructions(info, tree, functions, classes, summaries)
        if _learned(info) == before:
            break
    info.receivers = receivers if receivers is not None else collect(tree, name, info.imported)
    return info


def _import(info: ModuleInfo, alias: ast.alias) -> None:
    local = alias.asname or alias.name.split(".")[0]
    info.imported[local] = alias.name if alias.asname else alias.name.split(".")[0]
    _import_module(info, alias.name, alias.asname or alias.name)
    if alias.name.split(".")[0] in REDIS_PACKAGES:
        info.aliases[local] = alias.name if alias.asname else alias.name.split(".")[0]


def _import_from(info: ModuleInfo, node: ast.ImportFrom) -> None:
    project = info.project
    source = _resolve(info, node.module, node.level)
    redis = node.level == 0 and node.module is not None and node.module.split(".")[0] in REDIS_PACKAGES
    defined = project.defined(source) if project is not None and source is not None else None
    for alias in node.names:
        local = alias.asname or alias.name
        info.imported[local] = f"{source}.{alias.name}" if source else alias.name
        if redis:
            info.aliases[local] = f"{node.module}.{alias.name}"
        if project is None or source is None:
            continue
        kind = project.global_kind(source, alias.name)
        if kind is not None:
            info.globals[local] = kind
        function = project.function_kind(source, alias.name)
        if function is not None:
            info.function_kinds[local] = function
        if defined is not None and alias.name in defined.constants:
            info.constants[local] = defined.constants[alias.name]
        elif defined is not None and alias.name in defined.builders:
            info.functions[local] = defined.builders[alias.name]
        elif defined is None or alias.name not in defined.classes:  # `from shop import keys`: a module
            _import_module(info, f"{source}.{alias.name}", local)


def _resolve(info: ModuleInfo, module: str | None, level: int) -> str | None:
    if info.project is not None:
        return info.project.resolve(info.name, module, level)
    if not level:
        return module
    package = info.name.split(".")
    base = package[: len(package) - level] if len(package) >= level else []
    return ".".join([*base, module] if module else base)


def _import_module(info: ModuleInfo, module: str, local: str) -> None:
    """Remember a project module imported whole, so `keys.cart_key(uid)` and `keys.CART_TTL` can be read."""
    project = info.project
    if project is None:
        return
    source = project.resolve(info.name, module, 0)
    if source is None:
        return
    defined = project.defined(source)
    if defined is not None:
        info.imported_modules[local] = defined
        info.imported[local] = source


def _declare_class(info: ModuleInfo, node: ast.ClassDef) -> None:
    found = info.classes[node.name]
    bases: list[str] = []
    for base in node.bases:
        qualified = info.qualify(base)
        if qualified is not None and qualified.split(".", 1)[0] in TYPING_MODULES:
            continue
        written = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else None
        if qualified is None and written in BUILTIN_NAMES:
            continue  # `object`, `Exception`, `dict`
        if qualified or written:
            bases.append(qualified or written)  # type: ignore[arg-type]
    found.bases = tuple(bases)
    for statement in node.body:
        if isinstance(statement, _FUNCTIONS):
            found.methods[statement.name] = statement
            if any(_decorator_name(d) in ("property", "cached_property") for d in statement.decorator_list):
                found.properties.add(statement.name)
        elif isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            found.constants[statement.targets[0].id] = statement.value
            named = info.qualify(statement.value) if isinstance(statement.value, (ast.Name, ast.Attribute)) else None
            if named is not None and is_class_name(named.rsplit(".", 1)[-1]):
                found.class_attributes[statement.targets[0].id] = named


@dataclass
class _Summary:
    """What resolution reads in one function, collected in a single walk: assignments, returned and
    yielded values, and calls that may build a class (with arguments)."""

    assigns: list[ast.Assign | ast.AnnAssign]
    returns: list[ast.expr]
    yields: list[ast.expr]
    names: dict[str, list[ast.Assign | ast.AnnAssign]] = field(default_factory=dict)  # local name → its assignments
    calls: list[ast.Call] = field(default_factory=list)


def _summary(function: ast.FunctionDef | ast.AsyncFunctionDef, cache: dict[int, _Summary]) -> _Summary:
    found = cache.get(id(function))
    if found is None:
        found = cache[id(function)] = _Summary([], [], [])
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                found.assigns.append(node)
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        found.names.setdefault(target.id, []).append(node)
            elif isinstance(node, ast.Return) and node.value is not None:
                found.returns.append(node.value.value if isinstance(node.value, ast.Await) else node.value)
            elif isinstance(node, ast.Yield) and node.value is not None:
                found.yields.append(node.value)
            elif isinstance(node, ast.Call) and _may_build(node):
                found.calls.append(node)
    return found


def _may_build(call: ast.Call) -> bool:
    """A call with arguments that may build a class: a class name (CapWords, by PEP 8), `cls(...)`, or an
    `__init__` called on a base (`super().__init__(client)`)."""
    if not (call.args or call.keywords):
        return False
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name in ("cls", "__init__") or is_class_name(name)


def _read_constructions(
    info: ModuleInfo,
    tree: ast.Module,
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef],
    classes: list[ast.ClassDef],
    summaries: dict[int, _Summary],
) -> None:
    """What this module's calls give the `__init__` of the project's classes (constructors.py)."""
    info.constructed = {}
    module_level = summaries.get(id(tree))
    if module_level is None:
        module_level = summaries[id(tree)] = _Summary([], [], [])
        for statement in tree.body:
            if not isinstance(statement, (*_FUNCTIONS, ast.ClassDef)):
                module_level.calls += [n for n in ast.walk(statement) if isinstance(n, ast.Call) and _may_build(n)]
    record_constructions(info, module_level.calls, None, None, None)
    for function in functions:
        calls = _summary(function, summaries).calls
        if calls:
            record_constructions(info, calls, None, function, _function_kinds(info, function, None, summaries))
    for node in classes:
        cls = info.classes[node.name]
        for method in cls.methods.values():
            calls = _summary(method, summaries).calls
            if calls:
                record_constructions(info, calls, cls, method, _function_kinds(info, method, cls, summaries))


def _fixture_name(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The name a pytest fixture is requested by (`@pytest.fixture`, `@pytest_asyncio.fixture(name=...)`)."""
    for decorator in function.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if _decorator_name(call.func if call is not None else decorator) != "fixture":
            continue
        named = next((k.value for k in call.keywords if k.arg == "name"), None) if call is not None else None
        if isinstance(named, ast.Constant) and isinstance(named.value, str):
            return named.value
        return function.name
    return None


def _yields_kind(
    info: ModuleInfo,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    summaries: dict[int, _Summary],
) -> Kind | None:
    """What a generator fixture yields to the tests that request it."""
    lookup = _function_kinds(info, function, None, summaries)
    kinds = [info.value_kind(value, None, lookup) for value in _summary(function, summaries).yields]
    return next((k for k in kinds if k is not None and k.kind == KIND_CLIENT), None) or next(
        (k for k in kinds if k is not None), None
    )


def _learned(info: ModuleInfo) -> tuple[object, ...]:
    """What resolution knows, to stop the passes when one adds nothing."""
    return (
        snapshot(info.constructed),
        tuple(sorted(info.globals.items())),
        tuple(sorted(info.type_aliases.items())),
        tuple(sorted(info.function_kinds.items())),
        tuple(cls.snapshot() for cls in info.classes.values()),
    )


def _read_top_level(info: ModuleInfo, statement: ast.stmt) -> None:
    targets: list[ast.expr] = []
    value: ast.expr | None = None
    annotated: Kind | None = None
    if isinstance(statement, ast.Assign):
        targets, value = statement.targets, statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        targets, value = [statement.target], statement.value
        annotated = info.annotation_kind(statement.annotation)
    if value is None:
        return
    for target in targets:
        if isinstance(target, ast.Name):
            info.constants[target.id] = value
            kind = annotated or info.value_kind(value)
            if kind is not None:
                info.globals[target.id] = kind
            elif _may_be_type_alias(statement, value):
                alias = info.annotation_kind(value)  # `ClientType = Union[redis.Redis, FakeRedis]`
                if alias is not None:
                    info.type_aliases[target.id] = alias


#: Expressions a type alias is written as: a name, a generic (`Union[...]`), a union (`Redis | None`).
_TYPE_EXPRESSIONS = (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp)


def _may_be_type_alias(statement: ast.stmt, value: ast.expr) -> bool:
    """`ClientType = redis.Redis`, `ClientType = Union[...]`, `ClientType: TypeAlias = ...`."""
    if not isinstance(statement, ast.AnnAssign):
        return isinstance(value, _TYPE_EXPRESSIONS)
    annotation = statement.annotation
    return (annotation.id if isinstance(annotation, ast.Name) else getattr(annotation, "attr", "")) == "TypeAlias"


def _function_kinds(
    info: ModuleInfo,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    cls: ClassInfo | None,
    summaries: dict[int, _Summary],
) -> Callable[[str], Kind | None]:
    """What the names of a function hold: its annotated parameters, `self`, and its assigned locals (each
    read when first asked for; a client assigned anywhere wins)."""
    arguments = function.args
    params = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    assigned = _summary(function, summaries).names
    known: dict[str, Kind | None] = {}

    def lookup(name: str) -> Kind | None:
        if name in known:
            return known[name]
        known[name] = None  # a name assigned from itself reads as unknown
        found: Kind | None = None
        for node in assigned.get(name, ()):
            kind = info.annotation_kind(node.annotation) if isinstance(node, ast.AnnAssign) else None
            kind = kind or info.value_kind(node.value, cls, lookup)  # type: ignore[arg-type]
            if kind is not None and (found is None or kind.kind == KIND_CLIENT):
                found = kind
        if found is None:
            for index, argument in enumerate(params):
                if argument.arg == name:
                    found = info.annotation_kind(argument.annotation)
                    if found is None and cls is not None and index == 0 and name in ("self", "cls"):
                        found = info.self_kind(cls)
                    elif found is None and cls is not None and index > 0 and function.name == "__init__":
                        found = info.constructor_kind(cls.qualname, name)  # what the callers build it with
        known[name] = found
        return found

    return lookup


def _returns_kind(
    info: ModuleInfo,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    cls: ClassInfo | None,
    summaries: dict[int, _Summary],
) -> Kind | None:
    """What a function returns: its annotation, else what its `return` statements give (a client first)."""
    annotated = info.annotation_kind(function.returns)
    if annotated is not None:
        return annotated
    lookup = _function_kinds(info, function, cls, summaries)
    found: Kind | None = None
    for value in _summary(function, summaries).returns:
        kind = info.value_kind(value, cls, lookup)
        if kind is not None and kind.kind == KIND_CLIENT:
            return kind
        found = found or kind
    return found


def _read_class(info: ModuleInfo, cls: ast.ClassDef, summaries: dict[int, _Summary]) -> None:
    found = info.classes[cls.name]
    for statement in cls.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            kind = info.annotation_kind(statement.annotation)
            if kind is None and statement.value is not None:
                kind = info.value_kind(statement.value, found)
            _set_attribute(found, statement.target.id, kind)
        elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
            kind = info.value_kind(statement.value, found)
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    _set_attribute(found, target.id, kind)
    for method in found.methods.values():
        lookup = _function_kinds(info, method, found, summaries)
        for node in _summary(method, summaries).assigns:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not _is_self_attribute(target) or node.value is None:
                    continue
                kind = info.annotation_kind(node.annotation) if isinstance(node, ast.AnnAssign) else None
                kind = kind or info.value_kind(node.value, found, lookup)
                if kind is None and isinstance(node.value, ast.Call) and _method_name(node.value) == "pipeline":
                    kind = PIPELINE_KIND  # `self.pipe = conn.pipeline()`
                _set_attribute(found, target.attr, kind)  # type: ignore[attr-defined]
        returned = _returns_kind(info, method, found, summaries)
        if returned is not None:
            found.returns[method.name] = returned


def _set_attribute(cls: ClassInfo, name: str, kind: Kind | None) -> None:
    """Record what an attribute holds; a client assigned anywhere wins over anything else."""
    if kind is None:
        return
    current = cls.attributes.get(name)
    if current is None or (kind.kind == KIND_CLIENT and current.kind != KIND_CLIENT):
        cls.attributes[name] = kind


def _is_self_attribute(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls")


def _method_name(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else ""


def _decorator_name(decorator: ast.expr) -> str:
    if isinstance(decorator, ast.Attribute):
        return decorator.attr
    if isinstance(decorator, ast.Name):
        return decorator.id
    return ""
