"""Helpers shared by the pub/sub and queue rules: which commands block, which subscribe.

The batch rules use them too: a blocking pop or a subscription inside a loop is a consumer waiting for
messages, not a round trip a pipeline could save.
"""

from __future__ import annotations

from rediscipline.model.code import CodeCall, Literal
from rediscipline.redis_meta.command_table_generated import COMMANDS

#: Where these rules can be checked: the call in code or as the runtime guard sees it sent (a server's
#: statistics do not show the arguments).
PUBSUB_CHECKS = ("code", "runtime")

#: Blocking pops and moves (BLPOP, BLMOVE, BZPOPMIN, ...): each takes a `timeout` in seconds, and 0 waits for
#: ever. The command table's `blocking` commands on lists and sorted sets.
BLOCKING_POPS = frozenset(
    name for name, info in COMMANDS.items() if info.is_blocking and info.key_type in ("list", "zset")
)
#: Stream reads that block when given `block` (milliseconds; 0 waits for ever): XREAD, XREADGROUP.
STREAM_READS = frozenset(name for name, info in COMMANDS.items() if info.is_blocking and info.key_type == "stream")
#: Commands that wait for replicas or the AOF (WAIT, WAITAOF): blocking by design, with a timeout of their own;
#: the blocking commands that name no key.
WAITS = frozenset(name for name, info in COMMANDS.items() if info.is_blocking and not info.keys)
#: Subscriptions, and their reverse.
SUBSCRIPTIONS = frozenset({"subscribe", "psubscribe", "ssubscribe"})
UNSUBSCRIPTIONS = frozenset({"unsubscribe", "punsubscribe", "sunsubscribe"})


def blocks(call: CodeCall) -> bool:
    """Whether the call waits on the server for data: a blocking pop, a blocking stream read, a WAIT."""
    command = call.command
    return command in BLOCKING_POPS or command in WAITS or (command in STREAM_READS and "block" in call.given)


def subscribes(call: CodeCall) -> bool:
    """Whether the call subscribes to or unsubscribes from channels."""
    return call.command in SUBSCRIPTIONS or call.command in UNSUBSCRIPTIONS


def is_zero(value: Literal) -> bool:
    """A literal meaning "no limit": the number 0 (or the text "0"), never `False` or None."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, (int, float)):
        return value == 0
    text = value.decode("ascii", "replace") if isinstance(value, bytes) else value
    try:
        return float(text.strip()) == 0
    except ValueError:
        return False
