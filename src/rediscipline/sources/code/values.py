"""What an expression is worth statically: a key template, a size, a literal, a constant TTL.

Each reader follows simple names to what they were last assigned (a local, then a module constant) through
`Bindings`, never evaluates code, and gives up (None) rather than guess: a finding built on a guess would be
wrong more often than the convention it enforces.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Protocol

from rediscipline.model.code import Literal
from rediscipline.model.keyname import SLOT_ANY, Part, Placeholder

#: How deep names are followed (`KEY = PREFIX + ":x"`, `PREFIX = APP + ":cache"`...).
MAX_DEPTH = 8
_PERCENT = re.compile(
    r"%(?:\((?P<name>[^)]*)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<kind>[diouxXeEfFgGcrsa%])"
)
_BRACES = re.compile(r"\{\{|\}\}|\{(?P<field>[^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}")
_JITTER_WORDS = ("random", "jitter", "rand", "uniform", "shuffle", "secrets")
_TIMEDELTA_SECONDS = {"weeks": 604800, "days": 86400, "hours": 3600, "minutes": 60, "seconds": 1, "milliseconds": 0.001}


class Bindings(Protocol):
    """Where names are looked up: the expression a name was last bound to, or None when unknown."""

    def lookup(self, name: str) -> ast.expr | None: ...

    def attribute(self, node: ast.Attribute) -> ast.expr | None:
        """The expression behind a class constant (`self.PREFIX`), or None."""

    def builder(self, call: ast.Call) -> tuple[ast.expr, Bindings] | None:
        """For a call of a key-builder function: the expression it returns and the names inside it."""


def _follow(expr: ast.expr, env: Bindings, depth: int) -> ast.expr | None:
    """The expression behind a name (or the expression itself), None when the name is unknown or the reading
    went deeper than MAX_DEPTH (so every reader guards its recursion here)."""
    if depth > MAX_DEPTH:
        return None
    while isinstance(expr, (ast.Name, ast.Attribute)):
        if depth >= MAX_DEPTH:
            return None
        bound = env.lookup(expr.id) if isinstance(expr, ast.Name) else env.attribute(expr)
        if bound is None and isinstance(expr, ast.Attribute):
            return expr  # an attribute read at run time: the caller decides what it is worth
        if bound is None or bound is expr:
            return None
        expr, depth = bound, depth + 1
    return expr


def literal_of(expr: ast.expr, env: Bindings, depth: int = 0) -> tuple[bool, Literal]:
    """(True, value) when `expr` is a literal (or a name bound to one, or `-1`); else (False, None)."""
    target = _follow(expr, env, depth)
    if isinstance(target, ast.Constant) and isinstance(target.value, (int, float, str, bytes, bool, type(None))):
        return True, target.value
    if isinstance(target, ast.UnaryOp) and isinstance(target.op, ast.USub):
        known, value = literal_of(target.operand, env, depth + 1)
        if known and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True, -value
    return False, None


def reachable_literals(expr: ast.expr, env: Bindings, depth: int = 0) -> list[Literal]:
    """The literal values an expression can evaluate to, through fallbacks and branches: `timeout or 0` can
    be 0 (when `timeout` is falsy), `5 if fast else None` can be 5 or None, `ttl and 60` can be 60. Parts
    whose value is not visible contribute nothing, so the list may be empty, never wrong."""
    target = _follow(expr, env, depth)
    if target is None or depth > MAX_DEPTH:
        return []
    if isinstance(target, ast.IfExp):
        return reachable_literals(target.body, env, depth + 1) + reachable_literals(target.orelse, env, depth + 1)
    if isinstance(target, ast.BoolOp):
        found: list[Literal] = []
        stop_when = isinstance(target.op, ast.Or)  # `or` returns its first truthy operand, `and` its first falsy
        for index, operand in enumerate(target.values):
            if index == len(target.values) - 1:
                found += reachable_literals(operand, env, depth + 1)
                break
            known, value = literal_of(operand, env, depth + 1)
            if not known:
                found += [v for v in reachable_literals(operand, env, depth + 1) if bool(v) is stop_when]
                continue
            if bool(value) is stop_when:
                found.append(value)
                break  # a literal that ends the chain: later operands are never reached
        return found
    known, value = literal_of(target, env, depth + 1)
    return [value] if known else []


def _unknown(expr: ast.expr) -> Placeholder:
    """A placeholder for code whose value is computed at run time, labelled with the code (`uid`)."""
    try:
        label = ast.unparse(expr)
    except (ValueError, AttributeError, RecursionError):  # pragma: no cover - unparse of a parsed tree
        label = "?"
    return Placeholder(SLOT_ANY, None, False, label[:40])


def _append(parts: list[Part], new: Part) -> None:
    if isinstance(new, bytes):
        if not new:
            return
        if parts and isinstance(parts[-1], bytes):
            parts[-1] = parts[-1] + new
            return
    parts.append(new)


def _encode(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")


def template_parts(expr: ast.expr, env: Bindings, depth: int = 0) -> list[Part] | None:
    """The key template of a string expression, or None when nothing of it can be read.

    Literals, f-strings, `+`, `%` and `.format` on a literal, `":".join([...])` and `str(...)` are read;
    any other piece becomes an unknown placeholder labelled with its code.
    """
    target = _follow(expr, env, depth)
    if target is None:
        return None
    if isinstance(target, ast.Constant):
        if isinstance(target.value, (str, bytes)):
            return [_encode(target.value)] if target.value else []
        if isinstance(target.value, int) and not isinstance(target.value, bool):
            return [str(target.value).encode()]
        return None
    if isinstance(target, ast.JoinedStr):
        parts: list[Part] = []
        for value in target.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                _append(parts, _encode(value.value))
            elif isinstance(value, ast.FormattedValue):
                for piece in _piece(value.value, env, depth + 1):
                    _append(parts, piece)
        return parts
    if isinstance(target, ast.BinOp) and isinstance(target.op, ast.Add):
        left = template_parts(target.left, env, depth + 1)
        right = template_parts(target.right, env, depth + 1)
        if left is None and right is None:
            return None
        parts = []
        for piece in (*(left or [_unknown(target.left)]), *(right or [_unknown(target.right)])):
            _append(parts, piece)
        return parts
    if isinstance(target, ast.BinOp) and isinstance(target.op, ast.Mod):
        return _percent(target, env, depth)
    if isinstance(target, ast.Call):
        built = env.builder(target)
        if built is not None:
            return template_parts(built[0], built[1], depth + 1)
    if isinstance(target, ast.Call) and isinstance(target.func, ast.Attribute):
        return _method_template(target, env, depth)
    if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "str" and target.args:
        return template_parts(target.args[0], env, depth + 1)
    return None


def _piece(expr: ast.expr, env: Bindings, depth: int) -> list[Part]:
    """A formatted value inside a template: its own template when readable, else one unknown placeholder."""
    inner = template_parts(expr, env, depth)
    if inner is None or not inner:
        return [_unknown(expr)] if inner is None else []
    return inner


def _percent(expr: ast.BinOp, env: Bindings, depth: int) -> list[Part] | None:
    """`"user:%s:%d" % (a, b)` and `"%(name)s" % mapping`."""
    known, fmt = literal_of(expr.left, env, depth + 1)
    if not known or not isinstance(fmt, str):
        return None
    values = list(expr.right.elts) if isinstance(expr.right, ast.Tuple) else [expr.right]
    parts: list[Part] = []
    position = 0
    index = 0
    for match in _PERCENT.finditer(fmt):
        _append(parts, _encode(fmt[position : match.start()]))
        position = match.end()
        if match.group("kind") == "%":
            _append(parts, b"%")
            continue
        value = values[index] if match.group("name") is None and index < len(values) else None
        index += match.group("name") is None
        for piece in _piece(value, env, depth + 1) if value is not None else [_unknown(expr.right)]:
            _append(parts, piece)
    _append(parts, _encode(fmt[position:]))
    return parts


def _method_template(call: ast.Call, env: Bindings, depth: int) -> list[Part] | None:
    """`"user:{}:{uid}".format(a, uid=b)` and `":".join([...])` on a literal."""
    func = call.func
    assert isinstance(func, ast.Attribute)
    known, text = literal_of(func.value, env, depth + 1)
    if not known or not isinstance(text, (str, bytes)):
        return None
    if func.attr == "format" and isinstance(text, str):
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        parts: list[Part] = []
        position = 0
        auto = 0
        for match in _BRACES.finditer(text):
            _append(parts, _encode(text[position : match.start()]))
            position = match.end()
            if match.group(0) in ("{{", "}}"):
                _append(parts, match.group(0)[0].encode())
                continue
            name = (match.group("field") or "").split(".")[0].split("[")[0]
            if not name:
                value = call.args[auto] if auto < len(call.args) else None
                auto += 1
            elif name.isdigit():
                value = call.args[int(name)] if int(name) < len(call.args) else None
            else:
                value = keywords.get(name)
            for piece in _piece(value, env, depth + 1) if value is not None else [_unknown(call)]:
                _append(parts, piece)
        _append(parts, _encode(text[position:]))
        return parts
    if func.attr == "join" and len(call.args) == 1:
        items = _elements(call.args[0], env, depth + 1)
        if items is None:
            return None
        parts = []
        for index, item in enumerate(items):
            if index:
                _append(parts, _encode(text))
            for piece in _piece(item, env, depth + 1):
                _append(parts, piece)
        return parts
    return None


def _elements(expr: ast.expr, env: Bindings, depth: int) -> list[ast.expr] | None:
    target = _follow(expr, env, depth)
    if isinstance(target, (ast.List, ast.Tuple, ast.Set)) and not any(isinstance(e, ast.Starred) for e in target.elts):
        return list(target.elts)
    return None


def element_exprs(expr: ast.expr, env: Bindings, depth: int = 0) -> list[ast.expr] | None:
    """The expressions a list of keys holds: a literal's items, a comprehension's element, a dict's keys."""
    target = _follow(expr, env, depth)
    if target is None:
        return None
    if isinstance(target, (ast.List, ast.Tuple, ast.Set)):
        return [e.value if isinstance(e, ast.Starred) else e for e in target.elts]
    if isinstance(target, ast.Dict):
        return [k for k in target.keys if k is not None]
    if isinstance(target, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return [target.elt]
    if isinstance(target, ast.DictComp):
        return [target.key]
    if (
        isinstance(target, ast.Call)
        and isinstance(target.func, ast.Name)
        and target.func.id in ("list", "tuple", "set")
    ):
        return element_exprs(target.args[0], env, depth + 1) if len(target.args) == 1 else None
    return None


def size_of(expr: ast.expr, env: Bindings, depth: int = 0) -> int | None:
    """How many items an iterable expression yields, when the code shows it (an upper bound for slices)."""
    target = _follow(expr, env, depth)
    if target is None:
        return None
    if isinstance(target, (ast.List, ast.Tuple, ast.Set)):
        total = 0
        for element in target.elts:
            if isinstance(element, ast.Starred):
                inner = size_of(element.value, env, depth + 1)
                if inner is None:
                    return None
                total += inner
            else:
                total += 1
        return total
    if isinstance(target, ast.Dict):
        if any(k is None for k in target.keys):
            return None
        return len(target.keys)
    if isinstance(target, ast.Constant) and isinstance(target.value, (str, bytes)):
        return len(target.value)
    if isinstance(target, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        return _comprehension_size(target.generators, env, depth)
    if isinstance(target, ast.BinOp) and isinstance(target.op, ast.Mult):
        left, right = size_of(target.left, env, depth + 1), int_of(target.right, env, depth + 1)
        if left is not None and right is not None:
            return left * max(right, 0)
        return None
    if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
        return _slice_size(target, env, depth)
    if isinstance(target, ast.Call) and isinstance(target.func, ast.Name):
        return _call_size(target, env, depth)
    return None


def _comprehension_size(generators: list[ast.comprehension], env: Bindings, depth: int) -> int | None:
    total = 1
    for generator in generators:
        if generator.ifs:
            return None  # a filter makes the size unknowable
        size = size_of(generator.iter, env, depth + 1)
        if size is None:
            return None
        total *= size
    return total


def _slice_size(target: ast.Subscript, env: Bindings, depth: int) -> int | None:
    """`items[:100]` holds at most 100; `items[a:b]` with literal bounds at most b - a, and `items[i : i + 200]`
    at most 200."""
    bounds = target.slice
    assert isinstance(bounds, ast.Slice)
    if bounds.step is not None or bounds.upper is None:
        return None
    width = _offset_width(bounds.lower, bounds.upper, env, depth)
    if width is None:
        upper = int_of(bounds.upper, env, depth + 1)
        lower = int_of(bounds.lower, env, depth + 1) if bounds.lower is not None else 0
        if upper is None or lower is None or upper < 0 or lower < 0:
            return None
        width = upper - lower
    whole = size_of(target.value, env, depth + 1)
    limit = max(width, 0)
    return min(limit, whole) if whole is not None else limit


def _offset_width(lower: ast.expr | None, upper: ast.expr, env: Bindings, depth: int) -> int | None:
    """The width of `[start : start + N]` (or `N + start`) with N fixed, whatever `start` is."""
    if lower is None or not isinstance(upper, ast.BinOp) or not isinstance(upper.op, ast.Add):
        return None
    same = ast.dump(lower)
    if ast.dump(upper.left) == same:
        return int_of(upper.right, env, depth + 1)
    if ast.dump(upper.right) == same:
        return int_of(upper.left, env, depth + 1)
    return None


def _call_size(call: ast.Call, env: Bindings, depth: int) -> int | None:
    name = call.func.id if isinstance(call.func, ast.Name) else ""
    if name == "range" and not call.keywords:
        bounds = [int_of(a, env, depth + 1) for a in call.args]
        if not bounds or any(b is None for b in bounds) or len(bounds) > 3:
            return None
        numbers = [b for b in bounds if b is not None]
        start, stop, step = (0, numbers[0], 1) if len(numbers) == 1 else (numbers[0], numbers[1], 1)
        if len(numbers) == 3:
            step = numbers[2]
        if step == 0:
            return None
        return max(0, -(-(stop - start) // step)) if step > 0 else max(0, -(-(start - stop) // -step))
    if name in ("list", "tuple", "set", "sorted", "reversed", "enumerate") and len(call.args) == 1:
        return size_of(call.args[0], env, depth + 1)
    if name == "zip" and call.args:
        sizes = [size_of(a, env, depth + 1) for a in call.args]
        return min(s for s in sizes if s is not None) if any(s is not None for s in sizes) else None
    return None


def int_of(expr: ast.expr | None, env: Bindings, depth: int = 0) -> int | None:
    """An integer the code fixes: a literal, a constant name, or arithmetic on them."""
    if expr is None:
        return None
    number = number_of(expr, env, depth)
    return int(number) if number is not None and float(number).is_integer() else None


def number_of(expr: ast.expr, env: Bindings, depth: int = 0) -> float | None:
    """A number the code fixes (literals, constants, + - * // /, `timedelta(...)` in seconds)."""
    target = _follow(expr, env, depth)
    if target is None:
        return None
    if isinstance(target, ast.Constant):
        value = target.value
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if isinstance(target, ast.UnaryOp) and isinstance(target.op, (ast.USub, ast.UAdd)):
        inner = number_of(target.operand, env, depth + 1)
        return None if inner is None else (-inner if isinstance(target.op, ast.USub) else inner)
    if isinstance(target, ast.BinOp):
        return _arithmetic(target, env, depth)
    if isinstance(target, ast.Call):
        return _timedelta(target, env, depth)
    return None


_OPERATORS: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Div: lambda a, b: a / b,
}


def _arithmetic(target: ast.BinOp, env: Bindings, depth: int) -> float | None:
    operator = _OPERATORS.get(type(target.op))
    left, right = number_of(target.left, env, depth + 1), number_of(target.right, env, depth + 1)
    if operator is None or left is None or right is None:
        return None
    if isinstance(target.op, (ast.FloorDiv, ast.Div)) and right == 0:
        return None
    return operator(left, right)


def _timedelta(call: ast.Call, env: Bindings, depth: int) -> float | None:
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    if name != "timedelta" or len(call.args) > 1:
        return None
    total = 0.0
    pairs = [("days", call.args[0])] if call.args else []
    pairs += [(k.arg or "", k.value) for k in call.keywords]
    for unit, value in pairs:
        number = number_of(value, env, depth + 1)
        if number is None or unit not in _TIMEDELTA_SECONDS:
            return None
        total += number * _TIMEDELTA_SECONDS[unit]
    return total


def is_constant_ttl(expr: ast.expr, env: Bindings) -> bool:
    """True when a TTL expression is the same on every call: a fixed number with no randomness in it.

    A name or attribute the reader cannot follow is not constant (it may carry jitter computed elsewhere);
    anything that mentions random, jitter or secrets is not constant either.
    """
    if _mentions_jitter(expr, env, 0):
        return False
    return number_of(expr, env) is not None


def _mentions_jitter(expr: ast.expr, env: Bindings, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            if any(word in node.id.lower() for word in _JITTER_WORDS):
                return True
            bound = env.lookup(node.id)
            if bound is not None and bound is not node and _mentions_jitter(bound, env, depth + 1):
                return True
        elif isinstance(node, ast.Attribute) and any(word in node.attr.lower() for word in _JITTER_WORDS):
            return True
    return False
