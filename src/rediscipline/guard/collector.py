"""What one guard records, and how it answers a broken convention: warn, log, raise or stay silent.

A collector belongs to the clients guarded with it (and the pipelines and pub/sub objects they make). It
judges each command before it is sent (`guard.judging`), records every violation at the application's call
site in its own engine, applies the opt-in fixes, and reacts as its mode says:

- `warn`: a `ConventionWarning` once per rule, code, key pattern and call site;
- `log`: a record on the `rediscipline.guard` logger, with the finding's fields under `extra["rediscipline"]`;
- `raise`: a `ConventionViolation` before the command is sent, for a violation at or above `fail_on`
  (`error` by default), unless a fix makes the command follow the rule it broke;
- `record`: nothing but the record.

Every mode records; `report()` turns the record into the usual `Report`. Memory is bounded whatever the
traffic: memoised verdicts are capped, findings are one per rule and call site.
"""

from __future__ import annotations

import inspect
import logging
import threading
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rediscipline.api.driver import engine_spec
from rediscipline.engine.runtime import RuntimeJudge
from rediscipline.guard.errors import ConventionViolation, ConventionWarning
from rediscipline.guard.fixes import FIXED_RULES, FLUSH, Chunked, Fixes
from rediscipline.guard.hooks import GuardState, is_transaction
from rediscipline.guard.judging import Command, Found, Judging
from rediscipline.guard.recent import RECENT_LIMIT, RecentViolations
from rediscipline.model.location import SOURCE_RUNTIME, Location
from rediscipline.model.severity import Severity
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.runtime.argv import to_bytes
from rediscipline.sources.runtime.callsite import CallSites
from rediscipline.sources.runtime.reading import Reading

MODES = ("warn", "log", "raise", "record")
LOGGER = logging.getLogger("rediscipline.guard")
_LEVELS = {Severity.NOTE: logging.INFO, Severity.WARNING: logging.WARNING, Severity.ERROR: logging.ERROR}
#: Warnings already given, remembered up to this many (then a repeat may warn again).
_WARNED_LIMIT = 100_000


@dataclass(slots=True)
class Sending:
    """A command about to be sent: the arguments to send (fixed, maybe), how (a `Chunked` plan or at once),
    and whether its reply is read (a whole-collection read)."""

    args: tuple[object, ...]
    plan: Chunked | None
    watch: bool
    command: Command | None = None
    reading: Reading | None = None
    site: Location | None = None


@dataclass
class Fixed:
    """How often each fix was applied, and where first."""

    times: Counter[str] = field(default_factory=Counter)
    sites: dict[str, Location] = field(default_factory=dict)

    def add(self, name: str, site: Location) -> None:
        self.times[name] += 1
        self.sites.setdefault(name, site)


class Collector:
    """Judges, records and reacts for the clients guarded with it (see the module docstring)."""

    def __init__(
        self,
        settings: Settings,
        *,
        mode: str = "warn",
        fail_on: Severity | None = None,
        fixes: Fixes | None = None,
        registry: Registry | None = None,
        root: Path | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown guard mode {mode!r}: the modes are {', '.join(MODES)}")
        self.settings = settings
        self.registry = registry or default_registry()
        self.judge = RuntimeJudge(engine_spec(settings, {SOURCE_RUNTIME}, self.registry).engine(1))
        self.judging = Judging(self.judge)
        self.sites = CallSites(root or (Path(settings.root) if settings.root else None))
        self.mode = mode
        self.fail_on = fail_on or Severity.ERROR
        self.fixes = fixes or Fixes()
        self.fixed = Fixed()
        self.clients: dict[str, None] = {}
        self._sent = _Tally()
        #: What `keep_recent()` keeps (None: nothing is kept, nothing is exempt).
        self.recent: RecentViolations | None = None
        self._warned: set[tuple[str, str, bytes | None, str | None, int | None]] = set()
        self._lock = threading.Lock()

    # -- commands sent at once --------------------------------------------------------------------------

    def before(self, args: tuple[object, ...], state: GuardState) -> Sending | tuple[object, ...]:
        """Judge a command about to be sent; raise in `raise` mode; apply the fixes. Returns the arguments to
        send when that is all there is to do, else a `Sending`."""
        site = self.sites.here()
        command, reading, found = self.judging.direct(args, site, state.encoding)
        self._sent.add(1)
        fixes = self.fixes
        plan: Chunked | None = None
        applied: list[str] = []
        if fixes.any:
            start = len(args) - len(command.ops)
            plan = fixes.split(command.name, args, start)
            if plan is not None:
                applied.extend(plan.applied)
            else:
                args, applied = fixes.rewrite(command.name, args, start)
            for name in applied:
                self.fixed.add(name, site)
        if found:
            self.react(found, refusable=True, fixed=applied)
        if plan is None and (reading is None or not command.plan.reads or not self.judge.element_gate):
            return args  # sent as it is, its reply not read: no object made
        return Sending(args, plan, reading is not None and command.plan.reads, command, reading, site)

    def after(self, sending: Sending, reply: object) -> None:
        """Read a reply the rules can judge (how many elements a whole-collection read returned)."""
        if sending.command is None or sending.reading is None or sending.site is None:
            return
        found = self.judging.replied(sending.command, sending.reading, reply, sending.site)
        if found:
            self.react(found, refusable=False)

    # -- pipelines ---------------------------------------------------------------------------------------

    def queued(self, pipeline: Any, args: tuple[object, ...], state: GuardState) -> tuple[object, ...]:
        """A command queued on a pipeline: its site noted, the one-command fixes applied, and the pipeline
        sent early when the `flush` fix says it holds enough (never a transaction)."""
        site = self.sites.here()
        if self.fixes.ttl_jitter or self.fixes.unlink:
            command = self.judging.command(args)
            args, applied = self.fixes.rewrite(command.name, args, len(args) - len(command.ops))
            for name in applied:
                self.fixed.add(name, site)
        state.queued.append((args, site))
        return args

    def flush_due(self, pipeline: Any, state: GuardState) -> bool:
        limit = self.fixes.flush
        return bool(limit) and len(state.queued) >= limit and not is_transaction(pipeline)

    def flushing(self, state: GuardState) -> None:
        """The `flush` fix sends a pipeline early: counted at the site of the command that filled it."""
        self.fixed.add(FLUSH, state.queued[-1][1] if state.queued else self.sites.here())
        state.flushing = True

    def executing(self, pipeline: Any, state: GuardState) -> None:
        """A pipeline about to be sent: judge what it queued; in `raise` mode refuse it whole."""
        site = self.sites.here()
        queued = list(state.queued)
        state.queued.clear()
        self._sent.add(len(queued))
        transaction = is_transaction(pipeline)
        final, state.flushing = not state.flushing, False
        found = self.judging.pipeline(queued, site, transaction, state.encoding, state.open_writes, final=final)
        if found:
            try:
                self.react(found, refusable=True)
            except ConventionViolation:
                state.flushed.clear()
                _discard(pipeline)
                raise

    def executed(self, state: GuardState, replies: Any) -> Any:
        """The replies of a pipeline, after those of the parts the `flush` fix sent early."""
        if state.flushed:
            replies = [*state.flushed, *replies]
            state.flushed.clear()
        return replies

    def monitoring(self, state: GuardState) -> None:
        """`client.monitor()`: redis-py sends MONITOR on a connection of its own, below the seams."""
        self._alone(("MONITOR",), state.encoding, sent=True)

    def transaction_started(self, state: GuardState) -> None:
        """`pipe.multi()`: the MULTI goes out with the pipeline; the transaction is judged where it starts."""
        self._alone(("MULTI",), state.encoding, sent=False)

    # -- pub/sub -----------------------------------------------------------------------------------------

    def subscribing(self, pubsub: Any, args: tuple[object, ...], state: GuardState) -> None:
        """A (un)subscription: judged with the channels the object already holds (PUB002's limit)."""
        held = frozenset(
            to_bytes(name, state.encoding, "replace")
            for table in ("channels", "patterns", "shard_channels")
            for name in (getattr(pubsub, table, None) or {})
        )
        self._alone(args, state.encoding, sent=True, held=held)

    # -- reacting ----------------------------------------------------------------------------------------

    def react(self, found: list[Found], *, refusable: bool, fixed: list[str] | None = None) -> None:
        """Record what a command broke, then warn, log or raise as the mode says."""
        lang = self.settings.lang
        repaired = {FIXED_RULES[name] for name in fixed or ()}
        refuse: tuple[Found, Any] | None = None
        recent = self.recent
        for item in found:
            violations = item.violations if recent is None else recent.add(item)
            if not violations:
                continue
            self.judge.record(violations, item.site, item.pattern, item.command)
            for violation in violations:
                if self.mode == "warn":
                    self._warn(item, violation, lang)
                elif self.mode == "log":
                    _log(item, violation, lang)
                elif (
                    self.mode == "raise"
                    and refusable
                    and refuse is None
                    and violation.severity >= self.fail_on
                    and violation.rule_id not in repaired
                ):
                    refuse = (item, violation)
        if refuse is not None:
            item, violation = refuse
            message = violation.message.in_(lang)
            raise ConventionViolation(
                violation.rule_id, violation.code, violation.severity, message, command=item.command, location=item.site
            )

    def _warn(self, item: Found, violation: Any, lang: str) -> None:
        key = (violation.rule_id, violation.code, item.pattern, item.site.path, item.site.line)
        with self._lock:
            if key in self._warned:
                return
            if len(self._warned) >= _WARNED_LIMIT:
                self._warned.clear()
            self._warned.add(key)
        text = f"{violation.rule_id} {violation.message.in_(lang)}"
        warnings.warn_explicit(text, ConventionWarning, item.site.path or "<unknown>", item.site.line or 0)

    @property
    def commands(self) -> int:
        """How many commands the guard judged (sent at once, queued on pipelines, pub/sub)."""
        return self._sent.total()

    def keep_recent(self, limit: int = RECENT_LIMIT) -> RecentViolations:
        """Keep the last `limit` violations recorded from now on, numbered, and leave out of the record the
        rules set in the returned object's `exempt` (see `guard.recent`; the pytest plugin uses it to tell
        what each test broke). Calling it again returns the same object."""
        if self.recent is None:
            self.recent = RecentViolations(limit)
        return self.recent

    def note_client(self, described: str) -> None:
        self.clients.setdefault(described, None)

    def connected_to(self, db: int, encoding: str) -> None:
        """A client made for database `db`: redis-py sends SELECT on every connection, below the seams the
        guard wraps, so the SELECT is judged at the `guard()` call site."""
        self._alone(("SELECT", db), encoding, sent=False, refusable=False)

    def _alone(
        self,
        args: tuple[object, ...],
        encoding: str,
        *,
        sent: bool,
        refusable: bool = True,
        held: frozenset[bytes] = frozenset(),
    ) -> None:
        """Judge one command that passes no `execute_command` seam, at the application's call site; `sent`:
        it is sent now (counted among the commands judged); `held`: see `Judging.direct`."""
        _command, _reading, found = self.judging.direct(args, self.sites.here(), encoding, held=held)
        if sent:
            self._sent.add(1)
        if found:
            self.react(found, refusable=refusable)


class _Tally:
    """A count bumped by many threads at once without a lock: each thread bumps a cell of its own."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._cells: list[list[int]] = []
        self._lock = threading.Lock()

    def add(self, n: int) -> None:
        cell: list[int] | None = getattr(self._local, "cell", None)
        if cell is None:
            cell = self._local.cell = [0]
            with self._lock:
                self._cells.append(cell)
        cell[0] += n

    def total(self) -> int:
        with self._lock:
            return sum(cell[0] for cell in self._cells)


def _log(item: Found, violation: Any, lang: str) -> None:
    level = _LEVELS.get(violation.severity, logging.WARNING)
    if not LOGGER.isEnabledFor(level):
        return
    fields = {
        "rule": violation.rule_id,
        "code": violation.code,
        "severity": violation.severity.label,
        "command": item.command,
        "pattern": item.pattern.decode("utf-8", "backslashreplace") if item.pattern is not None else None,
        "path": item.site.path,
        "line": item.site.line,
        "function": item.site.context,
    }
    LOGGER.log(
        level,
        "%s:%s: %s %s",
        item.site.path,
        item.site.line,
        violation.rule_id,
        violation.message.in_(lang),
        extra={"rediscipline": fields},
    )


def _discard(pipeline: Any) -> None:
    """Empty a refused pipeline, so a second `execute()` cannot send what was refused."""
    reset = getattr(type(pipeline), "reset", None)
    if reset is not None and not inspect.iscoroutinefunction(reset):
        reset(pipeline)
        return
    for name in ("command_stack", "_command_queue"):  # an asyncio pipeline: its queue, as redis-py names it
        queue = getattr(pipeline, name, None)
        if isinstance(queue, list):
            queue.clear()
