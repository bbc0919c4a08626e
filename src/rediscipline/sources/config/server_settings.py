"""What CONFIG GET would show for the settings a file writes, and the Redis 7 defaults for those it leaves out.

A server started from a file answers CONFIG GET with normalised values: memory in bytes as a decimal
string (`maxmemory 2gb` → `2147483648`), booleans and enums in lower case, `hz` held between 1 and 500.
The rules compare those normalised values, so a file is normalised the same way here. Only settings
whose type is known are normalised and checked (a value Redis would refuse raises SettingProblem); every
other directive is kept as written, its arguments joined by one space, as CONFIG GET shows them.
"""

from __future__ import annotations

from collections.abc import Callable

from rediscipline.sources.config.syntax import memory_bytes, strict_int

#: Redis 7.0 defaults (`createXConfig(...)` table in config.c; the same values are documented in the stock
#: redis.conf) for the settings the config rules read, plus the ones this source itself interprets.
DEFAULTS: dict[str, str] = {
    "maxmemory": "0",
    "maxmemory-policy": "noeviction",
    "lazyfree-lazy-eviction": "no",
    "lazyfree-lazy-expire": "no",
    "lazyfree-lazy-server-del": "no",
    "lazyfree-lazy-user-del": "no",
    "lazyfree-lazy-user-flush": "no",
    "replica-lazy-flush": "no",
    "hz": "10",
    "dynamic-hz": "yes",
    "requirepass": "",
    "aclfile": "",
    "enable-debug-command": "no",
}

#: Old names that are aliases of a current setting; CONFIG GET answers under both, and so does the fact.
ALIASES = {
    "slave-lazy-flush": "replica-lazy-flush",
    "hash-max-ziplist-entries": "hash-max-listpack-entries",
    "hash-max-ziplist-value": "hash-max-listpack-value",
    "zset-max-ziplist-entries": "zset-max-listpack-entries",
    "zset-max-ziplist-value": "zset-max-listpack-value",
    "list-max-ziplist-size": "list-max-listpack-size",
}

#: Settings whose value is a memory size (MEMORY_CONFIG in config.c), checked against a Redis 7.0 server.
MEMORY = frozenset(
    {
        "maxmemory",
        "maxmemory-clients",
        "client-query-buffer-limit",
        "proto-max-bulk-len",
        "repl-backlog-size",
        "auto-aof-rewrite-min-size",
        "active-defrag-ignore-bytes",
        "stream-node-max-bytes",
        "hash-max-listpack-value",
        "zset-max-listpack-value",
        "set-max-listpack-value",
        "hll-sparse-max-bytes",
    }
)

#: Booleans the rules read (and a few common ones): `yes`/`no` in any case, shown in lower case.
BOOLEAN = frozenset(
    {
        "lazyfree-lazy-eviction",
        "lazyfree-lazy-expire",
        "lazyfree-lazy-server-del",
        "lazyfree-lazy-user-del",
        "lazyfree-lazy-user-flush",
        "replica-lazy-flush",
        "dynamic-hz",
        "activedefrag",
        "appendonly",
        "protected-mode",
        "daemonize",
    }
)

#: Enumerations (config.c `configEnum` tables): the accepted names, matched case-insensitively.
ENUMS: dict[str, tuple[str, ...]] = {
    "maxmemory-policy": (
        "volatile-lru",
        "volatile-lfu",
        "volatile-random",
        "volatile-ttl",
        "allkeys-lru",
        "allkeys-lfu",
        "allkeys-random",
        "noeviction",
    ),
    "enable-debug-command": ("no", "yes", "local"),
    "enable-protected-configs": ("no", "yes", "local"),
    "enable-module-command": ("no", "yes", "local"),
}

#: Passwords are never carried in a fact: CONFIG GET would print them, but no rule needs more than
#: whether one is set. A set password is replaced by this text.
SECRET = frozenset({"requirepass", "masterauth", "tls-key-file-pass", "tls-client-key-file-pass"})
REDACTED = "(redacted)"

#: `hz` accepts 0..INT_MAX and is then held between CONFIG_MIN_HZ and CONFIG_MAX_HZ (server.h).
HZ_RANGE = (1, 500)
_INT_MAX = 2**31 - 1


#: `client-output-buffer-limit` before a line changes a class (config.c `clientBufferLimitsDefaults`); CONFIG GET
#: names the replica class `slave` and shows all three classes, in this order.
OUTPUT_BUFFER_DEFAULTS = {
    "normal": ("0", "0", "0"),
    "slave": (str(256 * 1024**2), str(64 * 1024**2), "60"),
    "pubsub": (str(32 * 1024**2), str(8 * 1024**2), "60"),
}
_OUTPUT_BUFFER_CLASSES = {"normal": "normal", "replica": "slave", "slave": "slave", "pubsub": "pubsub"}

#: Directives that several lines add up to instead of replacing (see `accumulate`).
ACCUMULATED = frozenset({"save", "client-output-buffer-limit"})


class SettingProblem(ValueError):
    """A value the server would refuse at startup; the caller adds the file and line."""


def canonical(name: str) -> str:
    return ALIASES.get(name, name)


def normalise(name: str, args: list[bytes]) -> str:
    """The CONFIG GET value for `name` (already lower case and canonical) written with `args`."""
    checker = _single_value(name)
    if checker is None:
        return " ".join(arg.decode("utf-8", "surrogateescape") for arg in args)
    if len(args) != 1:
        raise SettingProblem(f"{name} takes exactly one argument, got {len(args)}")
    return checker(args[0])


def _single_value(name: str) -> Callable[[bytes], str] | None:
    if name in MEMORY:
        return _memory
    if name in BOOLEAN:
        return _boolean
    if name in ENUMS:
        return lambda value: _enum(name, value)
    if name == "hz":
        return _hz
    if name in SECRET:
        return lambda value: REDACTED if value else ""
    return None


def _memory(value: bytes) -> str:
    number = memory_bytes(value)
    if number is None:
        raise SettingProblem("argument must be a memory value (bytes, or a number with k, kb, m, mb, g or gb)")
    return str(number)


def _boolean(value: bytes) -> str:
    lowered = value.lower()
    if lowered not in (b"yes", b"no"):
        raise SettingProblem("argument must be 'yes' or 'no'")
    return lowered.decode("ascii")


def _enum(name: str, value: bytes) -> str:
    lowered = value.lower().decode("utf-8", "surrogateescape")
    if lowered not in ENUMS[name]:
        raise SettingProblem(f"argument must be one of: {', '.join(ENUMS[name])}")
    return lowered


def _hz(value: bytes) -> str:
    number = strict_int(value)
    if number is None:
        raise SettingProblem("argument couldn't be parsed into an integer")
    if not 0 <= number <= _INT_MAX:
        raise SettingProblem(f"argument must be between 0 and {_INT_MAX} inclusive")
    low, high = HZ_RANGE
    return str(min(max(number, low), high))


def accumulate(name: str, previous: str | None, args: list[bytes]) -> str:
    """The value after one more line of an ACCUMULATED directive, given the value before it (None: no line
    yet). `save` lines add snapshot points (the first one replaces the built-in points, `save ""` clears
    them); `client-output-buffer-limit` lines replace the limits of the classes they name."""
    words = [arg.decode("utf-8", "surrogateescape") for arg in args]
    if name == "save":
        if words == [""]:
            return ""
        if len(words) % 2 or not all(arg.isdigit() for arg in args):
            raise SettingProblem("save takes pairs of numbers: <seconds> <changes> …")
        return " ".join(([previous] if previous else []) + words)
    return _output_buffer(previous, args)


def _output_buffer(previous: str | None, args: list[bytes]) -> str:
    if not args or len(args) % 4:
        raise SettingProblem("client-output-buffer-limit takes <class> <hard> <soft> <seconds>, repeated")
    limits = dict(OUTPUT_BUFFER_DEFAULTS)
    if previous:
        words = previous.split(" ")
        limits = {words[i]: (words[i + 1], words[i + 2], words[i + 3]) for i in range(0, len(words), 4)}
    for at in range(0, len(args), 4):
        kind = _OUTPUT_BUFFER_CLASSES.get(args[at].lower().decode("utf-8", "surrogateescape"))
        hard, soft = memory_bytes(args[at + 1]), memory_bytes(args[at + 2])
        seconds = args[at + 3]
        if kind is None or hard is None or soft is None or not seconds.isdigit():
            raise SettingProblem("client-output-buffer-limit: bad class, memory value or seconds")
        limits[kind] = (str(hard), str(soft), str(int(seconds)))
    return " ".join(" ".join((kind, *limits[kind])) for kind in OUTPUT_BUFFER_DEFAULTS)
