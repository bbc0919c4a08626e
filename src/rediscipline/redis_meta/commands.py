"""Questions about Redis commands, answered from the generated table (`command_table_generated.py`).

Commands are named as `INFO commandstats` names them: lowercase, a subcommand after `|` (`config|set`).
Facts may also carry a container command with its subcommand as the first argument (`config` `SET ...`,
as the slow log and `execute_command("CONFIG", "SET", ...)` show it); `with_subcommand` folds both forms.
"""

from __future__ import annotations

from collections.abc import Sequence

from rediscipline.redis_meta.command_table_generated import COMMANDS
from rediscipline.redis_meta.records import CommandInfo, KeySpec

#: Commands whose first argument is a subcommand (`config`, `client`, `object`, `xinfo`, ...).
CONTAINERS = frozenset(name for name, info in COMMANDS.items() if info.subcommands)

#: The @dangerous commands the conventions single out: a client's user should not be able to run them
#: (rename-command or ACL -@dangerous). `config` stands for its subcommands, all @dangerous but HELP.
DANGEROUS_COMMANDS = ("keys", "flushall", "flushdb", "monitor", "debug", "config")


def command_info(name: str) -> CommandInfo | None:
    """A command by its commandstats name (`config|set`) or as written (`CONFIG SET`, `HGETALL`)."""
    found = COMMANDS.get(name)
    if found is None:
        found = COMMANDS.get(name.lower().replace(" ", "|", 1))
    return found


def key_type_of(name: str) -> str | None:
    """The type of the keys a command works on: `hset` → hash, `zadd` → zset, `pfadd` → string; None for
    commands on any type (DEL, EXPIRE, SORT) and unknown ones."""
    found = command_info(name)
    return found.key_type if found is not None else None


def with_subcommand(name: str, args: tuple[bytes, ...] | None) -> tuple[str, tuple[bytes, ...] | None]:
    """The full name and the arguments after it: `config` + (`SET`, `x`, `1`) → `config|set` + (`x`, `1`);
    a name that already has its subcommand drops a repeated one (`config|set` + (`SET`, ...))."""
    name = name.lower()
    if "|" in name:
        sub = name.split("|", 1)[1].encode()
        if args and args[0].lower() == sub:
            args = args[1:]
        return name, args
    if name in CONTAINERS and args:
        return f"{name}|{args[0].decode('ascii', 'replace').lower()}", args[1:]
    return name, args


def key_positions(argv: Sequence[bytes]) -> tuple[int, ...]:
    """Where the keys are in a whole command line (`argv[0]` the command), as Redis finds them from the key
    specifications (db.c `getKeysUsingKeySpecs`); () for an unknown command or arguments that do not fit.
    Specifications Redis itself cannot resolve (SORT's BY/GET patterns) give nothing."""
    if not argv:
        return ()
    name = argv[0].decode("ascii", "replace").lower()
    info = COMMANDS.get(name)
    if info is not None and info.subcommands and len(argv) > 1:
        info = COMMANDS.get(f"{name}|{argv[1].decode('ascii', 'replace').lower()}")
    if info is None:
        return ()
    found: list[int] = []
    for spec in info.keys:
        found.extend(_spec_positions(spec, argv))
    return tuple(sorted(set(found)))


def _spec_positions(spec: KeySpec, argv: Sequence[bytes]) -> range:
    argc = len(argv)
    first = _first_position(spec, argv)
    if first is None:
        return range(0)
    if spec.find == "range":
        if spec.lastkey >= 0:
            last = first + spec.lastkey
        elif not spec.limit:
            last = argc + spec.lastkey
        else:
            last = first + ((argc - first) // spec.limit + spec.lastkey)
    elif spec.find == "keynum":
        if first + spec.keynumidx >= argc:
            return range(0)
        count = argv[first + spec.keynumidx]
        if not count.isdigit():
            return range(0)
        first += spec.firstkey
        last = first + int(count) - 1
    else:
        return range(0)
    return range(first, min(last, argc - 1) + 1, spec.keystep)  # keys past the end: Redis skips them


def _first_position(spec: KeySpec, argv: Sequence[bytes]) -> int | None:
    argc = len(argv)
    if spec.keyword is None:
        return spec.begin if spec.begin > 0 else None
    keyword = spec.keyword.lower().encode()
    start = spec.begin if spec.begin > 0 else argc + spec.begin
    indexes = range(start, argc - 1) if spec.begin > 0 else range(start, 0, -1)
    for i in indexes:
        if 1 <= i < argc and argv[i].lower() == keyword:
            return i + 1
    return None
