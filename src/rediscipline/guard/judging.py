"""One command, or one pipeline, read into facts and judged with the run's rules.

A command sent at once is judged alone: its keys by the naming rules (with the type its command implies),
the command by the command rules, the call by the call rules (with the real batch size, the options given,
whether a SET carries its TTL), and the value or TTL it writes by the fact rules, when a rule's limit can be
reached. A pipeline is judged when it is executed, with what only the whole of it shows: the EXPIRE that
follows a write of the same key, how many commands it holds.

Each step is skipped when no enabled rule can judge it, so a GET of a known key pattern costs a name lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rediscipline.engine.runner import NameVerdict
from rediscipline.engine.runtime import RuntimeJudge, Violations
from rediscipline.model.code import EXPIRY_SAME_SCOPE, EXPIRY_UNKNOWN, CodeCall
from rediscipline.model.facts import EVIDENCE_RUNTIME, HEAD_BYTES, CommandFact, KeyFact
from rediscipline.model.location import SOURCE_RUNTIME, Location
from rediscipline.redis_meta.commands import CONTAINERS, command_info
from rediscipline.sources.runtime.argv import byte_length, command_name, to_bytes
from rediscipline.sources.runtime.reading import READERS, Reading, read_command
from rediscipline.sources.runtime.stream import LoopRuns, TtlRuns

#: Facts are judged without a place (so equal facts share a memoised verdict); findings get the call site.
NOWHERE = Location(SOURCE_RUNTIME)
#: Writes that can carry their TTL in the command itself: sent alone without one, they are judged at once.
TTL_IN_COMMAND = frozenset({"set", "setnx", "getset", "mset", "msetnx"})
#: Commands that give an existing key a TTL: a write followed by one in the same pipeline has a TTL.
EXPIRES = frozenset({"expire", "pexpire", "expireat", "pexpireat"})
#: Templates a call carries for its messages and namespace (a batch of 500 keys names the first few).
_CALL_KEYS = 3
#: Operands a command fact carries (the command rules read the first few: a database, a range).
_COMMAND_ARGS = 8
_NAMES_LIMIT = 4096
#: Commands that add channels to a pub/sub connection.
SUBSCRIPTIONS = frozenset({"subscribe", "psubscribe", "ssubscribe"})


@dataclass(frozen=True, slots=True)
class Found:
    """Violations one command showed, with the key pattern and command they are about."""

    violations: Violations
    pattern: bytes | None
    command: str
    site: Location


@dataclass(frozen=True, slots=True)
class Command:
    """A command line named (`config|get`), with the words that name it and its operands."""

    name: str
    words: tuple[bytes, ...]
    ops: Sequence[object]


class Judging:
    """Reads commands and judges them with `judge`; `call_commands` are the commands whose calls a call rule
    reads (sizes, options, TTLs), the rest need no call fact unless a loop or a pipeline is involved."""

    def __init__(self, judge: RuntimeJudge) -> None:
        self.judge = judge
        self.ttls = TtlRuns()
        self.loops = LoopRuns()
        self.call_commands = frozenset(READERS) | _listed_commands(judge)
        self._names: dict[object, tuple[str, int, tuple[bytes, ...]]] = {}

    # -- reading ----------------------------------------------------------------------------------------

    def command(self, args: Sequence[object]) -> Command:
        """Name a command line; names that are not container commands are memoised by `args[0]`."""
        head = args[0] if args else ""
        known = self._names.get(head) if isinstance(head, (str, bytes)) else None
        if known is None:
            name, start = command_name(args)
            words: tuple[bytes, ...] = tuple(to_bytes(word, "utf-8", "replace") for word in args[:start])
            if start == 1:
                words = tuple(words[0].split()) if words else ()
            known = (name, start, words)
            if name not in CONTAINERS and isinstance(head, (str, bytes)) and len(self._names) < _NAMES_LIMIT:
                self._names[head] = known
        return Command(known[0], known[2], args[known[1] :])

    # -- one command sent at once ---------------------------------------------------------------------

    def direct(
        self, args: Sequence[object], site: Location, encoding: str, *, held: int = 0
    ) -> tuple[Command, Reading, list[Found]]:
        """Judge a command sent on its own from `site`; `held`: channels its pub/sub object already has,
        counted with those of a subscription."""
        command = self.command(args)
        reading = read_command(command.name, command.words, command.ops, encoding)
        if held and reading.batch is not None and command.name in SUBSCRIPTIONS:
            reading = replace(reading, batch=reading.batch + held)
        loop = self.loops.add(site, command.name)
        expiry = reading.expiry if command.name in TTL_IN_COMMAND or reading.expiry else EXPIRY_UNKNOWN
        found = self._judge(command, reading, site, expiry=expiry, loop=loop, pipelined=False, transaction=False)
        return command, reading, found

    def replied(self, command: Command, reading: Reading, reply: object, site: Location) -> list[Found]:
        """What the reply of a whole-collection read shows: how many elements came back (VAL002's limit)."""
        gate = self.judge.element_gate
        if not gate or not reading.keys:
            return []
        info = command_info(command.name)
        if info is None or info.reads is None or not isinstance(reply, (list, dict, set, tuple)):
            return []
        count = len(reply)
        if count < gate:
            return []
        key = reading.keys[0]
        verdict = self.judge.key(key, key, info.key_type)
        fact = KeyFact(key, NOWHERE, type=info.key_type, length=count)
        violations = self.judge.fact(fact, verdict)
        return [Found(violations, verdict.pattern, command.name, site)] if violations else []

    # -- a pipeline, as it is executed -----------------------------------------------------------------

    def pipeline(
        self, queued: Sequence[tuple[Sequence[object], Location]], site: Location, transaction: bool, encoding: str
    ) -> list[Found]:
        """Judge the commands of a pipeline (with the sites that queued them) and the pipeline itself."""
        commands = [(self.command(args), where) for args, where in queued]
        readings = [read_command(c.name, c.words, c.ops, encoding) for c, _where in commands]
        expired: dict[bytes, int] = {}  # key → the last position of an EXPIRE of it
        for index, reading in enumerate(readings):
            if reading.name in EXPIRES and reading.keys:
                expired[reading.keys[0]] = index
        found: list[Found] = []
        seen: set[bytes] = set()
        for index, ((command, where), reading) in enumerate(zip(commands, readings, strict=True)):
            expiry = reading.expiry
            expire_line = None
            if expiry is None and reading.keys:
                later = expired.get(reading.keys[0], -1)
                if later > index:
                    expiry, expire_line = EXPIRY_SAME_SCOPE, commands[later][1].line
            touched = bool(reading.keys) and reading.keys[0] in seen
            seen.update(reading.keys)
            found += self._judge(
                command,
                reading,
                where,
                expiry=expiry,
                loop=None,
                pipelined=True,
                transaction=transaction,
                expire_line=expire_line,
                touched=touched,
            )
        execute = CodeCall("execute", "", NOWHERE, queued=len(queued), pipelined=True, transaction=transaction)
        violations = self.judge.call(execute)
        if violations:
            found.append(Found(violations, None, "execute", site))
        return found

    # -- the judging itself ----------------------------------------------------------------------------

    def _judge(
        self,
        command: Command,
        reading: Reading,
        site: Location,
        *,
        expiry: str | None,
        loop: int | None,
        pipelined: bool,
        transaction: bool,
        expire_line: int | None = None,
        touched: bool = False,
    ) -> list[Found]:
        judge, name = self.judge, command.name
        found: list[Found] = []
        info = command_info(name)
        key_type = info.key_type if info is not None else None
        verdicts: list[NameVerdict] = []
        for key in reading.keys:
            verdict = judge.key(key, key, key_type)
            verdicts.append(verdict)
            if verdict.violations:
                found.append(Found(verdict.violations, verdict.pattern, name, site))
        if judge.judges_command(name):
            operands = tuple(to_bytes(op, "utf-8", "replace") for op in command.ops[:_COMMAND_ARGS])
            violations = judge.command(CommandFact(name, NOWHERE, EVIDENCE_RUNTIME, args=operands))
            if violations:
                found.append(Found(violations, None, name, site))
        constant = False
        if reading.ttl_ms is not None and verdicts and reading.name not in EXPIRES:
            constant = self.ttls.add(verdicts[0].pattern, reading.keys[0], reading.ttl_ms)
        if name in self.call_commands or loop is not None or constant:
            templates = tuple(dict.fromkeys(v.template for v in verdicts[:_CALL_KEYS]))
            call = CodeCall(
                name.partition("|")[0],
                name,
                NOWHERE,
                keys=templates,
                batch=reading.batch,
                given=reading.given,
                literals=reading.literals,
                expiry=expiry,
                expire_line=expire_line,
                touched_before=touched,
                constant_ttl=constant,
                loop_depth=1 if loop is not None or constant else 0,
                loop_iterations=loop,
                pipelined=pipelined,
                transaction=transaction,
            )
            violations = judge.call(call)
            if violations:
                found.append(Found(violations, verdicts[0].pattern if verdicts else None, name, site))
        if verdicts:
            found += self._values(command, reading, verdicts, site, key_type)
        return found

    def _values(
        self, command: Command, reading: Reading, verdicts: list[NameVerdict], site: Location, key_type: str | None
    ) -> list[Found]:
        """The values and elements written, and the TTL given, judged by the fact rules (past their limits)."""
        judge, gate = self.judge, self.judge.value_gate
        found: list[Found] = []
        facts: list[tuple[KeyFact, NameVerdict]] = []
        for index, value in reading.values:
            size = byte_length(value)
            if index < len(reading.keys) and ((gate and size >= gate) or reading.ttl_ms is not None):
                key = reading.keys[index]
                head = _head(value) if gate and size >= gate else None
                fact = KeyFact(key, NOWHERE, type="string", ttl_ms=reading.ttl_ms, length=size, head=head)
                facts.append((fact, judge.key(key, key, "string")))
        if not reading.values and reading.ttl_ms is not None and reading.name not in EXPIRES:
            key = reading.keys[0]
            facts.append((KeyFact(key, NOWHERE, type=key_type, ttl_ms=reading.ttl_ms), verdicts[0]))
        elif reading.name in EXPIRES and reading.ttl_ms is not None:
            key = reading.keys[0]
            facts.append((KeyFact(key, NOWHERE, ttl_ms=reading.ttl_ms), verdicts[0]))
        if reading.elements and gate:
            largest = max(byte_length(element) for element in reading.elements)
            if largest >= gate:
                key = reading.keys[0]
                facts.append((KeyFact(key, NOWHERE, type=key_type, largest_element=largest), verdicts[0]))
        for fact, verdict in facts:
            violations = judge.fact(fact, verdict)
            if violations:
                found.append(Found(violations, verdict.pattern, command.name, site))
        return found


def _head(value: object) -> bytes:
    """The first HEAD_BYTES bytes of a value, without encoding all of a big string."""
    if isinstance(value, str):
        return value[:HEAD_BYTES].encode("utf-8", "replace")[:HEAD_BYTES]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value[:HEAD_BYTES])
    return to_bytes(value, "utf-8", "replace")[:HEAD_BYTES]


def _listed_commands(judge: RuntimeJudge) -> frozenset[str]:
    """The commands the enabled rules' `commands` options name (TTL006's creating writes, BAT001's batches)."""
    listed: set[str] = set()
    for configured in judge.engine.rules:
        names = getattr(configured.options, "commands", ())
        if isinstance(names, (tuple, list, frozenset, set)):
            listed.update(str(name) for name in names)
    return frozenset(listed)
