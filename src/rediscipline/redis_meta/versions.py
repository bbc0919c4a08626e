"""Which server versions have a feature, per flavor (Redis and Valkey number their releases apart).

A command's first version comes from the generated table (each server's own COMMAND DOCS); what no
command shows (encodings, configuration names, RDB layouts) is declared here with the release that brought
it. Valkey forked from Redis 7.2.4, so it has everything Redis 7.2 had and numbers what it adds itself.
"""

from __future__ import annotations

from typing import NamedTuple

from rediscipline.redis_meta.command_table_generated import COMMANDS, SERVERS

VALKEY = "valkey"
REDIS = "redis"


def parse_version(text: str) -> tuple[int, ...]:
    """`7.2.4` → (7, 2, 4); the leading numeric parts only (`8.2.3-rc1` → (8, 2)); trailing zeros dropped
    (`6.0.0` → (6,)), so that a version compares with it as with the release it names."""
    parts = []
    for piece in text.split("."):
        if not piece.isdigit():
            break
        parts.append(int(piece))
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


class Feature(NamedTuple):
    """A capability and the first version of each flavor that has it (None: no version of that flavor),
    without trailing zeros (`(7,)` for 7.0.0)."""

    name: str
    redis: tuple[int, ...] | None
    valkey: tuple[int, ...] | None

    def available(self, flavor: str, version: tuple[int, ...]) -> bool:
        """Whether a server of `flavor` at `version` has it; an unknown version (empty) has nothing."""
        since = self.valkey if flavor == VALKEY else self.redis
        return bool(version) and since is not None and version >= since


def command_feature(name: str) -> Feature:
    """A command (or subcommand) as a feature, from the versions the generated table records for it."""
    info = COMMANDS[name]
    redis = parse_version(info.redis_since) if info.redis_since else None
    valkey = parse_version(info.valkey_since) if info.valkey_since else None
    return Feature(name, redis, valkey)


def has_command(name: str, flavor: str, version: tuple[int, ...]) -> bool | None:
    """Whether a server has a command. None when the table cannot say: a module's command (modules do not
    publish a first version), or a server newer than every server of its flavor the table was made from
    and a command the table does not know (a later release may have added it)."""
    info = COMMANDS.get(name)
    since = None if info is None else (info.valkey_since if flavor == VALKEY else info.redis_since)
    if since is not None:
        return version >= parse_version(since)
    if info is not None and "module" in info.flags:
        return None
    newest = max((parse_version(v) for f, v in SERVERS if f == flavor), default=())
    return None if version > newest else False


#: Read a key without touching its LRU/LFU clock (the live scan's probes).
CLIENT_NO_TOUCH = command_feature("client|no-touch")
#: Users and their permissions; older servers have one password, `requirepass`.
ACL = command_feature("acl")
#: Per-field TTLs in hashes (HEXPIRE); Valkey 9 keeps such a hash out of the compact listpack encoding.
HASH_FIELD_TTL = command_feature("hexpire")
#: `*-max-listpack-*` settings (until then `*-max-ziplist-*`, still accepted as aliases).
LISTPACK_SETTINGS = Feature("listpack settings", (7,), (7, 2))
#: Small sets of strings as listpacks, and single-node lists as one listpack instead of a quicklist.
SMALL_SETS_AND_LISTS_AS_LISTPACK = Feature("listpack small sets and lists", (7, 2), (7, 2))
#: The key embedded in the value object in RDB files and memory (Redis 8.0, Valkey 8.1, each its own way).
EMBEDDED_KEY = Feature("key embedded in the value object", (8,), (8, 1))
