"""The seams every redis-py command passes through, wrapped on one client object.

Every command method of redis-py (and of its forks) ends in `self.execute_command(*args, **options)`; a
pipeline queues there and sends in `execute()`; a pub/sub object sends its (un)subscriptions through its own
`execute_command`. The guard sets a wrapper of each as an attribute of the instance, so the class and other
clients are untouched and `unguard` only deletes the attributes. A wrapper is a coroutine function where the
method it wraps is one (redis-py's asyncio clients), so one set of wrappers serves both flavours; a pipeline
and a pub/sub object a guarded client makes are guarded too, with its collector.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from rediscipline.model.location import Location

if TYPE_CHECKING:
    from rediscipline.guard.collector import Collector, Sending

#: The instance attribute that holds a guarded object's state (and says it is guarded).
STATE = "_rediscipline_guard"
CLIENT, PIPELINE, PUBSUB = "client", "pipeline", "pubsub"


@dataclass
class GuardState:
    """What the guard keeps on one object: its collector, what it replaced, the commands a pipeline queued
    (with the sites that queued them), and of a pipeline the `flush` fix sends in parts, the replies and the
    writes of the parts sent."""

    collector: Collector
    kind: str
    encoding: str
    replaced: list[str] = field(default_factory=list)
    queued: list[tuple[tuple[object, ...], Location]] = field(default_factory=list)
    flushed: list[object] = field(default_factory=list)
    #: writes a part sent early by the `flush` fix left without an EXPIRE of their key, by key: a later
    #: part may still hold one (`guard.judging.OpenWrite`); judged when the pipeline is executed
    open_writes: dict[bytes, Any] = field(default_factory=dict)
    flushing: bool = False  # the part being sent is one the `flush` fix sends early


def install(target: Any, state: GuardState) -> None:
    """Wrap `target`'s seams for its kind (client, pipeline or pub/sub object)."""
    setattr(target, STATE, state)
    wrappers: dict[str, Callable[[Any, GuardState, Callable[..., Any]], Callable[..., Any]]]
    if state.kind == PIPELINE:
        wrappers = {"execute_command": _queue, "execute": _execute, "reset": _reset, "multi": _multi}
    elif state.kind == PUBSUB:
        wrappers = {"execute_command": _subscription}
    else:
        wrappers = {
            "execute_command": _command,
            "pipeline": _made(PIPELINE),
            "pubsub": _made(PUBSUB),
            "monitor": _monitor,
        }
    for name, wrap in wrappers.items():
        original = getattr(target, name, None)
        if original is None:
            continue
        setattr(target, name, wrap(target, state, original))
        state.replaced.append(name)


def remove(target: Any) -> None:
    """Undo `install`: the class's methods show through again."""
    state: GuardState | None = target.__dict__.get(STATE)
    if state is None:
        return
    for name in state.replaced:
        target.__dict__.pop(name, None)
    del target.__dict__[STATE]


def _command(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
    """A command sent at once: judged (and maybe refused or fixed) before it is sent, its reply read after."""
    collector = state.collector
    before, after = collector.before, collector.after
    if inspect.iscoroutinefunction(original):

        async def execute_command_async(*args: Any, **options: Any) -> Any:
            sending = before(args, state)
            if sending.__class__ is tuple:
                return await original(*sending, **options)
            sending = cast("Sending", sending)
            if sending.plan is None:
                reply = await original(*sending.args, **options)
            else:
                reply = await sending.plan.run_async(original, options)
            if sending.watch:
                after(sending, reply)
            return reply

        return execute_command_async

    def execute_command(*args: Any, **options: Any) -> Any:
        sending = before(args, state)
        if sending.__class__ is tuple:
            return original(*sending, **options)
        sending = cast("Sending", sending)
        reply = original(*sending.args, **options) if sending.plan is None else sending.plan.run(original, options)
        if sending.watch:
            after(sending, reply)
        return reply

    return execute_command


def _queue(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
    """A command queued on a pipeline: its call site is noted, it is judged when the pipeline is executed.
    A pipeline that WATCHes sends at once (redis-py's immediate mode): those commands are judged as sent.
    The `flush` fix sends a pipeline that is not a transaction (`transaction=False`, no `multi()`) once it
    holds enough, keeping the replies (errors included) for the `execute()` that sends the rest."""
    collector = state.collector
    if inspect.iscoroutinefunction(getattr(target, "execute", None)):

        async def send_now(*args: Any, **options: Any) -> Any:
            return await original(*args, **options)  # an asyncio pipeline's immediate mode returns a coroutine

        immediate = _command(target, state, send_now)
    else:
        immediate = _command(target, state, original)

    def execute_command(*args: Any, **options: Any) -> Any:
        if (getattr(target, "watching", False) or args[:1] == ("WATCH",)) and not getattr(
            target, "explicit_transaction", False
        ):
            return immediate(*args, **options)
        args = collector.queued(target, args, state)
        queued = original(*args, **options)
        if (
            collector.flush_due(target, state)
            and not is_transaction(target)
            and not inspect.iscoroutinefunction(target.execute)
        ):
            collector.flushing(state)
            state.flushed.extend(target.execute(raise_on_error=False))  # errors are raised by execute()
        return queued

    return execute_command


def is_transaction(pipeline: Any) -> bool:
    """Whether a pipeline is sent as MULTI/EXEC: made with `transaction=True`, or `multi()` called on it
    (redis-py's `Pipeline`), or a cluster pipeline whose execution strategy is a transaction. A cluster
    pipeline has no `transaction` flag: the name is its client class's `transaction()` method there."""
    if getattr(pipeline, "transaction", False) is True or getattr(pipeline, "explicit_transaction", False) is True:
        return True
    strategy = getattr(pipeline, "_execution_strategy", None)
    return strategy is not None and type(strategy).__name__ == "TransactionStrategy"


def _execute(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
    """A pipeline sent: every queued command and the pipeline itself judged first."""
    collector = state.collector
    if inspect.iscoroutinefunction(original):

        async def execute_async(*args: Any, **options: Any) -> Any:
            collector.executing(target, state)
            replies = await original(*args, **options)
            return collector.executed(state, replies)

        return execute_async

    def execute(*args: Any, **options: Any) -> Any:
        collector.executing(target, state)
        if not state.flushed:
            return collector.executed(state, original(*args, **options))
        raise_on_error = options.pop("raise_on_error", args[0] if args else True)
        earlier = list(state.flushed)  # redis-py's execute() ends in reset(), which empties state.flushed
        replies = original(*args[1:], raise_on_error=False, **options)
        state.flushed[:] = earlier
        replies = collector.executed(state, replies)
        if raise_on_error:
            _raise_first_error(replies)
        return replies

    return execute


def _raise_first_error(replies: list[Any]) -> None:
    """Raise the first error among a pipeline's replies, as redis-py's `execute()` does by default (numbered
    by its place in the whole pipeline)."""
    for number, reply in enumerate(replies, start=1):
        if isinstance(reply, Exception):
            if reply.args and isinstance(reply.args[0], str):
                reply.args = (f"Command # {number} of pipeline caused error: {reply.args[0]}", *reply.args[1:])
            raise reply


def _reset(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
    def reset(*args: Any, **options: Any) -> Any:
        state.queued.clear()
        state.flushed.clear()
        return original(*args, **options)

    if inspect.iscoroutinefunction(original):

        async def reset_async(*args: Any, **options: Any) -> Any:
            state.queued.clear()
            state.flushed.clear()
            return await original(*args, **options)

        return reset_async
    return reset


def _multi(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
    """`pipe.multi()` starts a transaction the application asked for: judged as a MULTI sent from there."""
    collector = state.collector

    def multi(*args: Any, **options: Any) -> Any:
        collector.transaction_started(state)
        return original(*args, **options)

    return multi


def _monitor(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
    """`client.monitor()`: judged (and refused in `raise` mode) before redis-py opens its connection."""
    collector = state.collector

    def monitor(*args: Any, **options: Any) -> Any:
        collector.monitoring(state)
        return original(*args, **options)

    return monitor


def _subscription(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
    """A pub/sub command: its channels count with those the object already holds (PUB002)."""
    collector = state.collector
    if inspect.iscoroutinefunction(original):

        async def execute_command_async(*args: Any) -> Any:
            collector.subscribing(target, args, state)
            return await original(*args)

        return execute_command_async

    def execute_command(*args: Any) -> Any:
        collector.subscribing(target, args, state)
        return original(*args)

    return execute_command


def _made(kind: str) -> Callable[[Any, GuardState, Callable[..., Any]], Callable[..., Any]]:
    """`client.pipeline()` and `client.pubsub()`: what they make is guarded with the client's collector."""

    def wrap(target: Any, state: GuardState, original: Callable[..., Any]) -> Callable[..., Any]:
        def make(*args: Any, **options: Any) -> Any:
            made = original(*args, **options)
            if STATE not in getattr(made, "__dict__", {}):
                install(made, GuardState(state.collector, kind, state.encoding))
            return made

        return make

    return wrap
