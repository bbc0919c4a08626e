"""What the project's classes are given when they are built, so that what `__init__` stores can be followed.

A class often receives its client rather than making it: `PageFilter(self.redis_conn, ...)` in one module,
`def __init__(self, server): self.server = server` in another, then `self.server.set(k, 0)`. Every call of a
project class in the run (`PageFilter(conn)`, `Scheduler.from_settings` calling `cls(server, ...)`, a
subclass's `super().__init__(client)` or `Base.__init__(self, client)`) is bound to the parameters of the
`__init__` it runs (the class's own, or the first one up its bases), and the kind of each argument is kept
per class and parameter. A parameter is then taken to hold what its callers pass when they agree: every
argument whose kind is known is the same kind, or all of them are clients. Test doubles and values the
reader cannot resolve do not count for or against.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rediscipline.sources.code.kinds import (
    CLIENT_KIND,
    KIND_CLIENT,
    KIND_OTHER,
    SHAPE_CLASS,
    SHAPE_PARAM,
    Kind,
    is_mock,
)

if TYPE_CHECKING:
    from rediscipline.sources.code.module import ClassInfo, ModuleInfo

#: How many base classes up an inherited `__init__` is looked for.
INIT_DEPTH = 8
#: class (qualified name) → parameter of its `__init__` → the kinds of the arguments given for it
Constructed = dict[str, dict[str, set[Kind]]]
#: an `__init__`'s parameters after `self`: (positional or keyword, keyword-only)
Parameters = tuple[tuple[str, ...], tuple[str, ...]]
_Function = ast.FunctionDef | ast.AsyncFunctionDef


def record_constructions(
    info: ModuleInfo,
    calls: Iterable[ast.Call],
    cls: ClassInfo | None,
    function: _Function | None,
    lookup: Callable[[str], Kind | None] | None,
) -> None:
    """Record in `info.constructed` the kinds of the arguments that `calls` (made in `function`, a method of
    `cls` when it is one) pass to the `__init__` of a project class."""
    for call in calls:
        built = _built(info, call, cls, function)
        if built is None:
            continue
        owner, signature, skip = built
        record_arguments(info, owner, call.args[skip:], call.keywords, signature, cls=cls, lookup=lookup)


def record_arguments(
    info: ModuleInfo,
    owner: str,
    args: list[ast.expr],
    keywords: list[ast.keyword],
    signature: Parameters,
    *,
    cls: ClassInfo | None,
    lookup: Callable[[str], Kind | None] | None,
) -> None:
    """Bind `args` and `keywords` to `signature` (up to the first `*args`) and record the kind of each bound
    argument under `owner` in `info.constructed`; test doubles count neither way."""
    positional, keyword_only = signature
    given: list[tuple[str, ast.expr]] = []
    for index, argument in enumerate(args):
        if isinstance(argument, ast.Starred) or index >= len(positional):
            break
        given.append((positional[index], argument))
    named = {*positional, *keyword_only}
    given += [(k.arg, k.value) for k in keywords if k.arg is not None and k.arg in named]
    for parameter, argument in given:
        kind = info.value_kind(argument, cls, lookup)
        if kind is not None and not (kind.cls is not None and is_mock(kind.cls)):
            info.constructed.setdefault(owner, {}).setdefault(parameter, set()).add(kind)


def _built(
    info: ModuleInfo, call: ast.Call, cls: ClassInfo | None, function: _Function | None
) -> tuple[str, Parameters, int] | None:
    """(the class whose `__init__` the call runs, that `__init__`, how many leading arguments are not its
    parameters), or None when the call builds nothing of the project."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "__init__":
        value = func.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
            if cls is None:
                return None
            for base in cls.bases:  # `super().__init__(client)`: the first base that has one
                found = _init_of(info, base, 0)
                if found is not None:
                    return (*found, 0)
            return None
        named = info.qualify(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
        found = _init_of(info, named, 0) if named is not None else None
        return (*found, 1) if found is not None else None  # `Base.__init__(self, client)`
    if isinstance(func, ast.Name) and cls is not None and function is not None and _is_own_class(func.id, function):
        qualname: str | None = cls.qualname  # `cls(...)` in a classmethod
    elif isinstance(func, (ast.Name, ast.Attribute)):
        qualname = info.qualify(func)
    else:
        return None
    found = _init_of(info, qualname, 0) if qualname is not None else None
    return (*found, 0) if found is not None else None


def _init_of(info: ModuleInfo, qualname: str, depth: int) -> tuple[str, Parameters] | None:
    """The project class that defines the `__init__` instances of `qualname` run, and its parameters. A class
    of a module that is not read for its declarations (nothing in it names Redis) is known by its own
    `__init__` only (definitions.py)."""
    found = info.class_info(qualname)
    if depth > INIT_DEPTH:
        return None
    if found is None:
        module, _, name = qualname.rpartition(".")
        defined = info.project.defined(module) if info.project is not None and module else None
        parameters = defined.inits.get(name) if defined is not None else None
        return (qualname, parameters) if parameters is not None else None
    init = found.methods.get("__init__")
    if init is not None:
        arguments = init.args
        positional = tuple(a.arg for a in (*arguments.posonlyargs, *arguments.args))[1:]
        return found.qualname, (positional, tuple(a.arg for a in arguments.kwonlyargs))
    for base in found.bases:
        inherited = _init_of(info, base, depth + 1)
        if inherited is not None:
            return inherited
    return None


def _is_own_class(name: str, function: _Function) -> bool:
    """`cls` in a classmethod: the class the method was called on."""
    arguments = [*function.args.posonlyargs, *function.args.args]
    classmethod = any(isinstance(d, ast.Name) and d.id == "classmethod" for d in function.decorator_list)
    return classmethod and bool(arguments) and arguments[0].arg == name


def agreed_kind(kinds: Iterable[Kind]) -> Kind | None:
    """What a parameter holds when its callers agree (see the module docstring)."""
    found = sorted({kind for kind in kinds if not (kind.cls is not None and is_mock(kind.cls))}, key=repr)
    if len(found) == 1:
        return found[0]
    if found and all(kind.kind == KIND_CLIENT for kind in found):
        return found[0]
    return None


def snapshot(constructed: Constructed) -> tuple[object, ...]:
    """A comparable copy of what was recorded, to tell whether a pass learned something."""
    return tuple(
        (owner, parameter, tuple(sorted(map(repr, kinds))))
        for owner, parameters in sorted(constructed.items())
        for parameter, kinds in sorted(parameters.items())
    )


def fixture_request_kind(info: ModuleInfo, function: _Function) -> Kind | None:
    """What `request` is in a pytest fixture declared with `params=[...]` listing classes
    (`@pytest.fixture(params=[RedisCache, CustomCache])`): its `.param` is one of them, so calling it gives an
    instance of the one the others extend (a client when they are all client classes). None when the listed
    values are not classes, or have no such common class."""
    for decorator in function.decorator_list:
        if not isinstance(decorator, ast.Call) or _name(decorator.func) != "fixture":
            continue
        listed = next((k.value for k in decorator.keywords if k.arg == "params"), None)
        if not isinstance(listed, (ast.List, ast.Tuple)) or not listed.elts:
            return None
        kinds: list[Kind] = []
        for element in listed.elts:
            value = element
            if isinstance(value, ast.Call) and _name(value.func) == "param" and value.args:
                value = value.args[0]  # `pytest.param(RedisCache, marks=...)`
            made = info.call_kind(ast.Call(func=value, args=[], keywords=[]))
            if not isinstance(value, (ast.Name, ast.Attribute)) or made is None:
                return None
            kinds.append(made)
        instance = _common_class(info, kinds)
        if instance is None:
            return None
        return Kind(
            KIND_OTHER, "_pytest.fixtures.FixtureRequest", Kind(KIND_OTHER, None, instance, SHAPE_CLASS), SHAPE_PARAM
        )
    return None


def _common_class(info: ModuleInfo, kinds: list[Kind]) -> Kind | None:
    distinct = sorted(set(kinds), key=repr)
    if len(distinct) == 1:
        return distinct[0]
    if all(kind.kind == KIND_CLIENT for kind in distinct):
        return CLIENT_KIND
    for candidate in distinct:
        if candidate.cls is not None and all(_extends(info, kind.cls, candidate.cls, 0) for kind in distinct):
            return candidate
    return None


def _extends(info: ModuleInfo, cls: str | None, base: str, depth: int) -> bool:
    """Whether the project class `cls` is `base` or one of its subclasses."""
    if cls is None or depth > INIT_DEPTH:
        return False
    found, wanted = info.class_info(cls), info.class_info(base)
    if found is None or wanted is None:
        return cls == base
    return found is wanted or any(_extends(info, parent, base, depth + 1) for parent in found.bases)


def _name(expr: ast.expr) -> str:
    return expr.attr if isinstance(expr, ast.Attribute) else expr.id if isinstance(expr, ast.Name) else ""
