"""What makes two key expressions of one function the same key, or keys of the same collection.

TTL pairing (pairing.py) asks whether an EXPIRE names the key a write created, and whether a write updates a
key the function already read. Both need an identity for key expressions: the code, with local names followed
to what they were bound to (`key = f"cart:{uid}"`, then `expire(key)` names the key of `hset(f"cart:{uid}")`),
and, for the items of a loop, the collection they are taken from (`for key in mapping: expire(key)` names the
keys of `mset(mapping)`; the items of two loops over the same collection are the same keys).

Collections are often derived from another's items before they are used: `cache_values = dict([(key, value)
for key in cache_keys])` has the keys of `cache_keys`, `todo = [(key, ts) for key, ts in zip(keys, stamps) if
...]` holds pairs whose first element is an item of `keys`, and so does a list filled in a loop
(`todo.append((key, ts))` while `key` walks `keys`). The items of such a collection are the items of the one
they came from, so they have its identity. And `keys[i]` is an item of `keys`: a write to it updates a key the
function read when a loop read every item of `keys`.
"""

from __future__ import annotations

import ast

from rediscipline.sources.code.calls import BoundCall
from rediscipline.sources.code.scope import Scope
from rediscipline.sources.code.values import template_parts

#: How many local names are followed to find what a key expression really is (`k = key; r.get(k)`).
MAX_ALIAS_HOPS = 4
#: Calls whose items are those of their one argument (`sorted(keys)`, `list(mapping)`).
_SAME_ITEMS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter"})
#: Calls that build a mapping from pairs (`dict(pairs)`) or from nothing (`defaultdict(list)`).
_MAPPINGS = frozenset({"dict", "defaultdict", "OrderedDict", "Counter"})
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp)

#: element position in a collection's items (None: the item itself; 0, 1...: an element of a tuple item) →
#: the identity of the collection that element comes from
Sources = dict[int | None, str]


def key_id(expr: ast.expr, scope: Scope, depth: int = 0) -> str:
    """The identity of a key expression (see the module docstring).

    A local bound to the result of a call the reader cannot see through (`foo = os.urandom(10)`,
    `token = uuid4().hex`) holds a value of its own: two locals bound to the same such call are two keys,
    while the same local bound again to the same call is taken for the same key."""
    name: str | None = None
    for _ in range(MAX_ALIAS_HOPS):
        if not isinstance(expr, ast.Name):
            break
        iterable = scope.iterable(expr.id)
        if isinstance(iterable, str):
            return iterable  # an item of a derived collection: the items it came from
        if iterable is not None:  # an item of a loop, whatever its element is written as
            return items_id(iterable, scope, depth + 1) if depth <= MAX_ALIAS_HOPS else ast.dump(expr)
        bound = scope.local(expr.id)
        if bound is None:
            return ast.dump(expr)
        name, expr = expr.id, bound
    if name is not None and _opaque(expr, scope):
        return f"{name}={ast.dump(expr)}"
    return ast.dump(expr)


def items_id(collection: ast.expr, scope: Scope, depth: int = 0) -> str:
    """The identity of the items of a collection (the keys of a mapping): those of the collection they were
    taken from when it is derived from another's items, else the collection's own."""
    collection = _collection(collection)
    derived = item_sources(collection, scope, depth).get(None)
    return derived if derived is not None else "items:" + key_id(collection, scope, depth + 1)


def item_sources(expr: ast.expr, scope: Scope, depth: int = 0) -> Sources:
    """Where the items of a collection (or the elements of its tuple items) come from, when the code shows it:
    a comprehension over another collection, `dict(...)` of such pairs, `dict(zip(keys, values))`,
    `dict.fromkeys(keys)`, `zip(keys, values)`, or a local filled in a loop (`Scope.filled`)."""
    if depth > MAX_ALIAS_HOPS:
        return {}
    expr = _collection(expr)
    if isinstance(expr, ast.Name):
        filled = scope.filled(expr.id)
        if filled:
            return filled
        bound = scope.local(expr.id)
        return item_sources(bound, scope, depth + 1) if bound is not None and bound is not expr else {}
    if isinstance(expr, _COMPREHENSIONS):
        return _element_sources(expr.elt, expr.generators, scope, depth)
    if isinstance(expr, ast.DictComp):
        key = _element_sources(expr.key, expr.generators, scope, depth).get(None)
        return {None: key} if key is not None else {}
    if not isinstance(expr, ast.Call) or expr.keywords:
        return {}
    func, arguments = expr.func, expr.args
    if isinstance(func, ast.Name) and func.id == "zip" and not any(isinstance(a, ast.Starred) for a in arguments):
        return {index: items_id(argument, scope, depth + 1) for index, argument in enumerate(arguments)}
    if isinstance(func, ast.Name) and func.id in _MAPPINGS and len(arguments) == 1:
        first = item_sources(arguments[0], scope, depth + 1).get(0)  # `dict(pairs)`: the pairs' first elements
        return {None: first} if first is not None else {}
    if isinstance(func, ast.Attribute) and func.attr == "fromkeys" and arguments and _names(func.value, "dict"):
        return {None: items_id(arguments[0], scope, depth + 1)}
    return {}


def fill_sources(value: ast.expr, scope: Scope) -> Sources:
    """What an item put into a collection carries: a loop's item (`todo.append(key)`), or a tuple holding
    loop items (`todo.append((key, ts))`): where those come from."""
    if isinstance(value, ast.Name):
        found = _loop_item(value, scope)
        return {None: found} if found is not None else {}
    if isinstance(value, ast.Tuple):
        elements = ((index, _loop_item(e, scope)) for index, e in enumerate(value.elts) if isinstance(e, ast.Name))
        return {index: found for index, found in elements if found is not None}
    return {}


def member_id(expr: ast.expr, scope: Scope) -> str | None:
    """For `keys[i]` (an index, not a slice), the identity of the items of `keys`; None for anything else, and
    for a mapping's value (`mapping[k]`: the mapping is built here as one, or `k` walks its keys)."""
    if not isinstance(expr, ast.Subscript) or isinstance(expr.slice, ast.Slice):
        return None
    collection = expr.value
    bound = scope.local(collection.id) if isinstance(collection, ast.Name) else None
    if bound is not None and _builds_mapping(bound):
        return None
    found = items_id(collection, scope)
    index = expr.slice
    if isinstance(index, ast.Name) and _loop_item(index, scope) == found:
        return None  # `for k in mapping: mapping[k]`
    return found


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


def unpacked_items(target: ast.expr, iterable: ast.expr, scope: Scope) -> dict[str, str]:
    """The names a loop unpacks from the tuple items of a derived collection (`for key, ts in todo` after
    `todo.append((key, ts))` in a loop over `keys`), with the identity of the items they are."""
    if not isinstance(target, (ast.Tuple, ast.List)):
        return {}
    sources = item_sources(iterable, scope)
    return {
        element.id: sources[index]
        for index, element in enumerate(target.elts)
        if isinstance(element, ast.Name) and index in sources
    }


def collection_ids(bound: BoundCall, key_exprs: list[ast.expr], scope: Scope) -> list[str]:
    """Key lists whose items the code does not show (`mset(mapping)`, `delete(*keys)`): the collection they
    come from, so that an EXPIRE in a loop over it pairs with them."""
    found: list[str] = []
    for name in bound.spec.key_lists:
        value = bound.named.get(name)
        if value is None or value in key_exprs:
            continue
        if isinstance(value, (ast.Name, ast.Attribute)) or None in item_sources(value, scope):
            found.append(items_id(value, scope))  # `mset(mapping)`, `mset(dict.fromkeys(keys, 0))`
    found += [items_id(e.value, scope) for e in bound.extra if isinstance(e, ast.Starred) and e.value not in key_exprs]
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


def _element_sources(element: ast.expr, generators: list[ast.comprehension], scope: Scope, depth: int) -> Sources:
    """A comprehension's element that is an item of what its one generator walks, or a tuple holding some."""
    if len(generators) != 1:
        return {}
    walked = loop_items(generators[0].target, generators[0].iter)

    def source(expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Name) and expr.id in walked:
            return items_id(walked[expr.id], scope, depth + 1)
        return None

    if isinstance(element, ast.Tuple):
        found = {index: source(e) for index, e in enumerate(element.elts)}
        return {index: value for index, value in found.items() if value is not None}
    whole = source(element)
    return {None: whole} if whole is not None else {}


def _loop_item(name: ast.expr, scope: Scope) -> str | None:
    """The identity of the items a loop variable walks, when `name` is one."""
    if not isinstance(name, ast.Name):
        return None
    iterable = scope.iterable(name.id)
    if iterable is None:
        return None
    return iterable if isinstance(iterable, str) else items_id(iterable, scope)


def _opaque(expr: ast.expr, scope: Scope) -> bool:
    """A call (or an attribute of one) whose result the code does not show: not a key builder, a format or
    a join the template reader follows."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Call) and template_parts(expr, scope) is None


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


def _builds_mapping(expr: ast.expr) -> bool:
    if isinstance(expr, (ast.Dict, ast.DictComp)):
        return True
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    return (isinstance(func, ast.Name) and func.id in _MAPPINGS) or (
        isinstance(func, ast.Attribute) and func.attr == "fromkeys"
    )


def _names(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name
