"""What a MONITOR sample gives the rules: hot keys for the traffic rules, and calls as sent for the call rules.

The sample (`monitor_tally`) keeps shapes, not calls: per multi-key command its largest call, per client its
largest MULTI block, per key pattern its writes without an expiry and its longest burst of one TTL, per
blocking command the calls that wait for ever. Each shape becomes one `CodeCall` as the runtime guard builds
them from a command it saw sent (`at_run_time`), so BAT001, BAT003, TTL006, TTL007 and PUB001 judge what the
server was really sent with the checks they run on code and at run time, once per shape rather than once per
call. Each call's location is the server with the shape as its context (`MGET user:*`), which tells the
findings apart and keeps their fingerprints stable from one observation to the next; the clients that sent
each shape are in the report's traffic section.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from rediscipline.model.code import EXPIRY_OPTION, EXPIRY_UNKNOWN, CodeCall, Literal
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import Location
from rediscipline.model.monitor import MonitorSample, TtlShape
from rediscipline.model.traffic import SOURCE_MONITOR, HotKey
from rediscipline.sources.runtime.stream import TTL_REPEATS
from rediscipline.sources.traffic.monitor_tally import TTL_ARGUMENT

#: The redis-py parameter that carries each command's TTL (the rules' messages name it).
_TTL_PARAMETER = {
    "expire": "time",
    "setex": "time",
    "pexpire": "time",
    "psetex": "time_ms",
    "expireat": "when",
    "pexpireat": "when",
}


def monitor_hot_keys(sample: MonitorSample) -> tuple[HotKey, ...]:
    """The sample's hottest keys by operations, as rates over the span the sample covers, hottest first."""
    seconds = sample.span if sample.span > 0 else sample.seconds
    if seconds <= 0:
        return ()
    bytes_of = {(hot.db, hot.key): hot.count for hot in sample.hot_by_bytes}
    found = []
    for hot in sample.hot_by_ops:
        sent = bytes_of.get((hot.db, hot.key))
        found.append(
            HotKey(
                hot.db,
                hot.key,
                round(hot.count / seconds, 1),
                SOURCE_MONITOR,
                ops_error=round(hot.error / seconds, 1),
                bytes_per_second=None if sent is None else round(sent / seconds, 1),
            )
        )
    return tuple(found)


def monitor_calls(sample: MonitorSample, origin: Location) -> Iterator[CodeCall]:
    """One call as sent per shape of the sample the call rules judge (see the module docstring); `origin` is
    the server's location."""
    for arity in sample.arity:
        key = _template(arity.largest_key)
        yield CodeCall(
            arity.command,
            arity.command,
            _at(origin, arity.command, key),
            keys=(key,),
            batch=arity.max_keys,
            unpacked=True,  # only the number of keys is kept: no rule may judge an argument as missing
            expiry=EXPIRY_UNKNOWN,
        )
    for block in sample.transactions:
        at = replace(origin, context=f"MULTI {block.client}")
        yield CodeCall("execute", "", at, pipelined=True, transaction=True, queued=block.max_commands)
    for writes in sample.writes_without_ttl:
        command, key = writes.example_command, _template(writes.example)
        yield CodeCall(command, command, _at(origin, command, key), keys=(key,))
    for shape in sample.ttls:
        call = _burst(shape, origin)
        if call is not None:
            yield call
    for blocking in sample.blocking:
        if blocking.forever:
            parameter = "block" if blocking.command in ("xread", "xreadgroup") else "timeout"
            key = _template(blocking.key)
            yield CodeCall(
                blocking.command,
                blocking.command,
                _at(origin, blocking.command, key),
                keys=(key,),
                given=frozenset({parameter}),
                literals=((parameter, 0),),
            )


def _burst(shape: TtlShape, origin: Location) -> CodeCall | None:
    """The call that gave one TTL to many keys of a pattern in a burst as long as the runtime guard reports
    (TTL_REPEATS keys), or None (TTL007 reads `constant_ttl`)."""
    command = shape.burst_command
    if shape.burst < TTL_REPEATS or not command:
        return None
    if command in ("set", "getex"):
        parameter, value = ("exat" if shape.burst_absolute else "ex"), shape.burst_ttl_ms // 1000
    else:
        parameter, (_index, ms_per_unit, _absolute) = _TTL_PARAMETER[command], TTL_ARGUMENT[command]
        value = shape.burst_ttl_ms // ms_per_unit
    literal: Literal = value
    key = _template(shape.example)
    return CodeCall(
        command,
        command,
        _at(origin, command, key),
        keys=(key,),
        given=frozenset({parameter}),
        literals=((parameter, literal),),
        expiry=EXPIRY_OPTION,
        constant_ttl=True,
        loop_depth=1,
        loop_iterations=shape.burst,
    )


def _at(origin: Location, command: str, key: KeyTemplate) -> Location:
    """The server's location with the shape as its context: `MGET user:profile:*`."""
    return replace(origin, context=f"{command.upper()} {key.pattern.decode('utf-8', 'backslashreplace')}")


def _template(key: bytes) -> KeyTemplate:
    """A key as its pattern (`user:*:profile`): the call stands for every call of its shape."""
    return KeyTemplate(infer_parts(key))
