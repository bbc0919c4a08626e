"""Read what an instance says about itself into a ServerFact: the O(1) statistics, before any key is touched.

Every call is read-only and may be refused (ACL, managed services, renamed commands); a refusal is recorded
in `ServerFact.unavailable` with the server's own words and the scan carries on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rediscipline.model.facts import EVIDENCE_COMMANDSTATS, EVIDENCE_SLOWLOG, CommandFact
from rediscipline.model.location import SOURCE_LIVE, Location
from rediscipline.model.plan import SERVER_ACCESS, SERVER_CONFIG, SERVER_PARTS, SERVER_USERS
from rediscipline.model.server import (
    CHECK_ACCESS,
    CHECK_ACL,
    CHECK_COMMANDSTATS,
    CHECK_CONFIG,
    CHECK_INFO,
    CHECK_SELECT,
    CHECK_SLOWLOG,
    ServerFact,
)
from rediscipline.redis_meta.commands import DANGEROUS_COMMANDS, with_subcommand
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.topology import database_count, hello_info, keys_per_db, sentinel_error
from rediscipline.sources.live.wire import Wire, is_error

SLOWLOG_ENTRIES = 128
#: Arguments ACL DRYRUN is asked about, so that a key-pattern or subcommand permission is checked too.
_DRYRUN_ARGS: dict[str, tuple[str, ...]] = {
    "keys": ("*",),
    "flushall": (),
    "flushdb": (),
    "monitor": (),
    "debug": ("sleep", "0"),
    "config": ("set", "maxmemory", "0"),
}


def parse_info(text: bytes) -> dict[str, str]:
    """`INFO` text → flat `field: value` (section headers and blank lines dropped)."""
    fields: dict[str, str] = {}
    for raw in text.decode("utf-8", "replace").splitlines():
        if not raw or raw.startswith("#"):
            continue
        name, sep, value = raw.partition(":")
        if sep:
            fields[name.strip()] = value.strip()
    return fields


def pairs(value: str) -> dict[str, str]:
    """`keys=10,expires=2,avg_ttl=0` → dict."""
    out: dict[str, str] = {}
    for item in value.split(","):
        name, sep, text = item.partition("=")
        if sep:
            out[name] = text
    return out


def keyspace_of(info: dict[str, str]) -> tuple[dict[int, int], dict[int, int]]:
    keys: dict[int, int] = {}
    expires: dict[int, int] = {}
    for name, value in info.items():
        if name.startswith("db") and name[2:].isdigit() and "keys=" in value:
            fields = pairs(value)
            keys[int(name[2:])] = int(fields.get("keys", "0"))
            expires[int(name[2:])] = int(fields.get("expires", "0"))
    return keys, expires


def commandstats_of(info: dict[str, str]) -> dict[str, int]:
    return {
        name[len("cmdstat_") :].lower(): int(pairs(value).get("calls", "0"))
        for name, value in info.items()
        if name.startswith("cmdstat_")
    }


def read_info(wire: Wire) -> dict[str, str] | None:
    """`INFO all` (or plain `INFO` on servers and proxies that refuse `all`) as fields; None when refused."""
    reply = wire.call("INFO", "all")
    if is_error(reply):
        reply = wire.call("INFO")
    return parse_info(reply) if isinstance(reply, bytes) else None


def read_server(
    wire: Wire, origin: Location, parts: frozenset[str] = frozenset(SERVER_PARTS), *, commands: bool = True
) -> ServerFact:
    """INFO, and the `parts` the run's rules read (`model.plan.SERVER_PARTS`): CONFIG GET * (`config`),
    ACL LIST (`users`), ACL WHOAMI and ACL DRYRUN of the dangerous commands (`access`).

    INFO is always read: it says which databases hold keys, the server's version, role and memory. A user
    without INFO still learns the version, mode and role (HELLO) and the keys of each database (SELECT +
    DBSIZE); a Sentinel, which holds no keys, is an error naming the masters it monitors. `commands`: some
    rule judges commands, so a missing commandstats section is worth a note.
    """
    unavailable: dict[str, str] = {}
    info_reply = wire.call("INFO", "all")
    if is_error(info_reply):
        _require_access(info_reply, origin)
        info_reply = wire.call("INFO")  # very old servers, or `INFO all` refused by a proxy
    if isinstance(info_reply, bytes):
        info = parse_info(info_reply)
    else:
        unavailable[CHECK_INFO] = str(info_reply)
        info = hello_info(wire)
    if info.get("redis_mode") == "sentinel":
        raise sentinel_error(wire, origin.path or "")
    keyspace, expires = keyspace_of(info)
    commandstats = commandstats_of(info)
    if commands and not commandstats and CHECK_INFO not in unavailable:
        unavailable[CHECK_COMMANDSTATS] = "no commandstats section in INFO"

    config: dict[str, str] | None = None
    if SERVER_CONFIG in parts or SERVER_ACCESS in parts:  # access: `enable-debug-command` says DEBUG is off
        reply = wire.call("CONFIG", "GET", "*")
        if is_error(reply):
            unavailable[CHECK_CONFIG] = str(reply)
        else:
            config = {_text(reply[i]): _text(reply[i + 1]) for i in range(0, len(reply) - 1, 2)}
    if CHECK_INFO in unavailable:
        keyspace, refusal = keys_per_db(wire, database_count(wire, config))
        if refusal is not None:
            unavailable[CHECK_SELECT] = refusal

    acl_users: tuple[str, ...] | None = None
    if SERVER_USERS in parts:
        reply = wire.call("ACL", "LIST")
        if is_error(reply):
            unavailable[CHECK_ACL] = str(reply)
        else:
            acl_users = tuple(_text(line) for line in reply)

    user_name = None
    callable_: dict[str, bool | None] = dict.fromkeys(DANGEROUS_COMMANDS)
    if SERVER_ACCESS in parts:
        user = wire.call("ACL", "WHOAMI")
        user_name = None if is_error(user) else _text(user)
        if user_name is not None:
            callable_ = _dry_run(wire, user_name, unavailable)
        else:
            unavailable[CHECK_ACCESS] = "ACL WHOAMI refused: the scanning user is unknown"
    if config is not None and config.get("enable-debug-command") == "no":
        callable_["debug"] = False  # ACL DRYRUN answers OK for DEBUG, but the server refuses it to everyone
    return ServerFact(
        origin=origin,
        info=info,
        config=config,
        keyspace=keyspace,
        expires=expires,
        commandstats=commandstats,
        acl_users=acl_users,
        user=user_name,
        callable=callable_,
        unavailable=unavailable,
    )


def _require_access(reply: Any, origin: Location) -> None:
    """A server that wants a password answers every command with NOAUTH: say so instead of scanning."""
    text = str(reply)
    if text.startswith("NOAUTH") or "authentication required" in text.lower():
        raise SourceError(f"{origin.path} requires a password: put it in the URL or use --password-env VAR")


def _dry_run(wire: Wire, user: str, unavailable: dict[str, str]) -> dict[str, bool | None]:
    """Ask `ACL DRYRUN` (Redis 7+) whether `user` may run each dangerous command; it never executes them."""
    commands = [("ACL", "DRYRUN", user, name, *_DRYRUN_ARGS[name]) for name in DANGEROUS_COMMANDS]
    wire.send(commands)
    result: dict[str, bool | None] = {}
    for name, reply in zip(DANGEROUS_COMMANDS, wire.receive(len(commands)), strict=True):
        if not is_error(reply):
            result[name] = _text(reply) == "OK"  # OK, or a text saying which permission is missing
            continue
        message = str(reply)
        lowered = message.lower()
        if "not found" in lowered or "unknown command" in lowered:
            result[name] = False  # renamed or disabled (rename-command, enable-debug-command no)
        else:
            result[name] = None
            unavailable.setdefault(CHECK_ACCESS, message)
    return result


def read_slowlog(wire: Wire, origin: Location, unavailable: dict[str, str]) -> Iterator[CommandFact]:
    reply = wire.call("SLOWLOG", "GET", SLOWLOG_ENTRIES)
    if is_error(reply):
        unavailable[CHECK_SLOWLOG] = str(reply)
        return
    for entry in reply:
        if len(entry) < 4 or not entry[3]:
            continue
        args = [bytes(a) for a in entry[3]]
        # `config|set` with the arguments after the subcommand, as INFO commandstats names it
        name, rest = with_subcommand(args[0].decode("utf-8", "replace"), tuple(args[1:]))
        yield CommandFact(name, origin, EVIDENCE_SLOWLOG, rest, 1, int(entry[2]))


def commandstats_facts(server: ServerFact) -> Iterator[CommandFact]:
    for name, calls in sorted(server.commandstats.items()):
        if calls > 0:
            yield CommandFact(name, server.origin, EVIDENCE_COMMANDSTATS, None, calls)


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def live_origin(display: str, db: int | None = None) -> Location:
    return Location(SOURCE_LIVE, display, db=db)
