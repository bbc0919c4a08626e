"""redis-py client methods → the Redis command each sends and the shape of its signature.

`method_table_generated.py` is generated from redis-py's `CoreCommands`; `RedisCluster` adds non-atomic
multi-key methods that split a batch by slot but still send it, so they are the same batch and the same
writes to the rules.
"""

from __future__ import annotations

from rediscipline.redis_meta.commands import key_type_of
from rediscipline.redis_meta.method_table_generated import METHODS as CORE_METHODS
from rediscipline.redis_meta.method_table_generated import UNLISTED_KEY_TYPES
from rediscipline.redis_meta.records import MethodSignature

CLUSTER_EXTRAS: dict[str, MethodSignature] = {
    "mget_nonatomic": MethodSignature(
        command="MGET", params=("keys",), key_lists=("keys",), required=1, var_positional=True
    ),
    "mset_nonatomic": MethodSignature(command="MSET", params=("mapping",), key_lists=("mapping",), required=1),
}

#: Every client method the code check maps to a command.
METHODS: dict[str, MethodSignature] = {**CORE_METHODS, **CLUSTER_EXTRAS}


def command_name(method: MethodSignature) -> str:
    """The command a method sends as `INFO commandstats` names it: `CONFIG SET` → `config|set`."""
    return method.command.lower().replace(" ", "|", 1)


def method_key_type(method: str) -> str | None:
    """The type of the keys a client method works on: its command's (`hset` → hash), or for a command no
    server of the table knows, that of the redis-py class defining the method; None for any type (DEL)."""
    signature = METHODS.get(method)
    found = key_type_of(command_name(signature)) if signature is not None else None
    return found if found is not None else UNLISTED_KEY_TYPES.get(method)
