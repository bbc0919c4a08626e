"""Bind a call's arguments to its redis-py signature and read what the rules need from them.

The command table says which parameter is a key, a list of keys or an option; this module maps the written
arguments onto those names (positional ones in signature order, `*args` beyond them), then reads the keys,
the batch size, literal values, the TTL and the arguments in the order Redis receives them.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field

from rediscipline.model.code import Literal
from rediscipline.redis_meta.commands import command_info
from rediscipline.redis_meta.records import MethodSignature
from rediscipline.sources.code.values import Bindings, element_exprs, literal_of, reachable_literals, size_of

#: Options of SET/GETEX that give the key a TTL, and the one that keeps the old TTL.
TTL_OPTIONS = ("ex", "px", "exat", "pxat")
KEEP_TTL = "keepttl"
#: Commands that carry their TTL as a parameter (`setex(name, time, value)`, `expire(name, time)`).
TTL_PARAMETER = {
    "setex": "time",
    "psetex": "time_ms",
    "expire": "time",
    "pexpire": "time",
    "expireat": "when",
    "pexpireat": "when",
}
#: Commands whose extra positional arguments after the key are a batch of members, fields or values.
VALUE_BATCHES = frozenset({"sadd", "srem", "hdel", "zrem", "lpush", "rpush", "lpushx", "rpushx", "pfadd", "sismember"})
#: Commands whose named parameter holds the batch (fields of HMGET, pairs of MSET/HSET/ZADD).
BATCH_PARAMETER = {"hmget": "keys", "mset": "mapping", "msetnx": "mapping", "hset": "mapping", "zadd": "mapping"}
#: redis-py keyword flags that become a Redis option word, for the commands whose rules read arguments.
FLAG_WORDS = {
    ("flushall", "asynchronous"): b"ASYNC",
    ("flushdb", "asynchronous"): b"ASYNC",
    ("zrange", "byscore"): b"BYSCORE",
    ("zrange", "bylex"): b"BYLEX",
    ("zrange", "desc"): b"REV",
}
UNKNOWN_ARG = b"?"
#: Parameters redis-py annotates as mappings of keys that really map members to scores (ZADD).
MEMBER_MAPPINGS = frozenset({("zadd", "mapping")})


@dataclass
class BoundCall:
    """A call's arguments by parameter name, with `*args` and `**kwargs` kept apart."""

    spec: MethodSignature
    method: str
    named: dict[str, ast.expr] = field(default_factory=dict)
    extra: list[ast.expr] = field(default_factory=list)  # positional arguments beyond the named parameters
    open_kwargs: bool = False  # `**kwargs` passed: any option may be set
    open_args: bool = False  # `*args` passed: any positional parameter may be set

    def literal(self, name: str, env: Bindings) -> tuple[bool, Literal]:
        expr = self.named.get(name)
        return literal_of(expr, env) if expr is not None else (False, None)


def bind(call: ast.Call, method: str, spec: MethodSignature) -> BoundCall:
    bound = BoundCall(spec, method)
    params = list(spec.params)
    position = 0
    for argument in call.args:
        if isinstance(argument, ast.Starred):
            bound.open_args = True
        if isinstance(argument, ast.Starred) or position >= len(params):
            bound.extra.append(argument)
            continue
        bound.named[params[position]] = argument
        position += 1
    for keyword in call.keywords:
        if keyword.arg is None:
            bound.open_kwargs = True
        else:
            bound.named[keyword.arg] = keyword.value
    return bound


def fits(call: ast.Call, spec: MethodSignature) -> bool:
    """Whether a call's arguments can bind to the redis-py method: no keyword it does not take, no more
    positional arguments than it takes, no required parameter left out (arguments unpacked from `*args`
    or `**kwargs` may fill any gap). A call that does not fit is made on something other than redis-py."""
    positional = sum(1 for argument in call.args if not isinstance(argument, ast.Starred))
    unpacked = positional != len(call.args) or any(keyword.arg is None for keyword in call.keywords)
    keywords = {keyword.arg for keyword in call.keywords if keyword.arg is not None}
    if positional > len(spec.params) and not spec.var_positional:
        return False
    if not spec.var_keyword and not keywords <= {*spec.params, *spec.keyword_only}:
        return False
    if keywords & set(spec.params[:positional]):
        return False  # the same parameter given twice
    return unpacked or all(name in keywords for name in spec.params[positional : spec.required])


def key_exprs(bound: BoundCall, env: Bindings) -> list[ast.expr]:
    """The expressions that name keys, in order: key parameters, items of key lists, variadic keys."""
    spec = bound.spec
    if not _takes_keys(spec.command):
        return []  # redis-py annotates setting, user and prefix names as keys (CONFIG SET, ACL SETUSER)
    exprs: list[ast.expr] = []
    for name in spec.keys:
        if name in bound.named:
            exprs.append(bound.named[name])
    for name in spec.key_lists:
        if (bound.method, name) in MEMBER_MAPPINGS:
            continue
        value = bound.named.get(name)
        if value is None:
            continue
        items = element_exprs(value, env)
        if items is not None:
            exprs.extend(items)
        elif _isargument_text(value, env):
            exprs.append(value)  # mget("a") and blpop("queue") accept one key
    if spec.variadic_keys is not None or (spec.key_lists and bound.extra):
        for extra in bound.extra:
            if isinstance(extra, ast.Starred):  # delete(*[f"k:{i}" for i in ...]): the items' template
                exprs.extend(element_exprs(extra.value, env) or ())
            else:
                exprs.append(extra)
    return exprs


@functools.cache
def _takes_keys(command: str) -> bool:
    """Whether the servers say a method's command (`CONFIG SET`) takes keys; commands they do not know are
    taken at redis-py's word. A subcommand the table does not list is judged by its container (DEBUG
    OBJECT: DEBUG)."""
    name = command.lower().replace(" ", "|", 1)
    info = command_info(name) or command_info(name.split("|", 1)[0])
    return info is None or bool(info.keys) or bool(info.subcommands)


def _isargument_text(expr: ast.expr, env: Bindings) -> bool:
    if isinstance(expr, ast.JoinedStr):
        return True
    known, value = literal_of(expr, env)
    return known and isinstance(value, (str, bytes))


def batch_size(bound: BoundCall, env: Bindings) -> int | None:
    """How many keys, fields, pairs or values the call carries, when the code shows it."""
    spec, method = bound.spec, bound.method
    parameter = BATCH_PARAMETER.get(method) or (spec.key_lists[0] if spec.key_lists else None)
    if parameter is not None and parameter in bound.named:
        value = bound.named[parameter]
        size = 1 if _isargument_text(value, env) else size_of(value, env)
        extra = count_arguments(bound.extra, env)
        if size is None or extra is None:
            return None
        if method == "hset" and "key" in bound.named:
            size += 1
        return size + extra
    if spec.variadic_keys is not None or method in VALUE_BATCHES or (parameter is not None and bound.extra):
        return count_arguments(bound.extra, env)  # mget(*keys): the list arrives unpacked
    return None


def count_arguments(arguments: list[ast.expr], env: Bindings) -> int | None:
    total = 0
    for argument in arguments:
        if isinstance(argument, ast.Starred):
            size = size_of(argument.value, env)
            if size is None:
                return None
            total += size
        else:
            total += 1
    return total


def literals(bound: BoundCall, env: Bindings) -> tuple[tuple[str, Literal], ...]:
    found: list[tuple[str, Literal]] = []
    for name, expr in bound.named.items():
        known, value = literal_of(expr, env)
        if known:
            found.append((name, value))
    return tuple(found)


def possible(bound: BoundCall, env: Bindings) -> tuple[tuple[str, Literal], ...]:
    """Literal values that parameters written as expressions can take (`timeout or 0` can be 0)."""
    found: list[tuple[str, Literal]] = []
    for name, expr in bound.named.items():
        if not literal_of(expr, env)[0]:
            values = {(type(value), value): value for value in reachable_literals(expr, env)}
            found += [(name, value) for value in values.values()]
    return tuple(found)


def ttl_expr(bound: BoundCall, env: Bindings) -> tuple[bool, ast.expr | None]:
    """(whether the call gives its key a TTL, the expression of that TTL when there is one).

    `ex=None` written out gives none; `keepttl=True` keeps an existing one (counted as given).
    """
    parameter = TTL_PARAMETER.get(bound.method)
    if parameter is not None:
        return True, bound.named.get(parameter)
    for option in TTL_OPTIONS:
        expr = bound.named.get(option)
        if expr is None:
            continue
        known, value = literal_of(expr, env)
        if known and value is None:
            continue
        return True, expr
    known, keep = bound.literal(KEEP_TTL, env)
    if KEEP_TTL in bound.named and (not known or keep):
        return True, None
    return False, None


def redis_args(bound: BoundCall, env: Bindings, keys: dict[str, bytes]) -> tuple[bytes, ...]:
    """The arguments in the order Redis receives them, as far as the rules on commands read them.

    Parameters up to the last one written, in signature order (a key as its template pattern when `keys`
    has it, a literal as text, anything else as `?`), then the option words for the flags the command rules
    look for (`ASYNC`, `BYSCORE`, `LIMIT`).
    """
    spec = bound.spec
    written = [index for index, name in enumerate(spec.params) if name in bound.named]
    out: list[bytes] = []
    for name in spec.params[: written[-1] + 1 if written else 0]:
        expr = bound.named.get(name)
        if name in keys:
            out.append(keys[name])
        else:
            out.append(argument_text(expr, env) if expr is not None else UNKNOWN_ARG)
    for (method, option), word in FLAG_WORDS.items():
        if method == bound.method and option in bound.named:
            known, value = literal_of(bound.named[option], env)
            if known and value:
                out.append(word)
    if bound.method in ("zrange", "zrangebyscore", "zrangebylex") and "num" in bound.named:
        out.append(b"LIMIT")
    return tuple(out)


def argument_text(expr: ast.expr, env: Bindings) -> bytes:
    known, value = literal_of(expr, env)
    if not known or value is None:
        return UNKNOWN_ARG
    if isinstance(value, bytes):
        return value
    if isinstance(value, bool):
        return b"1" if value else b"0"
    return str(value).encode("utf-8", "surrogatepass")
