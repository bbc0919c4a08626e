"""The fleet inventory: the servers and dumps one fleet run audits, each with a name, tags and its own options.

```toml
[defaults]                       # optional: options and tags every target starts from (the target's win)
user = "audit"
password-env = "REDIS_AUDIT_PASSWORD"
tags = { env = "prod" }

[[target]]
name = "orders-cache"            # required, unique
url = "rediss://orders.internal:6379/0"
tags = { team = "orders" }

[[target]]
name = "orders-backup"
dump = ["/backups/orders/"]      # files or folders of *.rdb; relative paths are relative to this file
deep = true
```

Every error is one line that names the file, the entry (`[[target]] #3 "orders-cache"` or `[defaults]`) and
the key, raised as `ConfigError` (exit 2). Credentials never appear in the file: a password written in a URL
is refused, and `password-env` names an environment variable that must be set when the inventory is read (its
value is not read here, and never kept). A default applies to the targets of the kinds that take it: a live
server's options to the `url` targets, a dump's to the `dump` targets, `db`, `match` and `type` to both. The
options take the values the `scan` command's options take.
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from rediscipline.redis_meta.records import KEY_TYPES
from rediscipline.settings.errors import ConfigError
from rediscipline.settings.toml import load_toml_file
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_addresses import map_entry
from rediscipline.sources.live.credentials import take_credentials
from rediscipline.sources.live.defaults import MAX_BATCH, MIN_BATCH
from rediscipline.sources.live.url import parse_address

LIVE = "live"
DUMP = "dump"
MAX_NAME_LENGTH = 100
ALLOCATORS = ("jemalloc", "jemalloc16", "libc")
PREFER = ("masters", "replicas")
_BOTH = frozenset((LIVE, DUMP))


class _Invalid(Exception):
    """A value that does not fit its option; the message says what was expected."""


@dataclass(frozen=True)
class InventoryTarget:
    """One target: a live server (`url`) or dump files (`paths`, absolute). `options` are the given options
    (the target's own over the defaults), named as in Python (`max_ops`), in the order of `OPTIONS`."""

    name: str
    kind: str  # LIVE or DUMP
    url: str | None
    paths: tuple[str, ...]
    tags: tuple[tuple[str, str], ...]
    options: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Inventory:
    path: str
    targets: tuple[InventoryTarget, ...]


def _string(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise _Invalid(f"expected a non-empty string, got {value!r}")
    return value


def _integer(low: int, high: int | None = None) -> Callable[[object], int]:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            wanted = f"an integer ≥ {low}" if high is None else f"an integer from {low} to {high}"
            raise _Invalid(f"expected {wanted}, got {value!r}")
        return value

    return check


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0.5:
        raise _Invalid(f"expected a number of seconds ≥ 0.5, got {value!r}")
    return float(value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Invalid(f"expected true or false, got {value!r}")
    return value


def _choice(allowed: tuple[str, ...]) -> Callable[[object], str]:
    def check(value: object) -> str:
        if value not in allowed:
            raise _Invalid(f"{value!r} is not allowed (allowed: {', '.join(allowed)})")
        return str(value)

    return check


def _address_map(value: object) -> tuple[str, ...]:
    """`["10.0.0.5:7000=127.0.0.1:17000", ...]`: cluster node addresses as announced = as reachable from here."""
    if not isinstance(value, list) or not value:
        raise _Invalid(f'expected a list of "host:port=host:port", got {value!r}')
    for item in value:
        if not isinstance(item, str) or map_entry(item) is None:
            raise _Invalid(f'expected "host:port=host:port", got {item!r}')
    return tuple(value)


#: Every target option as written in the file: which kinds of target take it, and its check.
OPTIONS: dict[str, tuple[frozenset[str], Callable[[object], object]]] = {
    "user": (frozenset((LIVE,)), _string),
    "password-env": (frozenset((LIVE,)), _string),
    "db": (_BOTH, _integer(0)),
    "match": (_BOTH, _string),
    "type": (_BOTH, _choice(KEY_TYPES)),
    "sample": (frozenset((LIVE,)), _integer(1)),
    "max-ops": (frozenset((LIVE,)), _integer(100)),
    "batch": (frozenset((LIVE,)), _integer(MIN_BATCH, MAX_BATCH)),
    "timeout": (frozenset((LIVE,)), _seconds),
    "prefer": (frozenset((LIVE,)), _choice(PREFER)),
    "cluster": (frozenset((LIVE,)), _flag),
    "map": (frozenset((LIVE,)), _address_map),
    "deep": (frozenset((DUMP,)), _flag),
    "verify": (frozenset((DUMP,)), _flag),
    "allocator": (frozenset((DUMP,)), _choice(ALLOCATORS)),
}
TARGET_KEYS = ("name", "url", "dump", "tags", *OPTIONS)
DEFAULTS_KEYS = ("tags", *OPTIONS)
TOP_KEYS = ("defaults", "target")
_KIND_NAMES = {LIVE: "a live server (url)", DUMP: "dump files (dump)"}


def load_inventory(path: Path | str, environ: Mapping[str, str] | None = None) -> Inventory:
    """Read and check the inventory at `path`; `environ` (default: this process's environment) must hold the
    variables `password-env` names."""
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"{file}: no such file")
    return parse_inventory(load_toml_file(file), file, os.environ if environ is None else environ)


def parse_inventory(data: Mapping[str, Any], path: Path, environ: Mapping[str, str]) -> Inventory:
    """The inventory in `data` (the TOML document of `path`, which names it in errors and anchors relative
    dump paths)."""
    where = str(path)
    _known_keys(data, TOP_KEYS, where)
    raw_defaults = data.get("defaults", {})
    if not isinstance(raw_defaults, dict):
        raise ConfigError(f"{where}: defaults: expected a table ([defaults])")
    _known_keys(raw_defaults, DEFAULTS_KEYS, f"{where}: [defaults]")
    defaults_tags = _tags(raw_defaults.get("tags", {}), f"{where}: [defaults]")
    defaults = _options(raw_defaults, f"{where}: [defaults]")
    entries = data.get("target", [])
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        raise ConfigError(f"{where}: target: expected [[target]] tables")
    if not entries:
        raise ConfigError(f"{where}: no [[target]] entries: list the servers and dumps to audit")
    folder = Path(os.path.abspath(path.parent))
    names: dict[str, int] = {}
    targets = []
    for number, entry in enumerate(entries, start=1):
        target = _target(
            entry, number, where=where, folder=folder, defaults=defaults, defaults_tags=defaults_tags, environ=environ
        )
        if target.name in names:
            raise ConfigError(
                f"{where}: {_label(number, target.name)}: name: {_quoted(target.name)} is already the name of"
                f" [[target]] #{names[target.name]}"
            )
        names[target.name] = number
        targets.append(target)
    return Inventory(where, tuple(targets))


def _target(
    entry: dict[str, Any],
    number: int,
    *,
    where: str,
    folder: Path,
    defaults: dict[str, object],
    defaults_tags: dict[str, str],
    environ: Mapping[str, str],
) -> InventoryTarget:
    raw_name = entry.get("name")
    label = f"{where}: {_label(number, raw_name if _name_problem(raw_name) is None else None)}"
    _known_keys(entry, TARGET_KEYS, label)
    problem = _name_problem(raw_name)
    if problem is not None:
        raise ConfigError(f"{label}: name: {problem}")
    name = str(raw_name)
    if "url" in entry and "dump" in entry:
        raise ConfigError(f"{label}: give url (a live server) or dump (dump files), not both")
    if "url" not in entry and "dump" not in entry:
        raise ConfigError(f'{label}: no url or dump: give url = "redis://host:port" or dump = "path/to/dumps"')
    kind = LIVE if "url" in entry else DUMP
    for key in entry:
        if key in OPTIONS and kind not in OPTIONS[key][0]:
            theirs = ", ".join(k for k, (kinds, _check) in OPTIONS.items() if kind in kinds)
            raise ConfigError(
                f"{label}: {key}: only for {_KIND_NAMES[DUMP if kind == LIVE else LIVE]}; this target is"
                f" {_KIND_NAMES[kind]}, whose options are {theirs}"
            )
    own = _options(entry, label)
    given = {key: value for key, value in defaults.items() if kind in OPTIONS[key][0]}
    given.update(own)
    variable = given.get("password-env")
    if variable is not None and variable not in environ:
        origin = "password-env" if "password-env" in own else "password-env (from [defaults])"
        raise ConfigError(f"{label}: {origin}: the environment variable {variable} is not set")
    tags = {**defaults_tags, **_tags(entry.get("tags", {}), label)}
    url = _url(entry["url"], label) if kind == LIVE else None
    paths = _paths(entry["dump"], label, folder) if kind == DUMP else ()
    options = tuple((key.replace("-", "_"), given[key]) for key in OPTIONS if key in given)
    return InventoryTarget(name, kind, url, paths, tuple(tags.items()), options)


def _name_problem(name: object) -> str | None:
    if name is None:
        return "required (a unique name for the target, shown in the fleet report)"
    if not isinstance(name, str):
        return f"expected a string, got {name!r}"
    if not name.strip():
        return "must not be empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"at most {MAX_NAME_LENGTH} characters, got {len(name)}"
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "control characters are not allowed"
    return None


def _label(number: int, name: str | None) -> str:
    return f"[[target]] #{number}" if name is None else f"[[target]] #{number} {_quoted(name)}"


def _quoted(name: str) -> str:
    return json.dumps(name, ensure_ascii=False)


def _known_keys(table: Mapping[str, Any], known: tuple[str, ...], label: str) -> None:
    for key in table:
        if key not in known:
            close = get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(known)}"
            raise ConfigError(f"{label}: unknown key {key!r} ({hint})")


def _options(table: Mapping[str, Any], label: str) -> dict[str, object]:
    options: dict[str, object] = {}
    for key, value in table.items():
        if key in OPTIONS:
            try:
                options[key] = OPTIONS[key][1](value)
            except _Invalid as error:
                raise ConfigError(f"{label}: {key}: {error}") from None
    return options


def _tags(value: object, label: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ConfigError(f'{label}: tags: expected a table of strings, such as tags = {{ team = "orders" }}')
    for key, tag in value.items():
        if not isinstance(tag, str):
            raise ConfigError(f"{label}: tags.{key}: expected a string, got {tag!r}")
    return dict(value)


def _url(value: object, label: str) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{label}: url: expected a server URL such as redis://host:6379, got {value!r}")
    credentials = take_credentials(value)
    if credentials.password is not None or credentials.ssl_password is not None:
        raise ConfigError(
            f"{label}: url: a password written in the URL is refused: credentials come from environment variables"
            ' (password-env = "VARIABLE")'
        )
    try:
        parse_address(value)
    except SourceError as error:
        raise ConfigError(f"{label}: url: {error}") from None
    return value


def _paths(value: object, label: str, folder: Path) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(item, str) and item for item in items):
        raise ConfigError(f"{label}: dump: expected a path or a list of paths (files or folders of *.rdb)")
    return tuple(os.path.normpath(folder / item) for item in items)
