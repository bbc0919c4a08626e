"""The evidence each receiver's calls give about what it is, gathered before any call is read.

A receiver the code does not show to be a client (a parameter without annotation, an attribute a
framework sets, a module global assigned by a call from another package) is taken for one only on weak
signals: a name that says Redis, or a method only Redis clients have. Those signals are weighed on the
receiver itself, over all of its uses, never over the module: a call whose arguments cannot bind to the
redis-py method of that name (`cache.set(k, v, timeout=3)`, `scripts.zadd(k, 1, m, mode="nx")`,
`cache.get(k, default)`) shows the object is something else, and outweighs any number of fitting calls.

Each receiver expression gets an identity that is the same wherever the same object is named:

* `S:<module>:<Class>.<attributes>` for `self.cache...` (and `cls`) in the methods of a class;
* `P:<module>:<name>.<attributes>` for a parameter, shared by the functions of the module (a pytest
  fixture, an injected dependency: one name, one kind of object);
* `G:<qualified name>.<attributes>` for a module global or an imported name, the same in every module of
  the project (`from .extensions import store` and `store` in `extensions.py` are one object);
* a local assigned from a name or a call (every time the same) takes that value's identity (`conn =
  get_conn()` is `G:<module>.get_conn()`, `for c in self.clients.values()` an element `...values()[]`);
  any other local is `L:<module>:<function>:<name>`, whose Redis-only calls are weighed with those of the
  things it is bound to (a parameter, then `with acquire(client) as client`).

A call result used as a receiver is its function's identity followed by `()`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from rediscipline.redis_meta.methods import METHODS
from rediscipline.sources.code.calls import fits
from rediscipline.sources.code.receivers import GENERIC_METHODS

#: How many local assignments are followed to name a receiver (`c = conn; c.get(k)`).
ALIAS_DEPTH = 4
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Evidence:
    """What the calls on one receiver say: how many Redis-only calls fit redis-py, which calls do not."""

    fitting: int = 0
    misfits: list[int] = field(default_factory=list)  # lines of calls that cannot be redis-py's

    def merge(self, other: Evidence) -> None:
        self.fitting += other.fitting
        self.misfits += other.misfits


@dataclass
class Receivers:
    """The identity of every receiver expression of a module (by node id), and the evidence per identity."""

    ids: dict[int, str] = field(default_factory=dict)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    #: a local bound to several things (a parameter, then `with acquire(client) as client`) → their identities
    alternatives: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Frame:
    """One function being read: its parameters, and the names its body binds, with the value when it is a
    plain `name = value`, `with value as name` or `for name in values` (an element, written `*values`)."""

    qualname: str
    params: frozenset[str]
    cls: str | None  # the class whose method this is
    parent: _Frame | None
    bindings: dict[str, list[ast.expr | None]] = field(default_factory=dict)
    declared_global: set[str] = field(default_factory=set)

    def bind(self, name: str, value: ast.expr | None) -> None:
        self.bindings.setdefault(name, []).append(value)


def collect(tree: ast.Module, module: str, imported: dict[str, str]) -> Receivers:
    """Identities and evidence for one module; `imported` maps local names to the qualified names they import.

    One walk records every function's bindings and every method call; identities are settled once the walk
    is over, since a name is local to a function wherever in it the binding is."""
    collector = _Collector(module, imported, _class_roots(tree))
    collector.body(tree.body, None, "", None)
    collector.settle()
    return collector.found


def _class_roots(tree: ast.Module) -> dict[str, str]:
    """Each top-level class → the first class of its line of bases defined in the same module: a class and
    its subclasses share their attributes (`self.database` of a base `Container` and of its `Hash`)."""
    bases: dict[str, str] = {}
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            local = [b.id for b in statement.bases if isinstance(b, ast.Name)]
            bases[statement.name] = local[0] if local else ""
    roots: dict[str, str] = {}
    for name in bases:
        root, seen = name, {name}
        while bases.get(root) in bases and bases[root] not in seen:
            root = bases[root]
            seen.add(root)
        roots[name] = root
    return roots


class _Collector:
    def __init__(self, module: str, imported: dict[str, str], roots: dict[str, str]) -> None:
        self.module = module
        self.imported = imported
        self.roots = roots
        self.found = Receivers()
        self.calls: list[tuple[ast.Call, ast.Attribute, _Frame | None]] = []
        self.bound: set[int] = set()  # name nodes already recorded with their value
        self.names: dict[tuple[int, str], str | None] = {}  # (function, name) → identity

    def body(self, statements: list[ast.stmt], frame: _Frame | None, qualname: str, cls: str | None) -> None:
        for statement in statements:
            self.node(statement, frame, qualname, cls)

    def node(self, node: ast.AST, frame: _Frame | None, qualname: str, cls: str | None) -> None:
        if isinstance(node, _FUNCTIONS):
            if frame is not None:
                frame.bind(node.name, None)
            for outer in (*node.decorator_list, *node.args.defaults, *node.args.kw_defaults):
                if outer is not None:
                    self.node(outer, frame, qualname, cls)
            name = f"{qualname}.{node.name}" if qualname else node.name
            self.body(node.body, _frame(node, name, cls, frame), name, None)
            return
        if isinstance(node, ast.ClassDef):
            if frame is not None:
                frame.bind(node.name, None)
            for outer in (*node.decorator_list, *node.bases):
                self.node(outer, frame, qualname, cls)
            name = f"{qualname}.{node.name}" if qualname else node.name
            self.body(node.body, frame, name, self.roots.get(node.name, name) if not qualname else name)
            return
        if isinstance(node, ast.Lambda):
            return
        if frame is not None:
            self.binding(node, frame)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            self.calls.append((node, node.func, frame))
        for child in ast.iter_child_nodes(node):
            self.node(child, frame, qualname, cls)

    def binding(self, node: ast.AST, frame: _Frame) -> None:
        """Record what `node` binds in the function `frame` (see `_Frame`)."""
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store) and id(node) not in self.bound:
                frame.bind(node.id, None)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.named(node.targets[0], node.value, frame)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            self.named(node.target, node.value, frame)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if isinstance(item.optional_vars, ast.Name):
                    self.named(item.optional_vars, item.context_expr, frame)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and isinstance(node.target, ast.Name):
            self.named(node.target, ast.Starred(value=node.iter), frame)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            frame.declared_global.update(node.names)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                frame.bind((alias.asname or alias.name).split(".")[0], None)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            frame.bind(node.name, None)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            frame.bind(node.rest, None)

    def named(self, target: ast.Name, value: ast.expr | None, frame: _Frame) -> None:
        frame.bind(target.id, value)
        self.bound.add(id(target))

    def settle(self) -> None:
        """Give each recorded call's receiver its identity, and count the call as evidence on it."""
        for call, func, frame in self.calls:
            self.call(call, func, frame)

    def call(self, call: ast.Call, func: ast.Attribute, frame: _Frame | None) -> None:
        identity = self.identity(func.value, frame, 0)
        if identity is None:
            return
        self.found.ids[id(func.value)] = identity
        spec = METHODS.get(func.attr)
        if spec is None:
            return
        evidence = self.found.evidence.setdefault(identity, Evidence())
        if not fits(call, spec):
            evidence.misfits.append(call.lineno)
        elif func.attr not in GENERIC_METHODS:
            evidence.fitting += 1

    def identity(self, expr: ast.expr, frame: _Frame | None, depth: int) -> str | None:
        if isinstance(expr, ast.Await):
            expr = expr.value
        if isinstance(expr, ast.Name):
            return self.root(expr.id, frame, depth)
        if isinstance(expr, (ast.Attribute, ast.Call, ast.Subscript, ast.Starred)):
            inner = expr.func if isinstance(expr, ast.Call) else expr.value
            base = self.identity(inner, frame, depth)
            if base is None:
                return None
            if isinstance(expr, ast.Attribute):
                return f"{base}.{expr.attr}"
            return f"{base}()" if isinstance(expr, ast.Call) else f"{base}[]"  # an item, or an element iterated
        return None

    def root(self, name: str, frame: _Frame | None, depth: int) -> str | None:
        """The identity of a name where it is used (memoised per function: a name is one thing there)."""
        key = (id(frame), name)
        if key in self.names:
            return self.names[key]
        self.names[key] = f"L:{self.module}:{frame.qualname if frame else ''}:{name}"  # while it is worked out
        found = self.names[key] = self._root(name, frame, depth)
        return found

    def _root(self, name: str, frame: _Frame | None, depth: int) -> str | None:
        scope = frame
        while scope is not None:
            if scope.cls is not None and name in ("self", "cls") and name in scope.params:
                return f"S:{self.module}:{scope.cls}"
            if name in scope.declared_global:
                break
            if name in scope.params and name not in scope.bindings:
                return f"P:{self.module}:{name}"
            values = scope.bindings.get(name)
            if values is not None:
                if name not in scope.params and None not in values and depth < ALIAS_DEPTH:
                    aliased = {self.identity(value, scope, depth + 1) for value in values if value is not None}
                    if len(aliased) == 1 and None not in aliased:
                        return aliased.pop()  # every binding names the same thing (`for c in clients` twice)
                identity = f"L:{self.module}:{scope.qualname}:{name}"
                if depth < ALIAS_DEPTH and identity not in self.found.alternatives:
                    self.found.alternatives[identity] = []  # a name bound twice to itself stops here
                    options = {self.identity(value, scope, depth + 1) for value in values if value is not None}
                    if name in scope.params:
                        options.add(f"P:{self.module}:{name}")
                    self.found.alternatives[identity] = sorted(o for o in options if o is not None)
                return identity
            scope = scope.parent
        qualified = self.imported.get(name) or (f"{self.module}.{name}" if self.module else name)
        return f"G:{qualified}"


def _frame(
    function: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str, cls: str | None, parent: _Frame | None
) -> _Frame:
    arguments = function.args
    params = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    params |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    return _Frame(qualname, frozenset(params), cls, parent)
