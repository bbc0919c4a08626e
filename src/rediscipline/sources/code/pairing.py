"""Settle the calls of one function when it ends: which write is the first of its key, which EXPIRE pairs
with it.

TTL006 judges a write that creates a key without a TTL. Whether a later EXPIRE gives the key its TTL, and
whether an earlier call shows the key already exists (then the write updates it), is only known once the
whole function has been read, so the extractor keeps each call pending with what identifies its keys and
where it runs (loops, branches of `if`), and settles them here.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from rediscipline.model.code import EXPIRY_SAME_SCOPE, CodeCall
from rediscipline.sources.code.calls import BoundCall
from rediscipline.sources.code.scope import Scope
from rediscipline.sources.code.values import template_parts

#: Commands after which the key is gone. Any other command that names a key (a read, a watch, a write)
#: shows the function works on a key that exists: a later write to it is an update.
REMOVING_COMMANDS = frozenset({"del", "unlink", "getdel"})
EXPIRE_COMMANDS = frozenset({"expire", "pexpire", "expireat", "pexpireat"})
#: How many local names are followed to find what a key expression really is (`k = key; r.get(k)`).
MAX_ALIAS_HOPS = 4


@dataclass
class Pending:
    """A call seen in the current function, finished when the function ends (TTL pairing)."""

    call: CodeCall
    key_ids: tuple[str, ...]
    order: int
    branches: dict[int, int]  # `if` statement → which of its branches the call is in (0 body, 1 else)
    family: str | None = None  # the key builder its first key comes from (`self._key_for(queue, pri)`)

    def exclusive(self, other: Pending) -> bool:
        """Whether the two calls are in different branches of one `if`: they never run together."""
        return any(other.branches.get(node, branch) != branch for node, branch in self.branches.items())


def settle(pending_calls: list[Pending]) -> list[CodeCall]:
    """The calls of a function in order, each told whether an earlier call touched its key and whether a
    later EXPIRE (in a branch that can run with it) gives the key its TTL."""
    settled: list[CodeCall] = []
    expires: list[Pending] = [p for p in pending_calls if p.call.command in EXPIRE_COMMANDS]
    touched: dict[str, list[Pending]] = {}  # key → the earlier calls that show it exists
    for pending in pending_calls:
        call = pending.call
        if pending.key_ids:
            key = pending.key_ids[0]
            if any(not pending.exclusive(before) for before in touched.get(key, ())):
                call = replace(call, touched_before=True)
            if call.command in REMOVING_COMMANDS:
                for removed in pending.key_ids:
                    touched.pop(removed, None)
            elif call.command:
                touched.setdefault(key, []).append(pending)
        if call.expiry is None and pending.key_ids and call.command not in EXPIRE_COMMANDS:
            later = next(
                (e for e in expires if e.order > pending.order and same_key(pending, e) and not e.exclusive(pending)),
                None,
            )
            if later is not None:
                call = replace(
                    call,
                    expiry=EXPIRY_SAME_SCOPE,
                    expire_line=later.call.origin.line,
                    constant_ttl=later.call.constant_ttl,
                )
        settled.append(call)
    return settled


def same_key(write: Pending, expire: Pending) -> bool:
    """Whether an EXPIRE gives the written key its TTL: the same key expression, or, for an EXPIRE run in a
    loop, a key of the same template (`for stream in written: pipe.expire(stream, ttl)` after the writes)."""
    if write.key_ids[:1] == expire.key_ids[:1]:
        return True
    if expire.call.loop_depth == 0:
        return False
    if write.family is not None and write.family == expire.family:
        return True  # `for p in steps: pipe.expire(key_for(queue, p))` covers `key_for(queue, pri)`
    if not write.call.keys or not expire.call.keys:
        return False
    return write.call.keys[0].pattern == expire.call.keys[0].pattern


def key_id(expr: ast.expr, scope: Scope) -> str:
    """What makes two key expressions the same key: their code, with local names followed to what they were
    bound to (`key = f"cart:{uid}"` then `expire(key)` is the key of `hset(f"cart:{uid}")`); a loop's item
    is an item of what the loop iterates (`for key in mapping: expire(key)` names the keys of `mset(mapping)`,
    and the items of two loops over the same collection are the same keys).

    A local bound to the result of a call the reader cannot see through (`foo = os.urandom(10)`,
    `token = uuid4().hex`) holds a value of its own: two locals bound to the same such call are two keys,
    while the same local bound again to the same call is taken for the same key."""
    name: str | None = None
    for _ in range(MAX_ALIAS_HOPS):
        if not isinstance(expr, ast.Name):
            break
        bound = scope.local(expr.id)
        if bound is None:
            iterable = scope.iterable(expr.id)
            return _items_id(iterable, scope) if iterable is not None else ast.dump(expr)
        name, expr = expr.id, bound
    if name is not None and _opaque(expr, scope):
        return f"{name}={ast.dump(expr)}"
    return ast.dump(expr)


def _opaque(expr: ast.expr, scope: Scope) -> bool:
    """A call (or an attribute of one) whose result the code does not show: not a key builder, a format or
    a join the template reader follows."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Call) and template_parts(expr, scope) is None


#: Calls whose items are those of their one argument (`sorted(keys)`, `list(mapping)`).
_SAME_ITEMS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter"})


def loop_items(target: ast.expr, iterable: ast.expr) -> dict[str, ast.expr]:
    """The names a loop binds to items of a known collection, with that collection: `for key in keys`, `for
    key in sorted(keys)`, `for key in mapping.keys()`, `for i, key in enumerate(keys)`, `for key, value in
    mapping.items()` and `for key, value in zip(keys, values)` all bind `key` to an item of `keys`/`mapping`."""
    if isinstance(target, ast.Name):
        return {target.id: _collection(iterable)}
    if not isinstance(target, (ast.Tuple, ast.List)) or not isinstance(iterable, ast.Call):
        return {}
    elements, func, arguments = target.elts, iterable.func, iterable.args
    sources: list[ast.expr | None] = []
    plain = all(keyword.arg == "strict" for keyword in iterable.keywords)
    if isinstance(func, ast.Name) and func.id == "zip" and len(arguments) == len(elements) and plain:
        sources = list(arguments)
    elif isinstance(func, ast.Name) and func.id == "enumerate" and len(elements) == 2 and arguments:
        sources = [None, arguments[0]]
    elif isinstance(func, ast.Attribute) and func.attr == "items" and len(elements) == 2 and not arguments:
        sources = [func.value, None]
    return {
        element.id: _collection(source)
        for element, source in zip(elements, sources, strict=False)
        if isinstance(element, ast.Name) and source is not None and not isinstance(source, ast.Starred)
    }


def _collection(iterable: ast.expr) -> ast.expr:
    """The collection whose items a loop walks, through copies and views (`sorted(keys)`, `mapping.keys()`)."""
    for _ in range(MAX_ALIAS_HOPS):
        if not isinstance(iterable, ast.Call) or iterable.keywords:
            break
        func = iterable.func
        if isinstance(func, ast.Name) and func.id in _SAME_ITEMS and len(iterable.args) == 1:
            iterable = iterable.args[0]
        elif isinstance(func, ast.Attribute) and func.attr == "keys" and not iterable.args:
            iterable = func.value
        else:
            break
    return iterable


def _items_id(collection: ast.expr, scope: Scope) -> str:
    return "items:" + key_id(collection, scope)


def collection_ids(bound: BoundCall, key_exprs: list[ast.expr], scope: Scope) -> list[str]:
    """Key lists whose items the code does not show (`mset(mapping)`, `delete(*keys)`): the collection they
    come from, so that an EXPIRE in a loop over it pairs with them."""
    found: list[str] = []
    for name in bound.spec.key_lists:
        value = bound.named.get(name)
        if value is not None and value not in key_exprs and isinstance(value, (ast.Name, ast.Attribute)):
            found.append(_items_id(value, scope))
    found += [_items_id(e.value, scope) for e in bound.extra if isinstance(e, ast.Starred) and e.value not in key_exprs]
    return found


def key_family(expr: ast.expr, scope: Scope) -> str | None:
    """The function a key is built by (`self._q_for_pri(queue, pri)` → `self._q_for_pri`), if it is a call."""
    for _ in range(MAX_ALIAS_HOPS):
        if not isinstance(expr, ast.Name):
            break
        bound = scope.local(expr.id)
        if bound is None:
            break
        expr = bound
    return ast.dump(expr.func) if isinstance(expr, ast.Call) else None
