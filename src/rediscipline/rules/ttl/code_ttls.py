"""Helpers shared by the TTL rules on code: which commands give a TTL, and how a call's keys read in a message.

The code source, or the runtime guard, tells the rules how a write gets its TTL (`CodeCall.expiry`); these
helpers only name things for messages, so every TTL message shows keys and TTL arguments the same way.
"""

from __future__ import annotations

from rediscipline.model.code import CodeCall, Literal
from rediscipline.model.text import Text
from rediscipline.rules.key.template_parts import show

#: Where the TTL rules on calls can be checked: code shows the call site, its loop and its pipeline; the
#: runtime guard the call site, its pipeline and the writes that repeat one TTL.
CODE_CHECKS = ("code", "runtime")
#: The TTL rules that judge the writes as sent, whoever saw them: also a MONITOR sample of a server's traffic
#: (`rediscipline traffic --monitor`), which shows the TTL each write gave and runs of one TTL.
SENT_CHECKS = (*CODE_CHECKS, "traffic")

#: Commands that give a key its TTL by themselves (SET … EX is recognised by `CodeCall.expiry`).
TTL_COMMANDS = frozenset({"expire", "pexpire", "expireat", "pexpireat", "setex", "psetex", "getex"})

#: redis-py parameters that carry a TTL or an expiry time, in the order a message prefers them.
TTL_PARAMETERS = ("time", "time_ms", "when", "ex", "px", "exat", "pxat")


def keys_text(call: CodeCall) -> Text:
    """The keys a call writes, for a message: "`user:*:profile`", "`a:*` and 2 more keys", or "the key"."""
    if not call.keys:
        return Text("the key", "Key")
    first = f"`{show(call.keys[0].pattern)}`"
    more = len(call.keys) - 1
    if more == 0:
        return Text(first, first)
    return Text(f"{first} and {more} more key{'s' if more > 1 else ''}", f"{first} 等 {more + 1} 个 Key")


def ttl_argument(call: CodeCall) -> tuple[str, int | float] | None:
    """The literal TTL (or expiry time) a call passes, as (parameter, value), when one is written as a number."""
    for name in TTL_PARAMETERS:
        value: Literal = call.literal(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return name, value
    return None


def command_name(call: CodeCall) -> str:
    """A call's command for a message, as Redis spells it: `set` → `SET`."""
    return call.command.upper()
