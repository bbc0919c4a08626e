"""What the run's calls pass to the parameters of the project's functions and methods.

A helper often receives its client from its callers instead of making it: `def redis_operations(client):
client.set(...)`, called as `redis_operations(redis.Redis(...))` in one test and `self.redis_operations(
self.client)` in another. As for the constructors of the project's classes (constructors.py), every call of a
function or method of the project that the code names (`helper(conn)`, `self.helper(conn)`, `cls.helper(conn)`,
`Store.helper(conn)`, `helpers.helper(conn)` on an imported module of the run, `helper` imported from one) is
bound to that function's parameters, and the kind of each argument is kept per function and parameter, in the
table the constructors use (`ModuleInfo.constructed`, keyed by the function's qualified name: `pkg.mod.helper`,
`pkg.mod.Class.helper`). A parameter then holds what its callers pass when they agree
(`constructors.agreed_kind`); test doubles and values the reader cannot resolve count neither way.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rediscipline.sources.code.constructors import record_arguments
from rediscipline.sources.code.definitions import parameters
from rediscipline.sources.code.kinds import Kind

if TYPE_CHECKING:
    from rediscipline.sources.code.module import ClassInfo, ModuleInfo

#: How many base classes up a method called on `self` is looked for.
METHOD_DEPTH = 8
#: (positional or keyword parameters, keyword-only ones)
Parameters = tuple[tuple[str, ...], tuple[str, ...]]
_Function = ast.FunctionDef | ast.AsyncFunctionDef


def may_pass(call: ast.Call) -> bool:
    """A call with arguments that may run a function or method of the project: `name(...)`, `self.name(...)`,
    `module.name(...)`, `Class.name(...)` (cheap to test on every call; `record_calls` resolves it)."""
    if not (call.args or call.keywords):
        return False
    func = call.func
    return isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name))


def record_calls(
    info: ModuleInfo,
    calls: Iterable[ast.Call],
    cls: ClassInfo | None,
    lookup: Callable[[str], Kind | None] | None,
) -> None:
    """Record in `info.constructed` the kinds of the arguments that `calls` (made in a method of `cls` when
    it is one, whose names `lookup` resolves) pass to the functions and methods of the project."""
    for call in calls:
        callee = _callee(info, call, cls)
        if callee is None:
            continue
        key, (positional, keyword_only), skip = callee
        record_arguments(info, key, call.args, call.keywords, (positional[skip:], keyword_only), cls=cls, lookup=lookup)


def function_key(info: ModuleInfo, function: str, cls: ClassInfo | None) -> str:
    """The name a function or method is recorded under: `pkg.mod.helper`, `pkg.mod.Class.helper`."""
    if cls is not None:
        return f"{cls.qualname}.{function}"
    return f"{info.name}.{function}" if info.name else function


def _callee(info: ModuleInfo, call: ast.Call, cls: ClassInfo | None) -> tuple[str, Parameters, int] | None:
    """(the function's key, its parameters, how many leading ones the call does not give: `self`, `cls`)."""
    func = call.func
    if isinstance(func, ast.Name):
        own = info.functions.get(func.id) if func.id not in info.imported else None
        if own is not None:
            return function_key(info, func.id, None), parameters(own), 0
        imported = info.imported.get(func.id)
        return _imported(info, imported) if imported is not None else None
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
        return None
    owner = func.value.id
    if owner in ("self", "cls") and cls is not None:
        found = _method(info, cls.qualname, func.attr, 0)
        if found is None:
            return None
        defining, method = found
        return f"{defining}.{func.attr}", parameters(method), 0 if _decorated(method, "staticmethod") else 1
    named = info.classes.get(owner)
    if named is not None:  # `Store.helper(conn)`: a static or class method (or a method given its instance)
        found = _method(info, named.qualname, func.attr, 0)
        if found is None:
            return None
        defining, method = found
        return f"{defining}.{func.attr}", parameters(method), 1 if _decorated(method, "classmethod") else 0
    module = info.imported.get(owner)
    return _imported(info, f"{module}.{func.attr}") if module is not None else None


def _imported(info: ModuleInfo, qualified: str) -> tuple[str, Parameters, int] | None:
    """A module-level function of another module of the run, by qualified name."""
    module, _, name = qualified.rpartition(".")
    defined = info.project.defined(module) if info.project is not None and module else None
    found = defined.functions.get(name) if defined is not None else None
    return (qualified, found, 0) if found is not None else None


def _method(info: ModuleInfo, qualname: str, name: str, depth: int) -> tuple[str, _Function] | None:
    """The class (of the project) that defines `name` for instances of `qualname`, and the method."""
    found = info.class_info(qualname)
    if found is None or depth > METHOD_DEPTH:
        return None
    method = found.methods.get(name)
    if method is not None:
        return found.qualname, method
    for base in found.bases:
        inherited = _method(info, base, name, depth + 1)
        if inherited is not None:
            return inherited
    return None


def _decorated(function: _Function, name: str) -> bool:
    return any(
        (d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else "") == name
        for d in function.decorator_list
    )
