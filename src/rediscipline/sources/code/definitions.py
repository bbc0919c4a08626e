"""The constants and key builders a module offers to the modules that import it.

Teams keep key formats in one place (`shop/keys.py: CART_TTL = 3600`, `def cart_key(uid): return
f"{PREFIX}:cart:{uid}"`) and import them where Redis is called. To read those keys and TTLs elsewhere, each
module's top-level constants and single-`return` functions are kept with the module's own constants
inlined into them (`PREFIX` replaced by its value), so they mean the same thing in any importing module.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

from rediscipline.sources.code.receivers import is_client_type

#: How deep constants are inlined into each other (`KEY = PREFIX + ":x"`, `PREFIX = APP + ":cache"`).
INLINE_DEPTH = 6


@dataclass
class Definitions:
    constants: dict[str, ast.expr] = field(default_factory=dict)
    builders: dict[str, ast.FunctionDef] = field(default_factory=dict)
    #: the module's own classes: their instances are not clients, unless the class extends one
    classes: set[str] = field(default_factory=set)
    client_classes: set[str] = field(default_factory=set)
    #: module-level names bound to an instance of one of its classes (`cache = RedisCache(...)`)
    instances: set[str] = field(default_factory=set)
    #: class → the parameters its own `__init__` takes after `self` (positional ones first)
    inits: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.constants or self.builders or self.classes)


def module_definitions(tree: ast.Module) -> Definitions:
    """The top-level constants and key builders of a module, self-contained (see the module docstring)."""
    raw: dict[str, ast.expr] = {}
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name) and _small(statement.value):
                raw[target.id] = statement.value
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value:
            if _small(statement.value):
                raw[statement.target.id] = statement.value
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.append(statement)
    found = module_classes(tree)
    for name, value in raw.items():
        found.constants[name] = _Inliner(raw, frozenset({name})).inline(value)
    for function in functions:
        returned = single_return(function)
        if returned is None:
            continue
        arguments = function.args
        params = frozenset(a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs))
        inlined = _Inliner({k: v for k, v in raw.items() if k not in params}, frozenset()).inline(returned)
        found.builders[function.name] = ast.FunctionDef(
            name=function.name, args=arguments, body=[ast.Return(value=inlined)], decorator_list=[]
        )
    return found


def module_classes(tree: ast.Module) -> Definitions:
    """The module's classes, those that extend a client, and the module-level instances of the others."""
    found = Definitions()
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            found.classes.add(statement.name)
            if any(_names_client_type(base) for base in statement.bases):
                found.client_classes.add(statement.name)
            for method in statement.body:
                if isinstance(method, ast.FunctionDef) and method.name == "__init__":
                    arguments = method.args
                    positional = tuple(a.arg for a in (*arguments.posonlyargs, *arguments.args))[1:]
                    found.inits[statement.name] = (positional, tuple(a.arg for a in arguments.kwonlyargs))
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
            func = statement.value.func
            if isinstance(func, ast.Name) and func.id in found.classes - found.client_classes:
                found.instances.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    return found


def _names_client_type(base: ast.expr) -> bool:
    """A base class spelled like a redis-py client (`redis.Redis`, `StrictRedis`, `RedisCluster`)."""
    name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
    return is_client_type(name)


def single_return(function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    """The expression a function returns when its body is one `return` (a docstring aside), else None."""
    body = [s for s in function.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return None
    return body[0].value


def _small(value: ast.expr) -> bool:
    """Worth exporting: literals, f-strings, arithmetic and formatting, not objects being built."""
    if isinstance(value, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.UnaryOp, ast.Name, ast.Attribute)):
        return True
    if isinstance(value, (ast.Tuple, ast.List)):
        return all(isinstance(e, ast.Constant) for e in value.elts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value.func.attr in ("format", "join")
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "timedelta"


class _Inliner(ast.NodeTransformer):
    def __init__(self, constants: dict[str, ast.expr], seen: frozenset[str], depth: int = 0) -> None:
        self.constants = constants
        self.seen = seen
        self.depth = depth

    def inline(self, expr: ast.expr) -> ast.expr:
        result = self.visit(copy.deepcopy(expr))
        return result if isinstance(result, ast.expr) else expr

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.constants.get(node.id)
        if value is None or node.id in self.seen or self.depth >= INLINE_DEPTH:
            return node
        return _Inliner(self.constants, self.seen | {node.id}, self.depth + 1).inline(value)
