"""Helpers shared by the command rules: one view of a command whatever its evidence, and the message parts.

Sources name a command as Redis does in `INFO commandstats` (`config|set`), but a call seen in code may
arrive as `config` with the subcommand as its first argument (`execute_command("CONFIG", "SET", ...)`).
`call_of` folds both forms into one full name and the operands after it (the command table says which
commands have subcommands), so rules match `config|set` once.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.display import display_bytes
from rediscipline.model.facts import (
    EVIDENCE_CODE,
    EVIDENCE_COMMANDSTATS,
    EVIDENCE_RUNTIME,
    EVIDENCE_SLOWLOG,
    CommandFact,
)
from rediscipline.model.location import SOURCE_TRAFFIC
from rediscipline.model.text import Text
from rediscipline.redis_meta.commands import with_subcommand

#: Where a command rule can be checked: source code, the commands the runtime guard sees, a live server's
#: statistics, and what a server was sent during an observation window (`rediscipline traffic`).
COMMAND_CHECKS = ("code", "runtime", "live", "traffic")

#: The longest client name a message shows (`ip:port`, `[ipv6]:port`, `unix:<path>`).
CLIENT_LIMIT = 64

#: Where a rule on how the application uses a command can be checked: the server's statistics cannot tell
#: the application's own calls from a client library's (redis-py's default pipeline sends MULTI).
CLIENT_CHECKS = ("code", "runtime")


@dataclass(frozen=True, slots=True)
class Call:
    """A command as the rules see it: `name` with its subcommand (`config|set`), and the operands after it.

    `operands` is None when only the name is known (commandstats, or code whose arguments are not
    literals); an operand from code may also be a template rather than the value sent.
    """

    name: str
    operands: tuple[bytes, ...] | None


def call_of(fact: CommandFact) -> Call:
    """The full name and operands of a command, from either naming form (see the module docstring)."""
    return Call(*with_subcommand(fact.name, fact.args))


def from_client(fact: CommandFact) -> bool:
    """Whether the command was seen where the application sends it: in code or by the runtime guard."""
    return fact.evidence in (EVIDENCE_CODE, EVIDENCE_RUNTIME)


def listed(name: str, entries: tuple[str, ...]) -> bool:
    """Whether a command is in a list: an entry `module` covers `module` and every `module|…` subcommand."""
    return any(name == entry or name.startswith(entry + "|") for entry in entries)


def code_of(name: str) -> str:
    """A kebab-case finding code for a command: `config|set` → `config-set`."""
    return name.replace("|", "-")


def measured(fact: CommandFact) -> int:
    """The finding's value: the duration in µs for a slow-log entry, otherwise the number of calls."""
    if fact.evidence == EVIDENCE_SLOWLOG and fact.duration_us is not None:
        return fact.duration_us
    return fact.calls


def seen(fact: CommandFact) -> Text:
    """How the command was observed, as a parenthesised clause for a message ("" for code and runtime), with
    the clients that sent it when they were seen."""
    by = _senders(fact)
    if fact.evidence == EVIDENCE_COMMANDSTATS:
        calls = f"{fact.calls} call" if fact.calls == 1 else f"{fact.calls} calls"
        if fact.origin.source == SOURCE_TRAFFIC:  # the difference of two snapshots: calls inside the window
            return Text(
                f" ({calls} during the observed window, INFO commandstats{by.en})",
                f"（观察窗口内调用 {fact.calls} 次，INFO commandstats{by.zh}）",
            )
        return Text(f" ({calls} in INFO commandstats)", f"（INFO commandstats 中调用 {fact.calls} 次）")
    if fact.evidence == EVIDENCE_SLOWLOG and fact.duration_us is not None:
        ms = fact.duration_us / 1000
        return Text(f" (slow log: {ms:.1f} ms{by.en})", f"（慢日志：{ms:.1f} ms{by.zh}）")
    return Text("", "")


def _senders(fact: CommandFact) -> Text:
    """ "; sent by 10.0.0.5:51234 and 10.0.0.6:40112" for the clients seen sending it ("" when none were)."""
    if not fact.senders:
        return Text("", "")
    clients = [display_bytes(client.encode("utf-8", "surrogateescape"), CLIENT_LIMIT) for client in fact.senders]
    return Text(f"; sent by {' and '.join(clients)}", f"；发送方 {'、'.join(clients)}")


def shown(name: str) -> str:
    """A command name for a message: `config|set` → `CONFIG SET`."""
    return name.replace("|", " ").upper()
