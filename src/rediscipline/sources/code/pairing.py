"""Settle the calls of one function when it ends: which write is the first of its key, which EXPIRE pairs
with it.

TTL006 judges a write that creates a key without a TTL. Whether a later EXPIRE gives the key its TTL, and
whether an earlier call shows the key already exists (then the write updates it), is only known once the
whole function has been read, so the extractor keeps each call pending with what identifies its keys and
where it runs (loops, branches of `if`), and settles them here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rediscipline.model.code import EXPIRY_SAME_SCOPE, CodeCall

#: Commands after which the key is gone. Any other command that names a key (a read, a watch, a write)
#: shows the function works on a key that exists: a later write to it is an update.
REMOVING_COMMANDS = frozenset({"del", "unlink", "getdel"})
EXPIRE_COMMANDS = frozenset({"expire", "pexpire", "expireat", "pexpireat"})


@dataclass
class Pending:
    """A call seen in the current function, finished when the function ends (TTL pairing)."""

    call: CodeCall
    key_ids: tuple[str, ...]
    order: int
    branches: dict[int, int]  # `if` statement → which of its branches the call is in (0 body, 1 else)
    family: str | None = None  # the key builder its first key comes from (`self._key_for(queue, pri)`)
    member: str | None = None  # its first key is an item of a collection (`keys[i]`): that collection's items

    def exclusive(self, other: Pending) -> bool:
        """Whether the two calls are in different branches of one `if`: they never run together."""
        return any(other.branches.get(node, branch) != branch for node, branch in self.branches.items())


def settle(pending_calls: list[Pending]) -> list[CodeCall]:
    """The calls of a function in order, each told whether an earlier call touched its key and whether a
    later EXPIRE (in a branch that can run with it) gives the key its TTL."""
    settled: list[CodeCall] = []
    expires: list[Pending] = [p for p in pending_calls if p.call.command in EXPIRE_COMMANDS]
    touched: dict[str, list[Pending]] = {}  # key → the earlier calls that show it exists
    for pending in pending_calls:
        call = pending.call
        if pending.key_ids:
            key = pending.key_ids[0]
            earlier = [*touched.get(key, ()), *(touched.get(pending.member, ()) if pending.member else ())]
            if any(not pending.exclusive(before) for before in earlier):
                call = replace(call, touched_before=True)
            if call.command in REMOVING_COMMANDS:
                for removed in pending.key_ids:
                    touched.pop(removed, None)
            elif call.command:
                touched.setdefault(key, []).append(pending)
        if call.expiry is None and pending.key_ids and call.command not in EXPIRE_COMMANDS:
            later = next(
                (e for e in expires if e.order > pending.order and same_key(pending, e) and not e.exclusive(pending)),
                None,
            )
            if later is not None:
                call = replace(
                    call,
                    expiry=EXPIRY_SAME_SCOPE,
                    expire_line=later.call.origin.line,
                    constant_ttl=later.call.constant_ttl,
                )
        settled.append(call)
    return settled


def same_key(write: Pending, expire: Pending) -> bool:
    """Whether an EXPIRE gives the written key its TTL: the same key expression, or, for an EXPIRE run in a
    loop, a key of the same template (`for stream in written: pipe.expire(stream, ttl)` after the writes)."""
    if write.key_ids[:1] == expire.key_ids[:1]:
        return True
    if write.member is not None and expire.key_ids[:1] == (write.member,):
        return True  # `for key in keys: expire(key)` after a write to `keys[i]`
    if expire.call.loop_depth == 0:
        return False
    if write.family is not None and write.family == expire.family:
        return True  # `for p in steps: pipe.expire(key_for(queue, p))` covers `key_for(queue, pri)`
    if not write.call.keys or not expire.call.keys:
        return False
    return write.call.keys[0].pattern == expire.call.keys[0].pattern
