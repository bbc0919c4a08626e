"""Module globals that functions assign through `global`: what else they hold besides their module-level value.

A client configured at run time is often declared as a placeholder and set by an initialisation function:
`_client = None` at module level, then `def init(cfg): global _client; _client = redis.Redis(...)`, and the
other functions call `_client.keys(...)`. The module-level `None` is only the value before `init()` runs, so
such a global holds every value any of its assignments gives it (the module's own and those made through
`global` in its functions, at any depth), and it is no constant: it is not read as plain data nor as a key
template's literal.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass(frozen=True, slots=True)
class GlobalAssignment:
    """`name = value` (or `name: annotation = value`) in `function`, a method of the top-level class `owner`
    when it is one, where `function` declares `global name`."""

    name: str
    value: ast.expr
    annotation: ast.expr | None
    function: ast.FunctionDef | ast.AsyncFunctionDef
    owner: str | None


def global_assignments(tree: ast.Module) -> list[GlobalAssignment]:
    """Every assignment to a module global made through `global` in a function of the module."""
    found: list[GlobalAssignment] = []
    for statement in tree.body:
        if isinstance(statement, _FUNCTIONS):
            _function(statement, None, found)
        elif isinstance(statement, ast.ClassDef):
            for member in _nested_functions(statement.body):
                _function(member, statement.name, found)
    return found


def _function(
    function: ast.FunctionDef | ast.AsyncFunctionDef, owner: str | None, found: list[GlobalAssignment]
) -> None:
    own = list(_own_nodes(function))
    declared = {name for node in own if isinstance(node, ast.Global) for name in node.names}
    for node in own:
        if not declared:
            break
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in declared:
                    found.append(GlobalAssignment(target.id, node.value, None, function, owner))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            name = node.target.id
            found += [GlobalAssignment(name, node.value, node.annotation, function, owner)] if name in declared else []
    for nested in _nested_functions(function.body):
        _function(nested, owner, found)


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of a function's body that belong to its own scope (not to functions or classes inside it)."""
    nodes: list[ast.AST] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        nodes.append(node)
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return nodes


def _nested_functions(body: list[ast.stmt]) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions defined in a body (at any depth of its statements, not inside other functions)."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, _FUNCTIONS):
            found.append(node)
        elif not isinstance(node, (ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return found
