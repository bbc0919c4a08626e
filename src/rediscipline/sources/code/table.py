"""Every client method the extractor maps to a command: the generated table plus redis-py's cluster extras.

`commands.py` is generated from `CoreCommands`; `RedisCluster` adds non-atomic multi-key methods that
split a batch by slot but still send it, so they are the same batch and the same writes to the rules.
"""

from __future__ import annotations

from rediscipline.sources.code.commands import COMMANDS
from rediscipline.sources.code.spec import CommandSpec

CLUSTER_EXTRAS: dict[str, CommandSpec] = {
    "mget_nonatomic": CommandSpec(
        command="MGET", params=("keys",), key_lists=("keys",), required=1, var_positional=True
    ),
    "mset_nonatomic": CommandSpec(command="MSET", params=("mapping",), key_lists=("mapping",), required=1),
}

METHOD_COMMANDS: dict[str, CommandSpec] = {**COMMANDS, **CLUSTER_EXTRAS}
