"""Judging the commands of a running application one at a time, with the run's rules and memos.

The runtime guard asks before each command is sent, so a verdict is needed at once, and the cost per command
must stay a few dictionary lookups: a key's name verdict is memoised by its bytes and the type its command
implies, a call's by what of it the call rules read (the call is built, without a place, on a miss), a
command's by its name and operands. Only a violation costs more: it is recorded at the call site that made it, counted.

The judge works on an `Engine` of its own (one part of a run, see `engine.partial`); `snapshot` hands out a
copy of what it recorded, which the driver merges and finishes like any other part. A lock guards every
change, so a client shared by threads records each violation once.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from rediscipline.engine.groups import ResolvedViolation
from rediscipline.engine.runner import Engine, NameVerdict
from rediscipline.model.code import CodeCall
from rediscipline.model.facts import CommandFact, KeyFact
from rediscipline.model.location import Location
from rediscipline.rules.base import FactRule

if TYPE_CHECKING:
    from rediscipline.engine.partial import Partial

#: Entries per memo before it is emptied (the cost of a miss is one evaluation, never a wrong verdict).
MEMO_LIMIT = 100_000
#: The option names of fact rules whose value is the smallest size a rule can report, by what they measure.
_BYTE_LIMITS = ("max_bytes", "min_bytes", "error_bytes")
_ELEMENT_LIMITS = ("max_elements", "error_elements")

Violations = tuple[ResolvedViolation, ...]


class RuntimeJudge:
    """Verdicts on commands as they are sent, and the findings they make at call sites."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lock = threading.RLock()
        self._names: dict[str | None, dict[bytes, NameVerdict]] = {}
        self._calls: dict[Hashable, Violations] = {}
        self._commands: dict[tuple[str, tuple[bytes, ...] | None], Violations] = {}
        self._rank = 0
        self.enabled = frozenset(configured.id for configured in engine.rules)
        namespaces = engine.namespaces
        #: the smallest value (bytes) and reply (elements) a fact rule can report: smaller ones are not judged
        self.value_gate = _smallest(engine, _BYTE_LIMITS)
        self.element_gate = min(
            filter(None, (_smallest(engine, _ELEMENT_LIMITS), *(ns.max_elements for ns in namespaces))), default=0
        )
        ttl_rule = "TTL003" in self.enabled
        #: a TTL given is judged when it is longer than this (ms; 0: never), or always when a namespace has a
        #: minimum: the shortest `max-seconds` option or namespace `ttl-max` TTL003 compares with
        maximums = (_smallest(engine, ("max_seconds",)), *(ns.ttl_max_seconds for ns in namespaces))
        self.ttl_gate_ms = min(filter(None, maximums), default=0) * 1000 if ttl_rule else 0
        self.ttl_always = ttl_rule and any(ns.ttl_min_seconds is not None for ns in namespaces)
        #: the values whose first bytes say they are serialized (pickle, Java) are judged whatever their size
        self.serialized = "VAL006" in self.enabled

    def key(self, name: bytes, key_type: str | None = None) -> NameVerdict:
        """The name verdict of a key, with the type its command implies (None: any type)."""
        names = self._names.get(key_type)
        if names is None:
            names = self._names[key_type] = {}
        found = names.get(name)
        if found is None:
            with self.lock:
                found = self.engine.name_verdict(name, key_type)
                if len(names) >= MEMO_LIMIT:
                    names.clear()
                names[name] = found
        return found

    def memoised_call(self, memo_key: Hashable) -> Violations | None:
        """The memoised verdicts of the call rules on a call, by what of the call they read; None on a miss."""
        return self._calls.get(memo_key)

    def call(self, memo_key: Hashable, call: CodeCall) -> Violations:
        """The call rules' verdicts on `call` (built without a place), memoised under `memo_key`."""
        with self.lock:
            found = tuple(self.engine.judge_call(call))
            if len(self._calls) >= MEMO_LIMIT:
                self._calls.clear()
            self._calls[memo_key] = found
        return found

    def command(self, fact: CommandFact) -> Violations:
        """The command rules' verdicts on a command (memoised by its name and operands)."""
        memo_key = (fact.name, fact.args)
        found = self._commands.get(memo_key)
        if found is None:
            with self.lock:
                found = tuple(self.engine.judge_command(fact))
                if len(self._commands) >= MEMO_LIMIT:
                    self._commands.clear()
                self._commands[memo_key] = found
        return found

    def judges_command(self, name: str) -> bool:
        """Whether some command rule judges `name` (the others need no command fact at all)."""
        return self.engine.judges_command(name)

    def fact(self, fact: KeyFact, verdict: NameVerdict) -> Violations:
        """The fact rules' verdicts on a value written or a TTL given (never memoised: sizes vary)."""
        with self.lock:
            return tuple(self.engine.judge_fact(fact, verdict))

    def record(self, violations: Violations, origin: Location, pattern: bytes | None, subject: str | None) -> None:
        """Count each violation once more at the call site `origin` (one finding per rule, code and place)."""
        with self.lock:
            self._rank += 1
            for violation in violations:
                self.engine.groups.add_site(violation, origin, pattern, subject, rank=self._rank, times=1)

    def snapshot(self) -> Partial:
        """A copy of everything recorded so far, as a part of a run the driver merges (the judge goes on)."""
        with self.lock:
            copied: Partial = pickle.loads(pickle.dumps(self.engine.partial()))
        return copied


def _smallest(engine: Engine, names: tuple[str, ...]) -> int:
    """The smallest positive limit any enabled fact rule reports from (0: no rule reports such sizes)."""
    limits: list[int] = []
    for configured in engine.rules:
        if not isinstance(configured.rule, FactRule):
            continue
        for name in names:
            value: Any = getattr(configured.options, name, None)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                limits.append(value)
    return min(limits, default=0)
