"""How a redis-py client method maps to a Redis command: where its keys and its options are.

The table itself (`commands.py`) is generated from the installed redis-py by `scripts/gen_command_table.py`
and checked in; a test regenerates it and fails when redis-py has moved on. Key positions come from the
type annotations redis-py puts on its parameters (`KeyT` a key, `KeysT` a list of keys, `*names: KeyT`
variadic keys, `Mapping[AnyKeyT, ...]` a mapping whose keys are keys), so the code source can turn the
argument at that position into a key template. The shape of the signature (required parameters,
keyword-only ones, `*args`, `**kwargs`) tells whether a call's arguments fit the method at all.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One client method: the command it sends and the parameters that carry keys or options."""

    command: str  # e.g. "SET", "CLIENT PAUSE"; iterators name the command they page with ("SCAN")
    params: tuple[str, ...] = ()  # positional parameters in order, after `self`
    keys: tuple[str, ...] = ()  # parameters holding one key
    key_lists: tuple[str, ...] = ()  # parameters holding a list (or mapping) of keys
    variadic_keys: str | None = None  # the `*args` parameter whose values are keys
    variadic_mixed: str | None = None  # `*args` holding keys then other arguments (EVAL's keys_and_args)
    options: tuple[str, ...] = ()  # parameters with a default: `ex`, `px`, `count`, `timeout`, `transaction`...
    keyword_only: tuple[str, ...] = ()  # parameters after `*`: passed by keyword only
    required: int = 0  # how many of `params` have no default
    var_positional: bool = False  # takes `*args`: any number of positional arguments beyond `params`
    var_keyword: bool = False  # takes `**kwargs`: any keyword
