"""A redis-py command line as the rules name it, and its arguments as the bytes redis-py sends.

redis-py passes a command as `execute_command(*args)`: `args[0]` is the command as written (`"GET"`,
`"CONFIG GET"`, `"FT.SEARCH"`; the connection splits a name with a space into two words) and the rest are
str, bytes, int, float or memoryview values that its encoder turns into bytes. The guard never changes what
is sent: it encodes a copy, and only the arguments a rule reads (keys, options, the head of a big value).
"""

from __future__ import annotations

from collections.abc import Sequence

from rediscipline.redis_meta.commands import CONTAINERS


def to_bytes(value: object, encoding: str = "utf-8", errors: str = "strict") -> bytes:
    """An argument as redis-py's `Encoder.encode` sends it (text in the client's encoding, numbers by repr)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode(encoding, errors)
    if isinstance(value, (memoryview, bytearray)):
        return bytes(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value).encode()
    return str(value).encode(encoding, errors)


def byte_length(value: object, encoding: str = "utf-8") -> int:
    """How many bytes an argument takes on the wire, without encoding a big ASCII-only string."""
    if isinstance(value, (bytes, bytearray)):
        return len(value)
    if isinstance(value, str):
        return len(value) if value.isascii() else len(value.encode(encoding, "replace"))
    if isinstance(value, memoryview):
        return value.nbytes
    return len(to_bytes(value, encoding, "replace"))


def command_name(args: Sequence[object]) -> tuple[str, int]:
    """The command as `INFO commandstats` names it (`config|get`) and the index of its first operand.

    `("CONFIG GET", "maxmemory")` and `("CONFIG", "GET", "maxmemory")` both give (`config|get`, index of
    `maxmemory`); a name redis-py does not know is kept as written, lower-cased.
    """
    head = to_bytes(args[0], "utf-8", "replace").decode("ascii", "replace").lower() if args else ""
    if " " in head:
        first, _, second = head.partition(" ")
        return f"{first}|{second.strip()}", 1
    if head in CONTAINERS and len(args) > 1:
        sub = to_bytes(args[1], "utf-8", "replace").decode("ascii", "replace").lower()
        return f"{head}|{sub}", 2
    return head, 1
