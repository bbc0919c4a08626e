"""Helpers shared by the batch rules: what a multi-key call carries, and the batched form of a command."""

from __future__ import annotations

from rediscipline.model.code import CodeCall
from rediscipline.model.text import Text
from rediscipline.rules.key.template_parts import show

#: 000 §控制数量: at most 100 keys per request and 200 commands per pipeline batch; the messages use them.
KEYS_PER_CALL = 100
COMMANDS_PER_PIPELINE = 200

#: What a multi-key command carries, by command: the finding code and the noun for messages.
_KEYS = ("keys", Text("keys", "个 Key"))
_FIELDS = ("fields", Text("fields", "个字段"))
_MEMBERS = ("members", Text("members", "个成员"))
_ELEMENTS = ("elements", Text("elements", "个元素"))
CARRIES: dict[str, tuple[str, Text]] = {
    **dict.fromkeys(("mget", "mset", "msetnx", "del", "unlink", "exists", "touch"), _KEYS),
    **dict.fromkeys(("hmget", "hdel", "hset", "hmset"), _FIELDS),
    **dict.fromkeys(("sadd", "srem", "zadd", "zrem", "smismember", "zmscore"), _MEMBERS),
    **dict.fromkeys(("lpush", "rpush"), _ELEMENTS),
}
_ITEMS = ("items", Text("items", "项"))

#: The one command that does the work of many single-key calls on different keys (the command-in-loop fix).
#: SET is left out: MSET takes no TTL.
CROSS_KEY_FORM = {"get": "MGET", "del": "DEL", "unlink": "UNLINK", "exists": "EXISTS", "touch": "TOUCH"}
#: The one command that does the work of many calls on the same key, with many fields or members.
SAME_KEY_FORM = {
    "hget": "HMGET",
    "hset": "HSET mapping=…",
    "hdel": "HDEL",
    "sadd": "SADD",
    "srem": "SREM",
    "sismember": "SMISMEMBER",
    "zadd": "ZADD",
    "zrem": "ZREM",
    "zscore": "ZMSCORE",
    "lpush": "LPUSH",
    "rpush": "RPUSH",
}


def carries(command: str) -> tuple[str, Text]:
    """The finding code and the noun of what a multi-key call carries (`keys`, `fields`, …)."""
    return CARRIES.get(command, _ITEMS)


def batched_form(call: CodeCall) -> str | None:
    """The multi-key or multi-member command that could replace many calls of this one, or None.

    A command on one element of a collection batches only when every call names the same key: a key
    written without a variable part (`queue:orders`, not `user:tags:*`).
    """
    cross = CROSS_KEY_FORM.get(call.command)
    if cross is not None:
        return cross
    same = SAME_KEY_FORM.get(call.command)
    if same is not None and call.keys and all(isinstance(part, bytes) for part in call.keys[0].parts):
        return same
    return None


def first_key(call: CodeCall) -> str | None:
    """The call's first key template as a quoted glob for a message, or None when no key could be read."""
    return f"`{show(call.keys[0].pattern)}`" if call.keys else None
