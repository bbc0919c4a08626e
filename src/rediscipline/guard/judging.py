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
from rediscipline.rules.ttl.code_ttls import TTL_PARAMETERS
from rediscipline.sources.runtime.argv import byte_length, command_name, to_bytes
from rediscipline.sources.runtime.reading import ONE_KEY, READERS, Reading, read_command
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
#: Options whose value is a TTL (redis-py's names): `rules.ttl.code_ttls.TTL_PARAMETERS`.
_TTL_VALUES = frozenset(TTL_PARAMETERS)
#: Cursor reads: each call needs the cursor the last one returned, so many of them are not a loop to pipeline.
CURSORS = frozenset({"scan", "hscan", "sscan", "zscan"})
#: The first bytes of values serialized by pickle or Java, which VAL006 reports whatever their size.
_SERIALIZED_MAGIC = (b"\x80", b"\xac\xed")
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
class Plan:
    """What is known of a command from its name alone, worked out once per name: how it is named, the type
    of its keys, and which kinds of rule can judge it."""

    name: str
    start: int  # the index of its first operand in the command line
    words: tuple[bytes, ...]  # the name as Redis reads it
    key_type: str | None
    reads: bool  # a whole-collection or range read: its reply is counted
    judged: bool  # some command rule judges it
    called: bool  # some call rule reads its calls (sizes, options, TTLs)
    ttl_in_command: bool  # a write that can carry its TTL itself
    expires: bool  # it gives an existing key a TTL
    plain: bool  # one key, its first operand, and only the naming rules judge it (GET, HGET, INCR, ...)


@dataclass(frozen=True, slots=True)
class Command:
    """A command line: its plan and its operands."""

    plan: Plan
    ops: Sequence[object]

    @property
    def name(self) -> str:
        return self.plan.name

    @property
    def words(self) -> tuple[bytes, ...]:
        return self.plan.words


@dataclass(frozen=True, slots=True)
class OpenWrite:
    """A write of a pipeline part sent early, waiting for an EXPIRE of its key in a later part."""

    command: Command
    reading: Reading
    site: Location
    touched: bool


class Judging:
    """Reads commands and judges them with `judge`; `call_commands` are the commands whose calls a call rule
    reads (sizes, options, TTLs), the rest need no call fact unless a loop or a pipeline is involved."""

    def __init__(self, judge: RuntimeJudge) -> None:
        self.judge = judge
        self.ttls = TtlRuns()
        self.loops = LoopRuns()
        #: runs are followed only for the rules that read them (BAT002: a loop; TTL007: a constant TTL)
        self.follow_loops, self.follow_ttls = "BAT002" in judge.enabled, "TTL007" in judge.enabled
        self.call_commands = frozenset(READERS) | _listed_commands(judge)
        self._plans: dict[object, Plan] = {}

    # -- reading ----------------------------------------------------------------------------------------

    def command(self, args: Sequence[object]) -> Command:
        """Name a command line; the plans of names that are not container commands are memoised by `args[0]`."""
        head = args[0] if args else ""
        plan = self._plans.get(head) if isinstance(head, (str, bytes)) else None
        if plan is None:
            plan = self._plan(args)
            memoised = plan.start == 1 and plan.name not in CONTAINERS and len(self._plans) < _NAMES_LIMIT
            if memoised and isinstance(head, (str, bytes)):
                self._plans[head] = plan
        return Command(plan, args[plan.start :])

    def _plan(self, args: Sequence[object]) -> Plan:
        name, start = command_name(args)
        words = tuple(to_bytes(word, "utf-8", "replace") for word in args[:start])
        if start == 1:
            words = tuple(words[0].split()) if words else ()
        info = command_info(name)
        reads = info is not None and info.reads is not None
        judged, called = self.judge.judges_command(name), name in self.call_commands
        return Plan(
            name,
            start,
            words,
            info.key_type if info is not None else None,
            reads,
            judged,
            called,
            name in TTL_IN_COMMAND,
            name in EXPIRES,
            name in ONE_KEY and name not in READERS and not judged and not called and not reads,
        )

    def _clean_key(self, command: Command, encoding: str) -> bytes | None:
        """The key of a plain command (one key, judged by the naming rules alone) when its name breaks
        nothing: then nothing else of the command is read. None otherwise."""
        if not command.plan.plain or not command.ops:
            return None
        key = to_bytes(command.ops[0], encoding, "replace")
        return None if self.judge.key(key, command.plan.key_type).violations else key

    # -- one command sent at once ---------------------------------------------------------------------

    def direct(
        self, args: Sequence[object], site: Location, encoding: str, *, held: frozenset[bytes] = frozenset()
    ) -> tuple[Command, Reading | None, list[Found]]:
        """Judge a command sent on its own from `site`; `held`: the channels and patterns its pub/sub object
        already has, counted with those of a subscription (once each: redis-py subscribes them again after a
        reconnection). A plain command of a key whose name breaks nothing, sent
        outside a loop, costs a plan lookup, a loop count and a name lookup (no reading is made: None)."""
        command = self.command(args)
        plan = command.plan
        loop = self.loops.add(site, plan.name) if self.follow_loops and plan.name not in CURSORS else None
        if loop is None and self._clean_key(command, encoding) is not None:
            return command, None, []
        reading = read_command(command.name, command.words, command.ops, encoding)
        if held and reading.batch is not None and command.name in SUBSCRIPTIONS:
            named = {to_bytes(op, encoding, "replace") for op in command.ops}
            reading = replace(reading, batch=len(held | named))
        expiry = reading.expiry if command.plan.ttl_in_command or reading.expiry else EXPIRY_UNKNOWN
        found = self._judge(command, reading, site, expiry=expiry, loop=loop, pipelined=False, transaction=False)
        return command, reading, found

    def replied(self, command: Command, reading: Reading, reply: object, site: Location) -> list[Found]:
        """What the reply of a whole-collection read shows: how many elements came back (VAL002's limit)."""
        gate = self.judge.element_gate
        if not gate or len(reading.keys) != 1 or not command.plan.reads:
            return []  # a read of several keys (SUNION) says nothing of one key's size
        if not isinstance(reply, (list, dict, set, tuple)) or len(reply) < gate:
            return []
        key, key_type = reading.keys[0], command.plan.key_type
        verdict = self.judge.key(key, key_type)
        fact = KeyFact(key, NOWHERE, type=key_type, length=len(reply))
        violations = self.judge.fact(fact, verdict)
        return [Found(violations, verdict.pattern, command.name, site)] if violations else []

    # -- a pipeline, as it is executed -----------------------------------------------------------------

    def pipeline(
        self,
        queued: Sequence[tuple[Sequence[object], Location]],
        site: Location,
        transaction: bool,
        encoding: str,
        open_writes: dict[bytes, OpenWrite] | None = None,
        *,
        final: bool = True,
    ) -> list[Found]:
        """Judge the commands of a pipeline (with the sites that queued them) and the pipeline itself. A plain
        command whose key breaks nothing is not read further (its key only counts as used).

        A pipeline the `flush` fix sends in parts is judged a part at a time (`final` is False for the parts
        sent early): a write of an early part with no EXPIRE of its key in that part is judged without its
        TTL and kept in `open_writes`; an EXPIRE in a later part closes it, and the final part judges what
        is still open for the missing TTL alone."""
        open_writes = open_writes if open_writes is not None else {}
        commands = [(self.command(args), where) for args, where in queued]
        readings: list[Reading | bytes] = []
        expired: dict[bytes, int] = {}  # key → the last position of an EXPIRE of it
        for index, (command, _where) in enumerate(commands):
            plan = command.plan
            key = self._clean_key(command, encoding)
            if key is not None:
                readings.append(key)
                continue
            reading = read_command(plan.name, plan.words, command.ops, encoding)
            readings.append(reading)
            if plan.expires and reading.keys:
                expired[reading.keys[0]] = index
                open_writes.pop(reading.keys[0], None)
        found: list[Found] = []
        seen: set[bytes] = set()
        for index, ((command, where), entry) in enumerate(zip(commands, readings, strict=True)):
            if isinstance(entry, bytes):
                seen.add(entry)
                continue
            reading = entry
            expiry = reading.expiry
            expire_line = None
            if expiry is None and reading.keys:
                later = expired.get(reading.keys[0], -1)
                if later > index:
                    expiry, expire_line = EXPIRY_SAME_SCOPE, commands[later][1].line
            touched = bool(reading.keys) and reading.keys[0] in seen
            seen.update(reading.keys)
            if expiry is None and not final and reading.keys and command.plan.called:
                open_writes[reading.keys[0]] = OpenWrite(command, reading, where, touched)
                expiry = EXPIRY_UNKNOWN  # a later part may hold its EXPIRE
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
        if final:
            found += self._still_open(open_writes)
        execute = CodeCall("execute", "", NOWHERE, queued=len(queued), pipelined=True, transaction=transaction)
        violations = self.judge.memoised_call(execute) or self.judge.call(execute, execute)
        if violations:
            found.append(Found(violations, None, "execute", site))
        return found

    def _still_open(self, open_writes: dict[bytes, OpenWrite]) -> list[Found]:
        """The writes of earlier parts no EXPIRE closed: what judging them without a TTL adds to what they
        were judged with. (Only a pipeline that is not a transaction is sent in parts.)"""
        found: list[Found] = []
        for write in open_writes.values():
            verdicts = [self.judge.key(key, write.command.plan.key_type) for key in write.reading.keys]
            command, reading, touched = write.command, write.reading, write.touched
            judged = self._call(command, reading, verdicts, EXPIRY_UNKNOWN, None, touched, False, None, True, False)
            unpaired = self._call(command, reading, verdicts, None, None, touched, False, None, True, False)
            already = {(v.rule_id, v.code) for v in judged}
            missing = tuple(v for v in unpaired if (v.rule_id, v.code) not in already)
            if missing:
                found.append(Found(missing, verdicts[0].pattern, write.command.name, write.site))
        open_writes.clear()
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
        judge, plan = self.judge, command.plan
        name, key_type = plan.name, plan.key_type
        found: list[Found] = []
        verdicts: list[NameVerdict] = []
        for key in reading.keys:
            verdict = judge.key(key, key_type)
            verdicts.append(verdict)
            if verdict.violations:
                found.append(Found(verdict.violations, verdict.pattern, name, site))
        if plan.judged:
            operands = tuple(to_bytes(op, "utf-8", "replace") for op in command.ops[:_COMMAND_ARGS])
            violations = judge.command(CommandFact(name, NOWHERE, EVIDENCE_RUNTIME, args=operands))
            if violations:
                found.append(Found(violations, None, name, site))
        constant = False
        if self.follow_ttls and reading.ttl_ms is not None and verdicts:
            constant = self.ttls.add(verdicts[0].pattern, reading.keys[0], reading.ttl_ms) >= self.ttls.repeats
        if plan.called or loop is not None or constant:
            violations = self._call(
                command, reading, verdicts, expiry, expire_line, touched, constant, loop, pipelined, transaction
            )
            if violations:
                found.append(Found(violations, verdicts[0].pattern if verdicts else None, name, site))
        if verdicts and (reading.values or reading.elements or reading.ttl_ms is not None):
            found += self._values(command, reading, verdicts, site)
        return found

    def _call(  # noqa: PLR0917 - every field of the call the rules read
        self,
        command: Command,
        reading: Reading,
        verdicts: list[NameVerdict],
        expiry: str | None,
        expire_line: int | None,
        touched: bool,
        constant: bool,
        loop: int | None,
        pipelined: bool,
        transaction: bool,
    ) -> Violations:
        """The call rules' verdicts, memoised by what of the call they read."""
        name, literals = command.plan.name, reading.literals
        if literals and reading.ttl_ms is not None and not constant:
            # A TTL's value only shows in the message of a constant TTL: left out of the memo otherwise.
            literals = tuple([item for item in literals if item[0] not in _TTL_VALUES])
        patterns = (
            (verdicts[0].pattern,)
            if len(verdicts) == 1
            else tuple(dict.fromkeys(v.pattern for v in verdicts[:_CALL_KEYS]))
        )
        memo_key = (
            name, reading.batch, reading.given, literals, expiry, expire_line, touched, constant, loop, pipelined,
            transaction, patterns,
        )  # fmt: skip
        found = self.judge.memoised_call(memo_key)
        if found is not None:
            return found
        call = CodeCall(
            name.partition("|")[0],
            name,
            NOWHERE,
            keys=tuple(dict.fromkeys(v.template for v in verdicts[:_CALL_KEYS])),
            batch=reading.batch,
            given=reading.given,
            literals=literals,
            expiry=expiry,
            expire_line=expire_line,
            touched_before=touched,
            constant_ttl=constant,
            loop_depth=1 if loop is not None or constant else 0,
            loop_iterations=loop,
            pipelined=pipelined,
            transaction=transaction,
        )
        return self.judge.call(memo_key, call)

    def _values(self, command: Command, reading: Reading, verdicts: list[NameVerdict], site: Location) -> list[Found]:
        """The values and elements written, and the TTL given, judged by the fact rules: only past the smallest
        limit an enabled rule reports from (`RuntimeJudge.value_gate`, `ttl_gate_ms`)."""
        judge, gate, key_type = self.judge, self.judge.value_gate, command.plan.key_type
        ttl = reading.ttl_ms
        if ttl is not None and not judge.ttl_always and not (judge.ttl_gate_ms and ttl > judge.ttl_gate_ms):
            ttl = None
        found: list[Found] = []
        facts: list[tuple[KeyFact, NameVerdict]] = []
        for index, value in reading.values:
            size = byte_length(value) if gate else 0
            big = bool(gate) and size >= gate
            serialized = judge.serialized and isinstance(value, bytes) and value.startswith(_SERIALIZED_MAGIC)
            if index < len(reading.keys) and (big or serialized or ttl is not None):
                key = reading.keys[index]
                size = size or byte_length(value)
                head = _head(value) if big or serialized else None
                fact = KeyFact(key, NOWHERE, type="string", ttl_ms=ttl, length=size or None, head=head)
                facts.append((fact, judge.key(key, "string")))
        if not reading.values and ttl is not None:
            facts.append((KeyFact(reading.keys[0], NOWHERE, type=key_type, ttl_ms=ttl), verdicts[0]))
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
