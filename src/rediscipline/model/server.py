"""ServerFact: what one Redis/Valkey instance says about itself (INFO, CONFIG, ACL), read once per scan.

Sources fill what the server lets them read; a section the server refused stays None and the reason is kept
in `unavailable`, so instance rules can say which checks could not run instead of guessing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rediscipline.model.location import Location

#: Names used in `ServerFact.unavailable` for the parts of a server that can be refused.
CHECK_CONFIG = "CONFIG GET"
CHECK_ACL = "ACL LIST"
CHECK_ACCESS = "ACL DRYRUN"
CHECK_SLOWLOG = "SLOWLOG GET"
CHECK_COMMANDSTATS = "INFO commandstats"
CHECK_MEMORY = "MEMORY USAGE"
CHECK_OBJECT = "OBJECT"
CHECK_SELECT = "SELECT"
CHECK_NO_TOUCH = "CLIENT NO-TOUCH"
CHECK_INFO = "INFO"
CHECK_TYPE = "TYPE"
CHECK_LENGTH = "length commands"
CHECK_KEY_READS = "key reads"  # a cluster node refusing a key (CLUSTERDOWN, MOVED, ASK, TRYAGAIN)


@dataclass(frozen=True, slots=True)
class ServerFact:
    """One instance as it described itself at the start of a scan.

    * `info`: every `field:value` of `INFO everything`/`INFO all` (keyspace and commandstats lines included);
    * `config`: `CONFIG GET *`, or None when refused (managed services, ACL);
    * `keyspace`: keys per logical database and `expires` the keys with a TTL, from INFO keyspace;
    * `commandstats`: calls per command (`keys`, `config|set`), from INFO commandstats;
    * `acl_users`: the lines of `ACL LIST`, or None when refused;
    * `callable`: for each of the dangerous commands (`redis_meta.commands.DANGEROUS_COMMANDS`), whether the
      scanning user may run it: True, False (renamed, disabled or ACL-denied), or None (could not be
      determined);
    * `unavailable`: check name → the server's refusal, for every part that could not be read;
    * `settings_origin`: where each setting was written, for a server described by files (redis.conf, an ACL
      file): setting name (`maxmemory`, `user default`, `rename-command keys`) → path and line. Empty for a
      live server, whose settings have no place in a file; a rule names the setting a violation is about in
      `Violation.setting`, and the engine places the finding there.
    """

    origin: Location
    info: Mapping[str, str] = field(default_factory=dict)
    config: Mapping[str, str] | None = None
    keyspace: Mapping[int, int] = field(default_factory=dict)
    expires: Mapping[int, int] = field(default_factory=dict)
    commandstats: Mapping[str, int] = field(default_factory=dict)
    acl_users: tuple[str, ...] | None = None
    user: str | None = None
    callable: Mapping[str, bool | None] = field(default_factory=dict)
    unavailable: Mapping[str, str] = field(default_factory=dict)
    settings_origin: Mapping[str, Location] = field(default_factory=dict)

    def config_value(self, name: str) -> str | None:
        return None if self.config is None else self.config.get(name)

    def config_int(self, name: str) -> int | None:
        return _as_int(self.config_value(name))

    def info_int(self, name: str) -> int | None:
        return _as_int(self.info.get(name))

    def info_float(self, name: str) -> float | None:
        raw = self.info.get(name)
        try:
            return float(raw) if raw is not None else None
        except ValueError:
            return None

    @property
    def maxmemory(self) -> int | None:
        """`maxmemory` in bytes from CONFIG, else from INFO memory (managed services that refuse CONFIG GET
        still print it there); None when the server shows neither."""
        value = self.config_int("maxmemory")
        return value if value is not None else self.info_int("maxmemory")

    @property
    def maxmemory_policy(self) -> str | None:
        """`maxmemory-policy` from CONFIG, else `maxmemory_policy` from INFO memory."""
        value = self.config_value("maxmemory-policy")
        return value if value is not None else self.info.get("maxmemory_policy")

    @property
    def flavor(self) -> str:
        """`valkey` or `redis`."""
        return "valkey" if "valkey_version" in self.info or self.info.get("server_name") == "valkey" else "redis"

    @property
    def version(self) -> str:
        return self.info.get("valkey_version") or self.info.get("redis_version") or "?"

    @property
    def version_tuple(self) -> tuple[int, ...]:
        parts = []
        for piece in self.version.split("."):
            if not piece.isdigit():
                break
            parts.append(int(piece))
        return tuple(parts)

    @property
    def total_keys(self) -> int:
        return sum(self.keyspace.values())


def _as_int(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None
