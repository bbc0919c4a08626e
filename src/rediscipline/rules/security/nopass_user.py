"""SEC002 nopass-user."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.finding import Violation
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.plan import SERVER_CONFIG, SERVER_USERS
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.redis_meta.versions import ACL
from rediscipline.rules.base import InstanceRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions
from rediscipline.rules.security.users import shown_user

#: Users named in the message; the rest are counted.
SHOWN_USERS = 5


def nopass_users(server: ServerFact) -> list[str] | None:
    """Enabled users that accept any password, from `ACL LIST` (or `requirepass` before 6.0); None: unknown.

    An `ACL LIST` line is `user <name> <rule> <rule> …`; a user is enabled by `on` and password-free by
    `nopass`. Servers before 6.0 have only the implicit default user, password-free when `requirepass`
    is empty.
    """
    if server.acl_users is not None:
        found = []
        for line in server.acl_users:
            tokens = line.split()
            if len(tokens) >= 2 and tokens[0] == "user" and "on" in tokens[2:] and "nopass" in tokens[2:]:
                found.append(tokens[1])
        return found
    requirepass = server.config_value("requirepass")
    version = server.version_tuple
    if requirepass is not None and version and not ACL.available(server.flavor, version):
        return [] if requirepass else ["default"]
    return None


@rule(
    "SEC002",
    "nopass-user",
    title=("User without a password", "用户未设置密码"),
    severity=Severity.ERROR,
    where=("live", "config"),
    sources=("002 §命令使用规范 — 规范一：线上禁用部分命令",),
)
class NopassUser(InstanceRule[RuleOptions]):
    """Checks that every enabled user needs a password.

    ## What it does
    Reads `ACL LIST` and reports the enabled users (`on`) marked `nopass`, which log in with any
    password or none (code `nopass`; the finding's value is the number of such users, the message names
    them). On servers before 6.0, which have no ACLs, an empty `requirepass` means the default user has
    no password. Nothing is reported when neither `ACL LIST` nor `CONFIG GET` could be read. The stock
    configuration of Redis and Valkey has `user default on nopass … +@all`, so a server nobody secured is
    reported.

    ## Why is this bad?
    Anyone who can reach the port can then run any command that user may run: read every key, write,
    and (with the default user's `+@all`) FLUSHALL, CONFIG SET or DEBUG. Renaming or denying dangerous
    commands, which the conventions ask for, protects nothing while clients can connect as a
    password-free user. Internet scanners find open Redis ports within hours and use them to wipe data
    or plant cron jobs through `CONFIG SET dir`.

    ## Example
    ```
    user default on nopass sanitize-payload ~* &* +@all
    ```

    ## Use instead
    ```
    user default off
    user app on #<sha256 of the password> ~* &* +@all -@dangerous
    ```

    ## Options
    None.

    ## Source
    - 002 §命令使用规范 — 规范一：线上禁用部分命令: the closest convention: administrators decide which
      commands clients may run. None of the five documents speaks of passwords directly; the check follows
      RedisInsight's "Set a password" recommendation (any `ACL LIST` user with `nopass`) and the cloud
      services, which all require authentication.
    """

    reads_server = frozenset({SERVER_CONFIG, SERVER_USERS})

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[RuleOptions]
    ) -> Iterator[Violation]:
        users = nopass_users(server)
        if not users:
            return
        shown = [shown_user(name) for name in users[:SHOWN_USERS]]
        names, names_zh = ", ".join(shown), "、".join(shown)
        more = len(users) - SHOWN_USERS
        if len(users) == 1:
            message = Text(
                f"user {names} has no password: anyone who reaches the port can use it; set a password or "
                "disable the user",
                f"用户 {names} 没有设置密码：任何能连到端口的人都能使用它；请设置密码或禁用该用户",
            )
        else:
            rest = (f" and {more} more", f"，另有 {more} 个") if more > 0 else ("", "")
            message = Text(
                f"{len(users)} users have no password ({names}{rest[0]}): anyone who reaches the port can use "
                "them; set passwords or disable the users",
                f"{len(users)} 个用户没有设置密码（{names_zh}{rest[1]}）：任何能连到端口的人都能使用它们；"
                "请设置密码或禁用这些用户",
            )
        # Where to fix it: the first such user's line, or `requirepass` on servers without ACLs.
        setting = f"user {users[0]}" if server.acl_users is not None else "requirepass"
        yield Violation("nopass", message, value=len(users), setting=setting)
