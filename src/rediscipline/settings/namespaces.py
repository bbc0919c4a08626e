"""Declared namespaces (`[namespaces."session:*"]`): parse and validate their policy tables."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rediscipline.model.namespace import NamespacePolicy
from rediscipline.redis_meta.records import KEY_TYPES
from rediscipline.settings.errors import ConfigError

HASHTAG_POLICIES = ("required", "allowed", "forbidden")
_DURATION = re.compile(r"^\s*(\d+)\s*(ms|s|m|h|d|w)?\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}

#: kebab-case key → (field, kind, help)
_FIELDS: dict[str, tuple[str, str, str]] = {
    "description": ("description", "str", "free text shown in reports"),
    "type": ("type", "type", "the Redis type of every key here: " + ", ".join(KEY_TYPES)),
    "max-key-bytes": ("max_key_bytes", "int", "the longest key name allowed here, in bytes"),
    "read-by-mget": ("read_by_mget", "bool", "keys are read by MGETs of more than 100 keys"),
    "hashtag": ("hashtag", "hashtag", "required, allowed or forbidden"),
    "ttl-min": ("ttl_min_seconds", "duration", "shortest TTL, e.g. 60s, 10m"),
    "ttl-max": ("ttl_max_seconds", "duration", "longest TTL, e.g. 24h, 7d"),
    "ttl-required": ("ttl_required", "bool", "every key here must have a TTL"),
    "max-elements": ("max_elements", "int", "largest collection allowed here"),
    "ignore": ("ignore", "list", "rules that do not apply here (ids, slugs or families)"),
}


def options_set(policy: NamespacePolicy) -> tuple[str, ...]:
    """The options a namespace sets that some rule checks (kebab-case, as written in the file), in file order.

    `description` and `ignore` are not checked by any rule; `read-by-mget` counts when true, `ttl-required`
    when given either way (false exempts the namespace from TTL rules).
    """
    found: list[str] = []
    for key, (field_name, _kind, _help) in _FIELDS.items():
        if key in ("description", "ignore"):
            continue
        value = getattr(policy, field_name)
        if value is not None and (value is not False or key == "ttl-required"):
            found.append(key)
    return tuple(found)


def parse_duration(text: Any) -> int:
    """`90`, `90s`, `10m`, `24h`, `7d`, `2w` → seconds; ValueError otherwise."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    match = _DURATION.match(str(text))
    if match is None:
        raise ValueError(f"{text!r} is not a duration (examples: 90s, 10m, 24h, 7d)")
    value, unit = int(match.group(1)), match.group(2) or "s"
    return value // 1000 if unit == "ms" else value * _UNIT_SECONDS[unit]


def _convert(kind: str, value: Any) -> Any:
    if kind == "str" and isinstance(value, str):
        return value
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind == "type" and value in KEY_TYPES:
        return value
    if kind == "hashtag" and value in HASHTAG_POLICIES:
        return value
    if kind == "duration":
        return parse_duration(value)
    if kind == "list" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    allowed = {
        "type": ", ".join(KEY_TYPES),
        "hashtag": ", ".join(HASHTAG_POLICIES),
        "int": "a non-negative integer",
        "bool": "true or false",
        "list": "a list of rule selectors",
        "str": "a string",
    }.get(kind, kind)
    raise ValueError(f"{value!r} is not allowed (allowed: {allowed})")


def parse_namespace(pattern: str, table: Mapping[str, Any], where: str) -> NamespacePolicy:
    """Build a NamespacePolicy; `where` (file and table path) prefixes every error."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where}: expected a table of namespace settings")
    values: dict[str, Any] = {}
    for key, value in table.items():
        spec = _FIELDS.get(key)
        if spec is None:
            raise ConfigError(f"{where}: unknown key {key!r} (allowed: {', '.join(_FIELDS)})")
        field_name, kind, _help = spec
        try:
            values[field_name] = _convert(kind, value)
        except ValueError as error:
            raise ConfigError(f"{where}.{key}: {error}") from None
    return NamespacePolicy(pattern=pattern, **values)
