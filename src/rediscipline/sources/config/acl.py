"""ACL users as Redis 7 builds them from `user` lines (redis.conf or an ACL file), and what they may run.

A `user NAME rule…` line is applied rule by rule, as `ACL SETUSER` would (acl.c `ACLSetUser`); later rules
override earlier ones. What matters to the rules is kept exactly: whether the user is enabled (`on`/`off`),
whether it accepts any password (`nopass`, cleared again by a `>password` or `#hash` that follows), and which
of the dangerous commands its command rules allow. The result is rendered as an `ACL LIST` line, with
passwords replaced by their SHA-256 hashes as the server shows them, so that no clear-text password ever
leaves the file.

Command rules are evaluated in order for one command: `+@all`/`allcommands` and `-@all`/`nocommands`,
categories (`+@admin`, `-@dangerous`), commands (`+keys`, `-debug`) and subcommands (`-config|set`).
A selector `( … )` is a second set of permissions: a command is allowed when the user's own rules or any
selector allow it. Key and channel patterns do not matter here: none of the dangerous commands names a key.
Checked on Redis 7.0 with `ACL DRYRUN` for each kind of rule.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from rediscipline.model.display import display_bytes
from rediscipline.redis_meta.command_table_generated import COMMANDS
from rediscipline.redis_meta.commands import DANGEROUS_COMMANDS

#: Longest rule or name quoted in an error message.
SHOWN_LIMIT = 80

#: The subcommand a live scan asks `ACL DRYRUN` about, for the commands of DANGEROUS_COMMANDS that have them.
PROBED_SUBCOMMANDS = {"debug": "sleep", "config": "set"}


def _probe(command: str) -> tuple[str | None, frozenset[str]]:
    """The probed subcommand of `command` and the ACL categories of what is probed (DEBUG's subcommands
    share DEBUG's); every command is also in `@all`."""
    sub = PROBED_SUBCOMMANDS.get(command)
    info = COMMANDS.get(f"{command}|{sub}") if sub else None
    return sub, frozenset((info or COMMANDS[command]).categories)


#: For each of DANGEROUS_COMMANDS: the subcommand probed and the ACL categories that grant it.
PROBES: dict[str, tuple[str | None, frozenset[str]]] = {command: _probe(command) for command in DANGEROUS_COMMANDS}

#: What the server's default user is when no `user default` line redefines it (acl.c `ACLInitDefaultUser`).
DEFAULT_USER_RULES = ("~*", "&*", "+@all")

_FLAG_RULES = frozenset({"on", "off", "nopass", "resetpass", "reset", "clearselectors"})
#: Rules kept as written; they change nothing this source judges.
_KEPT_RULES = frozenset(
    {"allkeys", "resetkeys", "allchannels", "resetchannels", "allcommands", "nocommands"}
    | {"sanitize-payload", "skip-sanitize-payload"}
)
_SELECTOR_RULES = frozenset({"allkeys", "resetkeys", "allchannels", "resetchannels", "allcommands", "nocommands"})
_KEY_RULE = re.compile(r"(~|%(r|w|rw)~|&)", re.IGNORECASE)
_HASH = re.compile(r"[0-9a-f]{64}")
_NAME_SPACE = re.compile(r"[\s\x00]")


class AclProblem(ValueError):
    """A `user` line the server would refuse."""


def quoted(text: str) -> str:
    """A name or rule from the file for a message: quoted, escaped (it may hold any byte), cut when long."""
    return f"'{display_bytes(text.encode('utf-8', 'surrogateescape'), SHOWN_LIMIT)}'"


@dataclass
class AclUser:
    """One user being built from its rules; a new user starts disabled, without password or permission."""

    name: str
    enabled: bool = False
    nopass: bool = False
    passwords: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    selectors: list[list[str]] = field(default_factory=list)

    @classmethod
    def implicit_default(cls, password: bytes = b"") -> AclUser:
        """The default user of a server whose files do not define it; `requirepass` gives it a password."""
        user = cls("default", enabled=True, nopass=not password, rules=list(DEFAULT_USER_RULES))
        if password:
            user.passwords.append(hashlib.sha256(password).hexdigest())
        return user

    def apply(self, rules: list[bytes]) -> None:
        for rule in merge_selectors(rules):
            self._apply(rule)

    def _apply(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "surrogateescape")
        lowered = text.lower()
        if lowered in _FLAG_RULES:
            self._flag(lowered)
        elif text[:1] in (">", "<"):
            self._password(text[0], hashlib.sha256(raw[1:]).hexdigest())
        elif text[:1] in ("#", "!"):
            if not _HASH.fullmatch(text[1:]):
                raise AclProblem(f"the password hash must be 64 lowercase hexadecimal characters: {quoted(text)}")
            self._password(">" if text[0] == "#" else "<", text[1:])
        elif text[:1] == "(":
            self.selectors.append(_selector(text))
        elif lowered in _KEPT_RULES or _KEY_RULE.match(text) or _command_rule(text):
            self.rules.append(text)
        else:
            raise AclProblem(f"unknown ACL rule {quoted(text)}")

    def _flag(self, flag: str) -> None:
        if flag in ("on", "off"):
            self.enabled = flag == "on"
        elif flag == "nopass":
            self.nopass, self.passwords = True, []
        elif flag == "resetpass":
            self.nopass, self.passwords = False, []
        elif flag == "clearselectors":
            self.selectors = []
        else:  # reset: resetpass, resetkeys, resetchannels, off, clearselectors, -@all
            self.enabled, self.nopass, self.passwords = False, False, []
            self.rules, self.selectors = ["sanitize-payload", "resetchannels", "-@all"], []

    def _password(self, sign: str, digest: str) -> None:
        if sign == ">":
            self.nopass = False
            if digest not in self.passwords:
                self.passwords.append(digest)
        elif digest in self.passwords:
            self.passwords.remove(digest)
        else:
            raise AclProblem("removes a password the user does not have")

    def may_run(self, command: str) -> bool:
        """Whether the user's rules (or one of its selectors) allow `command`, one of DANGEROUS_COMMANDS."""
        return any(allows(rules, command) for rules in (self.rules, *self.selectors))

    def acl_line(self) -> str:
        """The user as `ACL LIST` shows it: state and passwords first, then the other rules as written."""
        parts = ["user", self.name, "on" if self.enabled else "off"]
        if self.nopass:
            parts.append("nopass")
        parts += [f"#{digest}" for digest in self.passwords]
        parts += self.rules
        parts += [f"({' '.join(rules)})" for rules in self.selectors]
        return " ".join(parts)


def check_name(raw: bytes) -> str:
    """A user name as the server accepts it (no blank or NUL), decoded without assuming UTF-8."""
    name = raw.decode("utf-8", "surrogateescape")
    if not name or _NAME_SPACE.search(name):
        raise AclProblem("user names can't be empty or contain spaces or null characters")
    return name


def merge_selectors(rules: list[bytes]) -> list[bytes]:
    """Join the arguments of each `( … )` selector into one rule, as `ACLMergeSelectorArguments` does."""
    merged: list[bytes] = []
    open_selector: list[bytes] | None = None
    for rule in rules:
        if open_selector is None and rule[:1] == b"(" and rule[-1:] != b")":
            open_selector = [rule]
        elif open_selector is not None:
            open_selector.append(rule)
            if rule[-1:] == b")":
                merged.append(b" ".join(open_selector))
                open_selector = None
        else:
            merged.append(rule)
    if open_selector is not None:
        start = open_selector[0].decode("utf-8", "surrogateescape")
        raise AclProblem(f"unmatched parenthesis in ACL selector starting at {quoted(start)}")
    return merged


def _selector(text: str) -> list[str]:
    if text[-1:] != ")":
        raise AclProblem(f"unmatched parenthesis in ACL selector {quoted(text)}")
    rules = text[1:-1].split()
    for rule in rules:
        if not (rule.lower() in _SELECTOR_RULES or _KEY_RULE.match(rule) or _command_rule(rule)):
            raise AclProblem(f"unknown ACL rule {quoted(rule)} in a selector")
    return rules


def _command_rule(text: str) -> bool:
    return len(text) > 1 and text[0] in "+-" and text[1:] not in ("@", "|")


def allows(rules: list[str], command: str) -> bool:
    """Evaluate command rules in order for `command` (with the subcommand and categories of PROBES)."""
    subcommand, categories = PROBES[command]
    allowed = False
    for rule in rules:
        lowered = rule.lower()
        if lowered in ("allcommands", "nocommands"):
            allowed = lowered == "allcommands"
        elif lowered[:1] not in ("+", "-"):
            continue
        elif lowered[1:2] == "@":
            category = lowered[2:]
            if category == "all" or category in categories:
                allowed = lowered[0] == "+"
        else:
            name, _, first = lowered[1:].partition("|")
            if name == command and (not first or first == subcommand):
                allowed = lowered[0] == "+"
    return allowed
