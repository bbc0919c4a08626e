"""Typed per-rule options, validated when the convention file is loaded.

Each rule declares a frozen dataclass of options with `option(default, doc)`. Keys are kebab-case in TOML
(`warning-bytes`) and snake_case in Python (`warning_bytes`). An unknown key or a value of the wrong type is
an error naming the key and what is allowed: a convention file is a contract, not a suggestion.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class OptionError(ValueError):
    """A bad option key or value; the message names the key and the allowed values."""


def option(default: Any, doc: str, *, choices: tuple[str, ...] | None = None, minimum: float | None = None) -> Any:
    """Declare an option field: its default, its one-line documentation and its constraints."""
    metadata = {"doc": doc, "choices": choices, "minimum": minimum}
    if isinstance(default, (list, dict, set)):
        raise TypeError("use a tuple or a MappingProxyType default: options are immutable")
    if isinstance(default, Mapping):  # read-only mapping: shared safely through a factory
        return field(default_factory=lambda: default, metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class RuleOptions:
    """Base class of every rule's options; a rule with no options uses it as is."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str  # kebab-case, as written in the convention file
    attr: str
    type: Any
    default: Any
    doc: str
    choices: tuple[str, ...] | None
    minimum: float | None

    @property
    def type_name(self) -> str:
        return _type_name(self.type)


def to_kebab(attr: str) -> str:
    return attr.replace("_", "-")


def specs(options_cls: type[RuleOptions]) -> tuple[OptionSpec, ...]:
    hints = typing.get_type_hints(options_cls)
    return tuple(
        OptionSpec(
            name=to_kebab(f.name),
            attr=f.name,
            type=hints[f.name],
            default=_default(f),
            doc=f.metadata.get("doc", ""),
            choices=f.metadata.get("choices"),
            minimum=f.metadata.get("minimum"),
        )
        for f in dataclasses.fields(options_cls)
    )


def _default(f: dataclasses.Field[Any]) -> Any:
    """A field's default value, calling its factory when it has one."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    raise TypeError(f"option field {f.name!r} has no default")


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is tuple:
        return f"list of {_type_name(typing.get_args(tp)[0])}"
    if origin in (Mapping, dict):
        key, value = typing.get_args(tp)
        return f"table of {_type_name(key)} → {_type_name(value)}"
    if origin is typing.Union or str(origin) == "types.UnionType":
        return " or ".join(_type_name(a) for a in typing.get_args(tp) if a is not type(None))
    return {bool: "boolean", int: "integer", float: "number", str: "string"}.get(tp, str(tp))


def _coerce(spec: OptionSpec, tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin is typing.Union or str(origin) == "types.UnionType":
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _coerce(spec, args[0], value)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise OptionError(f"expected a list, got {value!r}")
        (item_type, *_rest) = typing.get_args(tp)
        return tuple(_coerce(spec, item_type, item) for item in value)
    if origin in (Mapping, dict):
        if not isinstance(value, Mapping):
            raise OptionError(f"expected a table, got {value!r}")
        key_type, value_type = typing.get_args(tp)
        return {_coerce(spec, key_type, k): _coerce(spec, value_type, v) for k, v in value.items()}
    if tp is bool:
        if not isinstance(value, bool):
            raise OptionError(f"expected true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"expected an integer, got {value!r}")
    elif tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise OptionError(f"expected a number, got {value!r}")
        value = float(value)
    elif tp is str:
        if not isinstance(value, str):
            raise OptionError(f"expected a string, got {value!r}")
        if spec.choices is not None and value not in spec.choices:
            raise OptionError(f"{value!r} is not allowed (allowed: {', '.join(spec.choices)})")
    if spec.minimum is not None and isinstance(value, (int, float)) and value < spec.minimum:
        raise OptionError(f"{value!r} is below the minimum {spec.minimum:g}")
    return value


def build(options_cls: type[RuleOptions], raw: Mapping[str, Any]) -> RuleOptions:
    """Validate `raw` (kebab-case keys) against the options class and return an instance.

    Raises OptionError naming the offending key; the caller adds the file and the rule.
    """
    by_name = {spec.name: spec for spec in specs(options_cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        spec = by_name.get(key)
        if spec is None:
            allowed = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option {key!r} (options: {allowed})")
        try:
            values[spec.attr] = _coerce(spec, spec.type, value)
        except OptionError as error:
            raise OptionError(f"option {key!r}: {error}") from None
    return options_cls(**values)
