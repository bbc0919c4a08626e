"""Read an ACL file (`aclfile` in redis.conf, `ACL SAVE`'s output) into users, or into a ServerFact of its own.

The server is strict with these files (acl.c `ACLLoadFromFile`): every line that is not blank must be
`user <name> <rule>…`; a comment, an unknown rule or a user defined twice makes it refuse to start. The
same lines are refused here, with the file and line, so a broken ACL file is caught before a restart is.
Lines are split as redis.conf lines are (`sdssplitargs`, as Redis 7.2 and later do; 7.0 split on single
spaces, which gives the same arguments for any line without quotes).

Judged on its own, an ACL file describes the server's users but not its redis.conf: whether DEBUG is
enabled (`enable-debug-command`) and which commands are renamed are unknown. `callable` is therefore
about the `default` user, the one every client that does not authenticate (or sends only a password)
uses: True when its rules allow the command, False when they deny it or the user is `off`, and None for
DEBUG when the rules allow it (redis.conf decides; Redis 7 disables it by default). Application users
are not judged for commands: the file cannot say which user is an application and which an administrator
(who may run everything by design); SEC002 still reports any of them without a password.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rediscipline.model.location import SOURCE_CONFIG, Location
from rediscipline.model.server import CHECK_CONFIG, CHECK_INFO, ServerFact
from rediscipline.redis_meta.commands import DANGEROUS_COMMANDS
from rediscipline.sources.config.acl import AclProblem, AclUser, check_name, quoted
from rediscipline.sources.config.files import read_bytes
from rediscipline.sources.config.syntax import SyntaxProblem, directive_lines
from rediscipline.sources.errors import SourceError

DEFAULT_USER = "default"


@dataclass(frozen=True, slots=True)
class DeclaredUser:
    """A user built from its `user` line, and where that line is."""

    user: AclUser
    location: Location


def parse_users(data: bytes, shown: str) -> dict[str, DeclaredUser]:
    """The users of an ACL file's bytes, by name, in file order; raises SourceError as the server would."""
    users: dict[str, DeclaredUser] = {}
    try:
        for number, args in directive_lines(data, comments=False):
            where = f"{shown}:{number}"
            if args[0] != b"user" or len(args) < 2:
                raise SourceError(
                    f"{where}: every line of an ACL file must be `user <name> <rules>` (Redis accepts no "
                    "comments there and refuses to start)"
                )
            add_user(users, declare_user(args[1:], Location(SOURCE_CONFIG, shown, number), where), where)
    except SyntaxProblem as problem:
        raise SourceError(f"{shown}:{problem.line}: {problem}") from None
    return users


def declare_user(args: list[bytes], location: Location, where: str) -> DeclaredUser:
    """`<name> <rule>…` of a `user` line applied to a new user (no permission, disabled, no password)."""
    try:
        user = AclUser(check_name(args[0]))
        user.apply(args[1:])
    except AclProblem as problem:
        raise SourceError(f"{where}: {problem}") from None
    return DeclaredUser(user, location)


def add_user(users: dict[str, DeclaredUser], declared: DeclaredUser, where: str) -> None:
    """Add a user; a second definition of a name is refused, as by the server (config file or ACL file)."""
    name = declared.user.name
    if name in users:
        raise SourceError(f"{where}: user {quoted(name)} is defined twice; Redis refuses to start")
    users[name] = declared


def with_default(users: dict[str, DeclaredUser], password: bytes = b"") -> dict[str, AclUser]:
    """All users the server would have: the declared ones, plus its own default user when none is declared."""
    found = {name: declared.user for name, declared in users.items()}
    if DEFAULT_USER not in found:
        found[DEFAULT_USER] = AclUser.implicit_default(password)
    return found


def acl_list(users: dict[str, AclUser]) -> tuple[str, ...]:
    """`ACL LIST`: one line per user, sorted by name as the server lists them."""
    return tuple(users[name].acl_line() for name in sorted(users, key=lambda n: n.encode("utf-8", "surrogateescape")))


def user_origins(users: dict[str, DeclaredUser]) -> dict[str, Location]:
    """`settings_origin` entries: `user <name>` → the line that declares it."""
    return {f"user {name}": declared.location for name, declared in users.items()}


def read_acl_file(path: str | Path, shown: str | None = None) -> ServerFact:
    """The users of an ACL file, judged as the server would load them (see the module docstring); `shown` is
    how findings and messages name it (default: the path as given)."""
    shown = str(path) if shown is None else shown
    declared = parse_users(read_bytes(Path(path), shown), shown)
    users = with_default(declared)
    default = users[DEFAULT_USER]
    callable_: dict[str, bool | None] = {}
    for command in DANGEROUS_COMMANDS:
        allowed = default.enabled and default.may_run(command)
        callable_[command] = None if allowed and command == "debug" else allowed
    return ServerFact(
        origin=Location(SOURCE_CONFIG, shown),
        config=None,
        acl_users=acl_list(users),
        user=DEFAULT_USER,
        callable=callable_,
        unavailable={
            CHECK_CONFIG: "an ACL file holds users only; give redis.conf to check its settings",
            CHECK_INFO: "a file holds settings, not the server's state (memory in use, keyspace)",
        },
        settings_origin=user_origins(declared),
    )
