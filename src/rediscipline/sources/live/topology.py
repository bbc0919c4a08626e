"""What a live address is before any key is read: a Sentinel, a replica out of sync, one node of a cluster,
how many databases it has and how many keys each holds when INFO is refused.

Every call is read-only and O(1) per database; a refusal leaves the answer unknown (None) rather than
failing the scan, except where scanning would mislead (a Sentinel holds no keys at all).
"""

from __future__ import annotations

from typing import Any

from rediscipline.model.display import display_bytes
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.wire import Wire, is_error

#: Masters of a Sentinel named in the error, at most.
SENTINEL_MASTERS_SHOWN = 5
#: Databases probed with SELECT when neither INFO nor CONFIG GET says how many there are.
PROBE_CHUNK = 64
PROBE_LIMIT = 4096
_OUT_OF_RANGE = "out of range"


def hello_info(wire: Wire) -> dict[str, str]:
    """`HELLO` (no protocol switch): server, version, mode and role, which any user may ask; {} when refused.

    Keys are named as INFO names them (`redis_version`, `redis_mode`, `role`), so INFO's readers work on it.
    """
    reply = wire.call(b"HELLO")
    if is_error(reply) or not isinstance(reply, list):
        return {}
    fields = {_text(reply[i]): reply[i + 1] for i in range(0, len(reply) - 1, 2)}
    info: dict[str, str] = {}
    version = _text(fields.get("version", b""))
    if version:
        info["valkey_version" if _text(fields.get("server", b"")) == "valkey" else "redis_version"] = version
    if "mode" in fields:
        info["redis_mode"] = _text(fields["mode"])
    if "role" in fields:
        info["role"] = "slave" if _text(fields["role"]) == "replica" else _text(fields["role"])
    return info


def sentinel_error(wire: Wire, display: str) -> SourceError:
    """The error for a Sentinel port, naming the masters it monitors (SENTINEL MASTERS, bounded)."""
    reply = wire.call(b"SENTINEL", b"MASTERS")
    masters: list[str] = []
    if isinstance(reply, list):
        for entry in reply:
            fields = (
                {_text(entry[i]): entry[i + 1] for i in range(0, len(entry) - 1, 2)} if isinstance(entry, list) else {}
            )
            name, ip, port = (_shown(fields.get(k, b"?")) for k in ("name", "ip", "port"))
            host = f"[{ip}]" if ":" in ip else ip
            masters.append(f"{name} at redis://{host}:{port}")
    if masters:
        shown = ", ".join(masters[:SENTINEL_MASTERS_SHOWN])
        if len(masters) > SENTINEL_MASTERS_SHOWN:
            shown += f" and {len(masters) - SENTINEL_MASTERS_SHOWN} more"
        monitored = f"it monitors {shown}: scan a master (or one of its replicas) instead"
    else:
        monitored = "ask it with `SENTINEL MASTERS` which masters it monitors, and scan one of them"
    return SourceError(f"{display} is a Redis Sentinel, which holds no keys: {monitored}")


def replica_out_of_sync(info: dict[str, str]) -> str | None:
    """Why a replica's keyspace cannot be trusted (its link is down, or a sync is under way); None otherwise."""
    if info.get("role") != "slave":
        return None
    reasons = []
    link = info.get("master_link_status")
    if link is not None and link != "up":
        reasons.append(f"master_link_status:{link}")
    if info.get("master_sync_in_progress") == "1":
        reasons.append("master_sync_in_progress:1")
    if not reasons:
        return None
    master = f"{info.get('master_host', '?')}:{info.get('master_port', '?')}"
    return f"a replica of {master} that is not in sync ({', '.join(reasons)})"


def cluster_masters(wire: Wire) -> int:
    """Masters serving slots in this node's cluster (CLUSTER INFO `cluster_size`); 0 when refused."""
    reply = wire.call(b"CLUSTER", b"INFO")
    if is_error(reply) or not isinstance(reply, bytes):
        return 0
    for line in reply.decode("ascii", "replace").splitlines():
        name, _sep, value = line.partition(":")
        if name == "cluster_size" and value.strip().isdigit():
            return int(value.strip())
    return 0


def database_count(wire: Wire, config: dict[str, str] | None) -> int | None:
    """How many databases the server has: CONFIG `databases` (read now when CONFIG GET * was not), else the
    first SELECT out of range (bounded)."""
    if config is None:
        reply = wire.call(b"CONFIG", b"GET", b"databases")
        if isinstance(reply, list) and len(reply) == 2:
            config = {_text(reply[0]): _text(reply[1])}
    if config is not None and config.get("databases", "").isdigit():
        return int(config["databases"])
    for start in range(0, PROBE_LIMIT, PROBE_CHUNK):
        replies = _pipeline(wire, [(b"SELECT", db) for db in range(start, start + PROBE_CHUNK)] + [(b"SELECT", 0)])
        for offset, reply in enumerate(replies[:-1]):
            if is_error(reply):
                return start + offset if _OUT_OF_RANGE in str(reply).lower() else None
    return None


def select_error(wire: Wire, db: int) -> str | None:
    """The server's refusal of `SELECT db` (out of range, cluster mode, ACL), or None; the connection stays on 0."""
    reply, _back = _pipeline(wire, [(b"SELECT", db), (b"SELECT", 0)])
    return str(reply) if is_error(reply) else None


def keys_per_db(wire: Wire, databases: int | None) -> tuple[dict[int, int], str | None]:
    """Keys of every database by SELECT + DBSIZE, for a user without INFO; and SELECT's refusal, if any.

    With SELECT refused only the connection's database (0) is counted. The connection is left on database 0.
    """
    count = databases if databases is not None else 16
    commands: list[tuple[Any, ...]] = []
    for db in range(count):
        commands += [(b"SELECT", db), (b"DBSIZE",)]
    replies = _pipeline(wire, [*commands, (b"SELECT", 0)])
    keys: dict[int, int] = {}
    refusal = None
    for db in range(count):
        selected, size = replies[2 * db], replies[2 * db + 1]
        if is_error(selected):
            refusal = refusal or str(selected)
            continue
        if isinstance(size, int) and size > 0:
            keys[db] = size
    if refusal is not None:
        size = wire.call(b"DBSIZE")
        keys = {0: size} if isinstance(size, int) and size > 0 else {}
    return keys, refusal


def _pipeline(wire: Wire, commands: list[tuple[Any, ...]]) -> list[Any]:
    wire.send(commands)
    return wire.receive(len(commands))


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _shown(value: Any) -> str:
    """A name or address from the server, made inert for a one-line message."""
    return display_bytes(value if isinstance(value, bytes) else str(value).encode(), 64)
