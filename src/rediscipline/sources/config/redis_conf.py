"""Read a redis.conf into the ServerFact a server started from it would describe, for the config rules.

The file is read with the server's own rules (config.c `loadServerConfigFromString`): `sdssplitargs`
quoting, directive names in any case, later lines replacing earlier ones, `include` read in place (globs
included; a plain path that does not exist is an error, as it is for the server), and `save`,
`client-output-buffer-limit`, `rename-command` and `user` lines kept. `include` and `aclfile` paths are
found as `files.py` says: from the working directory as the server would (moved by `dir`), then next to
the file that names them. Includes nest at most MAX_INCLUDE_DEPTH deep and may not loop (the server would
recurse until it crashes).

What the fact holds:

* `config`: what CONFIG GET would answer for every directive written, normalised (memory in bytes, `yes`/
  `no`, lower-case enums, `hz` held between 1 and 500), plus the Redis 7 defaults (server_settings.DEFAULTS) for
  the settings the rules read that the file leaves out. Passwords are replaced by `(redacted)`.
* `settings_origin`: setting → path and line of the line that decided it (`maxmemory`, `user default`,
  `rename-command keys`), so a finding points at the line to change; defaults have no line.
* `acl_users`: `ACL LIST` as the server would show it: the `user` lines, or those of the `aclfile` (which
  the server refuses to combine with `user` lines), plus the server's own default user when neither
  defines it (`on nopass ~* &* +@all`, or with the `requirepass` password; `requirepass` is ignored when
  an ACL file or a `user default` line defines the default user, as the server ignores it). None, with
  the reason in `unavailable`, when the `aclfile` is not found.
* `callable` for the `default` user (every client that does not log in as a named user): False when the
  command is renamed or disabled by `rename-command`, for DEBUG when `enable-debug-command` is `no` (the
  Redis 7 default; `local` still lets local clients run it, so it counts as callable), and when the
  default user is `off` or its rules deny the command; True when nothing restricts it; None when the
  rules are in an ACL file that was not found.
* `unavailable`: what a file cannot show (INFO: memory in use, fragmentation, keyspace).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rediscipline.model.display import display_bytes
from rediscipline.model.location import SOURCE_CONFIG, Location
from rediscipline.model.server import CHECK_ACCESS, CHECK_ACL, CHECK_INFO, ServerFact
from rediscipline.redis_meta.commands import DANGEROUS_COMMANDS
from rediscipline.sources.config import server_settings
from rediscipline.sources.config.acl import AclUser
from rediscipline.sources.config.acl_file import (
    DEFAULT_USER,
    DeclaredUser,
    acl_list,
    add_user,
    declare_user,
    parse_users,
    user_origins,
    with_default,
)
from rediscipline.sources.config.files import Named, find_file, include_targets, read_bytes
from rediscipline.sources.config.syntax import SyntaxProblem, directive_lines
from rediscipline.sources.errors import SourceError

#: How deep `include`s may nest (the server has no limit and no loop check).
MAX_INCLUDE_DEPTH = 16
#: Longest value quoted in an error message.
VALUE_LIMIT = 80
_INFO_REASON = "a configuration file holds settings, not the server's state (memory in use, fragmentation, keyspace)"


@dataclass
class _Conf:
    """What the lines read so far have set."""

    config: dict[str, str] = field(default_factory=dict)
    origin: dict[str, Location] = field(default_factory=dict)
    users: dict[str, DeclaredUser] = field(default_factory=dict)
    renamed: set[str] = field(default_factory=set)  # dangerous commands renamed or disabled
    requirepass: bytes = b""
    workdir: str = ""  # the server's working directory: "" (where it starts) until a `dir` line
    files: dict[str, Named] = field(default_factory=dict)  # every file read, by shown name


def read_redis_conf(path: str | Path, shown: str | None = None) -> ServerFact:
    """The ServerFact of a server started with this file (see the module docstring); `shown` is how findings
    and messages name it (default: the path as given)."""
    named = Named(str(path), str(path) if shown is None else shown)
    conf = _Conf()
    _read(conf, named, [])
    return _fact(conf, named)


def _read(conf: _Conf, named: Named, stack: list[str]) -> None:
    data = read_bytes(Path(named.path), named.shown)
    conf.files[named.shown] = named
    stack.append(os.path.realpath(named.path))
    try:
        for number, args in directive_lines(data):
            _directive(conf, named, number, args, stack)
    except SyntaxProblem as problem:
        raise SourceError(f"{named.shown}:{problem.line}: {problem}") from None
    stack.pop()


def _directive(conf: _Conf, named: Named, number: int, args: list[bytes], stack: list[str]) -> None:
    name = args[0].lower().decode("utf-8", "surrogateescape")
    where = f"{named.shown}:{number}"
    location = Location(SOURCE_CONFIG, named.shown, number)
    if name == "include":
        _include(conf, named, where, args, stack)
    elif name == "rename-command":
        _rename(conf, where, location, args)
    elif name == "user":
        if len(args) < 2:
            raise SourceError(f"{where}: `user` needs a user name")
        add_user(conf.users, declare_user(args[1:], location, where), where)
    else:
        _setting(conf, server_settings.canonical(name), args[1:], where, location)


def _setting(conf: _Conf, name: str, values: list[bytes], where: str, location: Location) -> None:
    try:
        if name in server_settings.ACCUMULATED:
            value = server_settings.accumulate(name, conf.config.get(name), values)
        else:
            value = server_settings.normalise(name, values)
    except server_settings.SettingProblem as problem:
        written = display_bytes(b" ".join(values), VALUE_LIMIT)
        raise SourceError(f"{where}: {name} {written}: {problem}") from None
    conf.config[name] = value
    conf.origin[name] = location
    if name == "requirepass":
        conf.requirepass = values[0]
    elif name == "dir" and len(values) == 1:
        conf.workdir = os.path.join(conf.workdir, os.fsdecode(values[0]))


def _include(conf: _Conf, named: Named, where: str, args: list[bytes], stack: list[str]) -> None:
    if len(args) != 2:
        raise SourceError(f"{where}: `include` takes one file")
    written = os.fsdecode(args[1])
    targets = include_targets(written, conf.workdir, named)
    if targets is None:
        raise SourceError(f"{where}: include {display_bytes(args[1])}: no such file (Redis refuses to start)")
    for target in targets:
        real = os.path.realpath(target.path)
        if real in stack:
            chain = " → ".join(os.path.basename(p) for p in [*stack[stack.index(real) :], real])
            raise SourceError(f"{where}: include loop ({chain})")
        if len(stack) >= MAX_INCLUDE_DEPTH:
            raise SourceError(f"{where}: includes nest more than {MAX_INCLUDE_DEPTH} deep")
        _read(conf, target, stack)


def _rename(conf: _Conf, where: str, location: Location, args: list[bytes]) -> None:
    if len(args) != 3:
        raise SourceError(f'{where}: `rename-command` takes a command and its new name ("" to disable it)')
    command = args[1].lower().decode("utf-8", "surrogateescape")
    target = args[2].lower().decode("utf-8", "surrogateescape")
    if command in conf.renamed:
        raise SourceError(f"{where}: {command} is already renamed; Redis refuses to start (no such command)")
    if target in DANGEROUS_COMMANDS and target not in conf.renamed and target != command:
        raise SourceError(f"{where}: rename-command {command} {target}: target command name already exists")
    if command in DANGEROUS_COMMANDS and target != command:
        conf.renamed.add(command)
    conf.origin[f"rename-command {command}"] = location
    conf.origin["rename-command"] = location


def _fact(conf: _Conf, named: Named) -> ServerFact:
    config = {**server_settings.DEFAULTS, **conf.config}
    for alias, name in server_settings.ALIASES.items():
        if name in config:
            config[alias] = config[name]
            if name in conf.origin:
                conf.origin[alias] = conf.origin[name]
    unavailable = {CHECK_INFO: _INFO_REASON}
    users = _users(conf, config["aclfile"], named, unavailable)
    default = users.get(DEFAULT_USER) if users is not None else None
    callable_: dict[str, bool | None] = {}
    for command in DANGEROUS_COMMANDS:
        if command in conf.renamed or (command == "debug" and config["enable-debug-command"] == "no"):
            callable_[command] = False
        elif default is None:
            callable_[command] = None
        else:
            callable_[command] = default.enabled and default.may_run(command)
    return ServerFact(
        origin=Location(SOURCE_CONFIG, named.shown),
        config=config,
        acl_users=acl_list(users) if users is not None else None,
        user=DEFAULT_USER,
        callable=callable_,
        unavailable=unavailable,
        settings_origin=conf.origin,
    )


def _users(conf: _Conf, aclfile: str, named: Named, unavailable: dict[str, str]) -> dict[str, AclUser] | None:
    """Every user the server would have; None when they are in an ACL file that cannot be found."""
    if not aclfile:
        password = b"" if DEFAULT_USER in conf.users else conf.requirepass
        conf.origin.update(user_origins(conf.users))
        return with_default(conf.users, password)
    where = conf.origin["aclfile"]
    if conf.users:
        raise SourceError(
            f"{named.shown}: users are declared both with `user` lines and in aclfile {_escaped(aclfile)} "
            f"({where.path}:{where.line}); Redis refuses to start"
        )
    found = find_file(aclfile, conf.workdir, conf.files[where.path or named.shown])
    if found is None:
        reason = f"aclfile {_escaped(aclfile)} not found: give the ACL file to check as well"
        unavailable[CHECK_ACL] = reason
        unavailable[CHECK_ACCESS] = reason
        return None
    declared = parse_users(read_bytes(Path(found.path), found.shown), found.shown)
    conf.origin.update(user_origins(declared))
    return with_default(declared)


def _escaped(text: str) -> str:
    return display_bytes(text.encode("utf-8", "surrogateescape"))
