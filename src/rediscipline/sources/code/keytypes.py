"""The Redis type a command's key must have, so the naming rules can compare it with the key's type level.

`hset("user:profile:string", ...)` writes a hash under a name that says string: KEY016 needs the type the
command implies. Commands that work on any type (DEL, EXPIRE, EXISTS) imply none.
"""

from __future__ import annotations

STRING_COMMANDS = frozenset(
    {
        "get", "set", "setnx", "setex", "psetex", "getset", "getex", "getdel", "mget", "mset", "msetnx", "incr",
        "incrby", "incrbyfloat", "decr", "decrby", "append", "strlen", "getrange", "setrange", "substr", "getbit",
        "setbit", "bitcount", "bitpos", "bitfield", "bitfield_ro", "lcs",
    }
)  # fmt: skip
SET_COMMANDS = frozenset(
    {
        "sadd", "srem", "smembers", "sismember", "smismember", "scard", "spop", "srandmember", "smove", "sinter",
        "sinterstore", "sintercard", "sunion", "sunionstore", "sdiff", "sdiffstore", "sscan",
    }
)  # fmt: skip
LIST_COMMANDS = frozenset(
    {
        "lpush", "rpush", "lpushx", "rpushx", "lpop", "rpop", "lrange", "llen", "lindex", "lset", "lrem", "ltrim",
        "linsert", "lpos", "lmove", "blmove", "blpop", "brpop", "brpoplpush", "rpoplpush", "lmpop", "blmpop",
    }
)  # fmt: skip
#: Prefixes of the other families, longest first (`bz…` before `z…`); only commands that name keys get here.
_PREFIXES = (("geo", "zset"), ("bz", "zset"), ("pf", "string"), ("h", "hash"), ("z", "zset"), ("x", "stream"))


def key_type_of(command: str) -> str | None:
    """`hset` → hash, `zadd` → zset, `lpush` → list, `set` → string; None for commands on any type."""
    if command in STRING_COMMANDS:
        return "string"
    if command in SET_COMMANDS:
        return "set"
    if command in LIST_COMMANDS:
        return "list"
    for prefix, key_type in _PREFIXES:
        if command.startswith(prefix):
            return key_type
    return None
