"""One command line as the rules judge a call: its keys, how many items it carries, its options, its TTL.

The code source reads a call from its syntax; here the call is read from the arguments redis-py is about to
send, so every value is known: the options are named as redis-py's parameters (`ex`, `count`, `timeout`) with
their values as literals, the batch is the real number of keys, fields or members, and the TTL is the one
given. Keys are found from the command table's key specifications (`redis_meta.commands.key_positions`);
positions that depend only on the number of arguments are cached per (command, argument count).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rediscipline.model.code import EXPIRY_OPTION, Literal
from rediscipline.redis_meta.command_table_generated import COMMANDS
from rediscipline.redis_meta.commands import command_info, key_positions
from rediscipline.sources.runtime.argv import byte_length, to_bytes

#: Arguments longer than this are never an option keyword or a key count: key search reads them as empty.
_SHORT = 64
#: Cached key positions per (command, argument count), for commands whose keys depend on nothing else.
_POSITIONS_LIMIT = 4096


@dataclass(slots=True)
class Reading:
    """What one command line shows.

    `keys` are the key arguments as sent (bytes); `batch` how many keys, fields, members or channels the
    command carries (None for single-item commands); `given`/`literals` the options redis-py's parameters name
    (`ex`, `xx`, `count`, `timeout`, `block`) with their values; `ttl_ms` the TTL the command gives its keys
    (relative, milliseconds) and `expiry` EXPIRY_OPTION when a write gives its own key that TTL; `values`
    the values written, as (key index, argument) pairs, and `elements` the elements written to one
    collection. Treat it as immutable: it is not frozen only because one is built per command, and a frozen
    dataclass costs twice as much to build.
    """

    name: str
    keys: tuple[bytes, ...] = ()
    batch: int | None = None
    given: frozenset[str] = frozenset()
    literals: tuple[tuple[str, Literal], ...] = ()
    ttl_ms: int | None = None
    expiry: str | None = None
    values: tuple[tuple[int, object], ...] = ()
    elements: tuple[object, ...] = ()


def number(value: object) -> int | float | None:
    """An argument read as the number it stands for (`b"60"`, `"60"`, `60`), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    try:
        text = to_bytes(value, "utf-8", "replace")
        return int(text) if text.lstrip(b"-").isdigit() else float(text)
    except (ValueError, TypeError):
        return None


def option_word(value: object) -> str:
    """An option keyword, upper-cased (`"ex"` → `EX`); "" for a long argument, which is never one."""
    if isinstance(value, (bytes, str)) and len(value) <= _SHORT:
        text = value.decode("ascii", "replace") if isinstance(value, bytes) else value
        return text.upper()
    return ""


@dataclass(frozen=True, slots=True)
class _Options:
    """Option keywords a command takes after its fixed operands: those with a value, and flags."""

    valued: dict[str, str]  # keyword → redis-py parameter name
    flags: dict[str, str]


_SET = _Options(
    {"EX": "ex", "PX": "px", "EXAT": "exat", "PXAT": "pxat", "IFEQ": "ifeq", "IFNE": "ifne", "IFDEQ": "ifdeq"}
    | {"IFDNE": "ifdne"},
    {"KEEPTTL": "keepttl", "NX": "nx", "XX": "xx", "GET": "get"},
)
_GETEX = _Options({"EX": "ex", "PX": "px", "EXAT": "exat", "PXAT": "pxat"}, {"PERSIST": "persist"})
_SCAN = _Options({"MATCH": "match", "COUNT": "count", "TYPE": "_type"}, {"NOVALUES": "no_values"})
_STREAM_READ = _Options({"COUNT": "count", "BLOCK": "block", "GROUP": "groupname"}, {"NOACK": "noack"})
_ZADD = _Options({}, {"NX": "nx", "XX": "xx", "GT": "gt", "LT": "lt", "CH": "ch", "INCR": "incr"})
_GEOADD = _Options({}, {"NX": "nx", "XX": "xx", "CH": "ch"})
_XADD = _Options({"MAXLEN": "maxlen", "MINID": "minid", "LIMIT": "limit"}, {"NOMKSTREAM": "nomkstream"})

#: The TTL each option gives, as a function of its value and the clock (ms since the epoch).
_TTL_OPTIONS: dict[str, Callable[[float, float], float]] = {
    "ex": lambda value, _now: value * 1000,
    "px": lambda value, _now: value,
    "exat": lambda value, now: value * 1000 - now,
    "pxat": lambda value, now: value - now,
}


def _options(ops: Sequence[object], start: int, table: _Options, stop: str | None = None) -> dict[str, Literal]:
    """The options among `ops[start:]` (until the keyword `stop`), by parameter name, with their values."""
    found: dict[str, Literal] = {}
    i = start
    while i < len(ops):
        word = option_word(ops[i])
        if word == stop:
            break
        if word in table.valued and i + 1 < len(ops):
            value = ops[i + 1]
            parsed = number(value)
            found[table.valued[word]] = parsed if parsed is not None else _literal(value)
            i += 2
            continue
        if word in table.flags:
            found[table.flags[word]] = True
        i += 1
    return found


def _literal(value: object) -> Literal:
    if isinstance(value, (int, float, str, bytes, bool)) or value is None:
        return value
    return to_bytes(value, "utf-8", "replace")


def _ttl_from(options: dict[str, Literal]) -> int | None:
    for name, convert in _TTL_OPTIONS.items():
        value = options.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(convert(value, time.time() * 1000 if name in _ABSOLUTE else 0))
    return None


_ABSOLUTE = frozenset({"exat", "pxat"})
_SECONDS = frozenset({"EX", "ex", b"EX", b"ex"})
_GIVEN: dict[tuple[str, ...], frozenset[str]] = {}


def _given(*names: str) -> frozenset[str]:
    """The set of parameters a call gives, one shared object per combination (its hash is computed once)."""
    found = _GIVEN.get(names)
    if found is None:
        found = _GIVEN[names] = frozenset(names)
    return found


# -- per-command readers: operands (after the command name) → the fields of a Reading --------------------

_Reader = Callable[[Reading, Sequence[object]], Reading]


def _set(base: Reading, ops: Sequence[object]) -> Reading:
    if len(ops) == 4 and ops[2] in _SECONDS and type(ops[3]) is int:  # redis-py's set(k, v, ex=n): read at once
        seconds = ops[3]
        return Reading(
            base.name,
            base.keys,
            given=_given("name", "value", "ex"),
            literals=(("ex", seconds),),
            ttl_ms=seconds * 1000,
            expiry=EXPIRY_OPTION,
            values=((0, ops[1]),),
        )
    options = _options(ops, 2, _SET)
    ttl = _ttl_from(options)
    return Reading(
        base.name,
        base.keys,
        given=_given("name", "value", *options),
        literals=tuple(options.items()),
        ttl_ms=ttl,
        expiry=EXPIRY_OPTION if ttl is not None or options.get("keepttl") else None,
        values=((0, ops[1]),) if len(ops) > 1 else (),
    )


def _setex(unit: int) -> _Reader:
    def read(base: Reading, ops: Sequence[object]) -> Reading:
        seconds = number(ops[1]) if len(ops) > 1 else None
        parameter = "time" if unit == 1000 else "time_ms"
        return Reading(
            base.name,
            base.keys,
            given=_given("name", parameter, "value"),
            literals=((parameter, seconds),) if seconds is not None else (),
            ttl_ms=int(seconds * unit) if seconds is not None else None,
            expiry=EXPIRY_OPTION,
            values=((0, ops[2]),) if len(ops) > 2 else (),
        )

    return read


def _expire(unit: int, absolute: bool) -> _Reader:
    parameter = ("when" if absolute else "time") if unit == 1000 else ("when" if absolute else "time_ms")

    def read(base: Reading, ops: Sequence[object]) -> Reading:
        value = number(ops[1]) if len(ops) > 1 else None
        ttl = None
        if value is not None:
            ttl = int(value * unit - time.time() * 1000) if absolute else int(value * unit)
        return Reading(
            base.name,
            base.keys,
            given=_given("name", parameter),
            literals=((parameter, value),) if value is not None else (),
            ttl_ms=ttl,
        )

    return read


def _getex(base: Reading, ops: Sequence[object]) -> Reading:
    options = _options(ops, 1, _GETEX)
    return Reading(
        base.name,
        base.keys,
        given=_given("name", *options),
        literals=tuple(options.items()),
        ttl_ms=_ttl_from(options),
    )


def _plain_value(base: Reading, ops: Sequence[object]) -> Reading:
    """SETNX, GETSET, APPEND: a key and one string value."""
    return Reading(base.name, base.keys, given=_given("name", "value"), values=((0, ops[1]),) if len(ops) > 1 else ())


def _mset(base: Reading, ops: Sequence[object]) -> Reading:
    pairs = len(ops) // 2
    return Reading(
        base.name,
        base.keys,
        batch=pairs,
        given=_given("mapping"),
        values=tuple((i, ops[2 * i + 1]) for i in range(pairs)),
    )


def _keys_batch(base: Reading, ops: Sequence[object]) -> Reading:
    return Reading(base.name, base.keys, batch=len(ops))


def _fields(base: Reading, ops: Sequence[object]) -> Reading:
    """HMGET, HDEL, SREM, ZREM, SMISMEMBER, ZMSCORE: a key, then the fields or members."""
    return Reading(base.name, base.keys, batch=max(len(ops) - 1, 0))


def _pushed(base: Reading, ops: Sequence[object]) -> Reading:
    """SADD, LPUSH, RPUSH: a key, then the elements written."""
    return Reading(base.name, base.keys, batch=max(len(ops) - 1, 0), elements=tuple(ops[1:]))


def _hset(base: Reading, ops: Sequence[object]) -> Reading:
    pairs = tuple(ops[2::2])
    return Reading(base.name, base.keys, batch=len(pairs), elements=pairs, given=_given("name", "mapping"))


def _flagged_items(table: _Options, width: int, parameter: str) -> _Reader:
    """ZADD, GEOADD: a key, flags (NX, XX, CH, ...), then items of `width` operands whose last is the member."""

    def read(base: Reading, ops: Sequence[object]) -> Reading:
        i = 1
        flags: dict[str, Literal] = {}
        while i < len(ops) and option_word(ops[i]) in table.flags:
            flags[table.flags[option_word(ops[i])]] = True
            i += 1
        members = tuple(ops[i + width - 1 :: width])
        return Reading(
            base.name,
            base.keys,
            batch=len(members),
            elements=members,
            given=_given("name", parameter, *flags),
            literals=tuple(flags.items()),
        )

    return read


def _xadd(base: Reading, ops: Sequence[object]) -> Reading:
    options = _options(ops, 1, _XADD)
    return Reading(base.name, base.keys, given=_given("name", "fields", *options), literals=tuple(options.items()))


def _scan(first_option: int) -> _Reader:
    def read(base: Reading, ops: Sequence[object]) -> Reading:
        options = _options(ops, first_option, _SCAN)
        return Reading(base.name, base.keys, given=_given("cursor", *options), literals=tuple(options.items()))

    return read


def _timeout_last(base: Reading, ops: Sequence[object]) -> Reading:
    """BLPOP, BRPOP, BZPOPMIN, BZPOPMAX, BRPOPLPUSH, BLMOVE: the timeout is the last operand."""
    timeout = number(ops[-1]) if ops else None
    return Reading(base.name, base.keys, given=_given("keys", "timeout"), literals=(("timeout", timeout),))


def _timeout_first(base: Reading, ops: Sequence[object]) -> Reading:
    """BLMPOP, BZMPOP: the timeout comes first."""
    timeout = number(ops[0]) if ops else None
    return Reading(base.name, base.keys, given=_given("timeout", "numkeys"), literals=(("timeout", timeout),))


def _stream_read(base: Reading, ops: Sequence[object]) -> Reading:
    options = _options(ops, 0, _STREAM_READ, stop="STREAMS")
    return Reading(base.name, base.keys, given=_given("streams", *options), literals=tuple(options.items()))


def _channels(base: Reading, ops: Sequence[object]) -> Reading:
    return Reading(base.name, base.keys, batch=len(ops))


READERS: dict[str, _Reader] = {
    "set": _set,
    "setex": _setex(1000),
    "psetex": _setex(1),
    "setnx": _plain_value,
    "getset": _plain_value,
    "append": _plain_value,
    "getex": _getex,
    "expire": _expire(1000, absolute=False),
    "pexpire": _expire(1, absolute=False),
    "expireat": _expire(1000, absolute=True),
    "pexpireat": _expire(1, absolute=True),
    "mset": _mset,
    "msetnx": _mset,
    **dict.fromkeys(("mget", "del", "unlink", "exists", "touch"), _keys_batch),
    **dict.fromkeys(("hmget", "hdel", "srem", "zrem", "smismember", "zmscore"), _fields),
    **dict.fromkeys(("sadd", "lpush", "rpush"), _pushed),
    "hset": _hset,
    "hmset": _hset,
    "zadd": _flagged_items(_ZADD, 2, "mapping"),
    "geoadd": _flagged_items(_GEOADD, 3, "values"),
    "xadd": _xadd,
    "scan": _scan(1),
    **dict.fromkeys(("hscan", "sscan", "zscan"), _scan(2)),
    **dict.fromkeys(("blpop", "brpop", "bzpopmin", "bzpopmax", "brpoplpush", "blmove"), _timeout_last),
    **dict.fromkeys(("blmpop", "bzmpop"), _timeout_first),
    **dict.fromkeys(("xread", "xreadgroup"), _stream_read),
    **dict.fromkeys(("subscribe", "psubscribe", "ssubscribe"), _channels),
}

#: Commands whose key positions depend on more than the number of arguments (a keyword, a key count).
_SEARCHED: dict[str, bool] = {}
_positions: dict[tuple[str, int], tuple[int, ...]] = {}


def _one_key(name: str) -> bool:
    """Whether a command's only key is its first operand (GET, SET, HGET, INCR, EXPIRE, ...)."""
    info = command_info(name)
    if info is None or len(info.keys) != 1 or info.subcommands or "|" in name:
        return False
    spec = info.keys[0]
    return spec.keyword is None and spec.find == "range" and spec.begin == 1 and spec.lastkey == 0


#: Commands whose one key is their first operand: read without the key specifications.
ONE_KEY = frozenset(name for name in COMMANDS if _one_key(name))


def _searched(name: str) -> bool:
    found = _SEARCHED.get(name)
    if found is None:
        info = command_info(name)
        found = info is None or any(spec.keyword is not None or spec.find != "range" for spec in info.keys)
        _SEARCHED[name] = found
    return found


def keys_of(name: str, words: tuple[bytes, ...], ops: Sequence[object], encoding: str) -> tuple[bytes, ...]:
    """The key arguments of a command line, as bytes (`words`: the command name as Redis reads it)."""
    argc = len(words) + len(ops)
    if name in ONE_KEY:
        return (to_bytes(ops[0], encoding, "replace"),) if ops else ()
    if not _searched(name):
        positions = _positions.get((name, argc))
        if positions is None:
            positions = key_positions([*words, *([b""] * len(ops))])
            if len(_positions) >= _POSITIONS_LIMIT:
                _positions.clear()
            _positions[(name, argc)] = positions
    else:
        short = [to_bytes(op, encoding, "replace") if byte_length(op) <= _SHORT else b"" for op in ops]
        positions = key_positions([*words, *short])
    start = len(words)
    return tuple(to_bytes(ops[p - start], encoding, "replace") for p in positions if p >= start)


def read_command(name: str, words: tuple[bytes, ...], ops: Sequence[object], encoding: str = "utf-8") -> Reading:
    """Read one command line: `name` as commandstats names it, `words` the name as sent, `ops` the operands."""
    keys = keys_of(name, words, ops, encoding)
    reader = READERS.get(name)
    base = Reading(name, keys)
    if reader is None:
        return base
    try:
        return reader(base, ops)
    except (IndexError, TypeError, ValueError):
        return base  # arguments the server will refuse: judged by name and keys only
