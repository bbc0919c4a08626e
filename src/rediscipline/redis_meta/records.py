"""The records the generated command table is made of: a Redis command, its key specifications, a redis-py
method.

`CommandInfo` and `KeySpec` hold what servers publish about a command (`COMMAND INFO`, `COMMAND DOCS`) plus
the few properties derived from it when the table is generated (see scripts/gen_command_table.py);
`MethodSignature` holds what redis-py's signature of a client method says: the command it sends, and which
parameters carry keys or options, so the code check can bind a call's arguments to them. They are named
tuples: the table builds some 800 of them when it is imported, at half a frozen dataclass's cost.
"""

from __future__ import annotations

from typing import NamedTuple

#: Key types as `TYPE` names them; HyperLogLog and bitmap commands work on strings, geo commands on zsets.
KEY_TYPES = ("string", "list", "hash", "set", "zset", "stream")
#: `CommandInfo.reads`: the command reads the whole collection every time, or a range given by two bounds
#: that may cover it all (by index `0 -1`, by score `-inf +inf`, lexicographically `- +`).
READS_WHOLE = "whole"
READS_INDEX_RANGE = "index"
READS_SCORE_RANGE = "score"
READS_LEX_RANGE = "lex"


class KeySpec(NamedTuple):
    """Where one group of a command's keys sits among its arguments (a key specification of COMMAND INFO).

    Positions count the command name as 0, as Redis does. The first key is at `begin` (`begin_search` type
    index), or after the argument `keyword` found searching from `begin` (type keyword; a negative `begin`
    searches backwards from the end). From there `find` is `range` (the last key is
    `lastkey` arguments further, or counted from the end when negative, every `keystep`, and with `limit` a
    fraction of the remaining arguments), `keynum` (the argument `keynumidx` after the first position holds
    the number of keys, which start `firstkey` after it) or `unknown` (only the command knows).
    """

    flags: tuple[str, ...]  # RO, RW, OW, RM, then access, update, insert, delete, incomplete, ...
    begin: int = 0  # 0: the begin search is unknown
    keyword: str | None = None
    find: str = "range"
    lastkey: int = 0
    keystep: int = 1
    limit: int = 0
    keynumidx: int = 0
    firstkey: int = 1


class CommandInfo(NamedTuple):
    """One command or subcommand as the servers describe it, named as `INFO commandstats` names it.

    `since` is the first version of each flavor that has the command, as its own `COMMAND DOCS` says (None:
    none of the servers of that flavor the table was made from knows it). `key_type` is the type of the keys
    it works on, from its ACL data-type category (None for commands on any type: DEL, EXPIRE, SORT); `reads`
    marks the commands that read a whole collection or a range of one (see the READS_ constants).
    """

    name: str  # "hgetall", "config|set"
    arity: int  # the number of arguments, command name included; negative: at least that many
    flags: tuple[str, ...] = ()  # "write", "readonly", "blocking", "admin", "noscript", ...
    categories: tuple[str, ...] = ()  # ACL categories without "@": "read", "hash", "slow", "dangerous", ...
    keys: tuple[KeySpec, ...] = ()
    group: str = ""  # the COMMAND DOCS group: "string", "hash", "server", "connection", ...
    redis_since: str | None = None
    valkey_since: str | None = None
    deprecated_since: str | None = None
    subcommands: tuple[str, ...] = ()  # of a container command ("config": "config|get", "config|set", ...)
    key_type: str | None = None
    reads: str | None = None

    @property
    def is_write(self) -> bool:
        return "write" in self.flags

    @property
    def is_readonly(self) -> bool:
        return "readonly" in self.flags

    @property
    def is_blocking(self) -> bool:
        return "blocking" in self.flags

    @property
    def is_admin(self) -> bool:
        return "admin" in self.flags or "admin" in self.categories

    @property
    def is_dangerous(self) -> bool:
        return "dangerous" in self.categories


class MethodSignature(NamedTuple):
    """One redis-py client method: the command it sends and the parameters that carry keys or options.

    Key parameters come from redis-py's annotations (`KeyT` a key, `KeysT` a list of keys, `*names: KeyT`
    variadic keys, `Mapping[AnyKeyT, ...]` a mapping whose keys are keys). The shape of the signature
    (required parameters, keyword-only ones, `*args`, `**kwargs`) tells whether a call's arguments fit the
    method at all.
    """

    command: str  # e.g. "SET", "CLIENT PAUSE"; iterators name the command they page with ("SCAN")
    params: tuple[str, ...] = ()  # positional parameters in order, after `self`
    keys: tuple[str, ...] = ()  # parameters holding one key
    key_lists: tuple[str, ...] = ()  # parameters holding a list (or mapping) of keys
    variadic_keys: str | None = None  # the `*args` parameter whose values are keys
    variadic_mixed: str | None = None  # `*args` holding keys then other arguments (EVAL's keys_and_args)
    options: tuple[str, ...] = ()  # parameters with a default: `ex`, `px`, `count`, `timeout`, `transaction`...
    keyword_only: tuple[str, ...] = ()  # parameters after `*`: passed by keyword only
    required: int = 0  # how many of `params` have no default
    var_positional: bool = False  # takes `*args`: any number of positional arguments beyond `params`
    var_keyword: bool = False  # takes `**kwargs`: any keyword
