"""Resolve settings from layers, recording where every value came from.

Order, later wins: built-in rule defaults < preset chain (root first) < overlays < the team's file <
the command line. `rediscipline config --show` prints the result with each value's origin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rediscipline.model.finding import TESTS_MODES
from rediscipline.model.keypattern import DEFAULT_PATTERN_CAP
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.severity import Severity
from rediscipline.model.text import LANGUAGES
from rediscipline.redis_meta.libraries import FAMILIES, KEY_MODES
from rediscipline.rules.base import ConfiguredRule, Rule
from rediscipline.rules.options import OptionError, build, specs
from rediscipline.rules.registry import Registry, UnknownRuleError
from rediscipline.rules.selector import SelectionLayer, expand, resolve
from rediscipline.settings.errors import ConfigError
from rediscipline.settings.namespaces import parse_namespace
from rediscipline.settings.presets import preset_chain

DEFAULT_PRESET = "default"
#: Keys allowed at the top of a convention file or preset, with their help text.
TOP_KEYS = {
    "preset": "the preset to start from (`rediscipline config --presets` lists them)",
    "overlays": 'presets added on top, e.g. ["cluster"]',
    "select": "rule selectors to enable (replaces the set so far): ALL, KEY, KEY005, key-length",
    "extend-select": "rule selectors to add to the set so far",
    "ignore": "rule selectors to disable",
    "fail-on": "lowest severity that makes the exit code 1: note, warning or error",
    "lang": "message language: en or zh",
    "rules": "per-rule tables of options, keyed by slug or id ([rules.key-length])",
    "namespaces": 'declared key namespaces with their policy ([namespaces."session:*"])',
    "per-key-ignores": "glob → rule selectors that do not apply to matching keys",
    "per-file-ignores": 'path glob (relative to the project root) → rule selectors, e.g. "tests/**" = ["CMD001"]',
    "pattern-cap": "most key patterns tracked in one run (memory bound)",
    "test-paths": 'path globs of test code besides the built-in ones, e.g. ["qa/**", "*_spec.py"]',
    "tests": "what is reported from test code: report, errors-only or ignore",
    "library-keys": 'naming rules on keys of a library\'s own format: "skip" or "judge", or a table by library',
}
FILE_ONLY_KEYS = {"preset", "overlays"}


@dataclass(frozen=True, slots=True)
class Layer:
    origin: str  # "built-in", "preset:baidu", "rediscipline.toml", "command line"
    data: Mapping[str, Any]
    allow_preset_keys: bool = False


@dataclass(frozen=True, slots=True)
class Provenance:
    key: str
    value: str
    origin: str


@dataclass(frozen=True)
class Settings:
    preset: str
    overlays: tuple[str, ...]
    config_file: str | None
    fail_on: Severity
    lang: str
    rules: tuple[ConfiguredRule, ...]
    namespaces: tuple[NamespacePolicy, ...]
    key_ignores: Mapping[str, frozenset[str]]
    pattern_cap: int
    provenance: tuple[Provenance, ...] = field(default=())
    #: `per-file-ignores`: gitignore-style path glob → rule ids; globs are relative to `root`.
    file_ignores: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: The project root: the folder of the convention file, else the working directory (set by the loader).
    root: str | None = None
    #: `test-paths`: gitignore-style globs of test code besides the built-in ones; relative to `root`.
    test_paths: tuple[str, ...] = ()
    #: `tests`: one of TESTS_MODES.
    tests: str = TESTS_MODES[0]
    #: `library-keys`: one of KEY_MODES for every library, and the libraries set apart (lower-case name → mode).
    library_keys: str = KEY_MODES[0]
    library_modes: Mapping[str, str] = field(default_factory=dict)


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings")
    return tuple(v.strip() for v in value)


def _path_glob(glob: str, where: str) -> str:
    """`glob` when it can name paths under the project root; a ConfigError for an empty one or the root."""
    if not glob.strip() or glob.strip() in ("/", "./"):
        raise ConfigError(f"{where}: {glob!r} is not a path glob")
    return glob


def _library_keys(value: Any, where: str, before: tuple[str, dict[str, str]]) -> tuple[str, dict[str, str]]:
    """`library-keys` as (the mode of every library, the modes of libraries set apart): a string sets the
    first and clears the second; a table of library = mode (its `default` key for every other library) adds
    to what the layers before set."""
    allowed = ", ".join(KEY_MODES)
    if isinstance(value, str):
        if value not in KEY_MODES:
            raise ConfigError(f"{where}: {value!r} is not allowed (allowed: {allowed})")
        return (value, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f'{where}: expected "skip", "judge" or a table of library = mode')
    default, modes = before[0], dict(before[1])
    known = {name.lower(): name for name in sorted({family.library for family in FAMILIES})}
    for name, mode in value.items():
        if mode not in KEY_MODES:
            raise ConfigError(f"{where}.{name}: {mode!r} is not allowed (allowed: {allowed})")
        if name == "default":
            default = mode
        elif name.lower() in known:
            modes[name.lower()] = mode
        else:
            raise ConfigError(f"{where}: unknown library {name!r} (known: {', '.join(known.values())})")
    return (default, modes)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


class _Resolver:
    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.values: dict[str, tuple[Any, str]] = {}
        self.rule_options: dict[str, dict[str, tuple[Any, str]]] = {cls.meta.id: {} for cls in registry}
        self.severities: dict[str, tuple[Severity, str, bool]] = {}
        self.selection: list[SelectionLayer] = []
        self.namespaces: dict[str, tuple[NamespacePolicy, str]] = {}
        self.key_ignores: dict[str, tuple[frozenset[str], str]] = {}
        self.file_ignores: dict[str, tuple[frozenset[str], str]] = {}

    def builtin(self) -> None:
        for cls in self.registry:
            self.severities[cls.meta.id] = (cls.meta.severity, "built-in", False)
            for spec in specs(cls.Options):
                self.rule_options[cls.meta.id][spec.name] = (spec.default, "built-in")
        self.values["fail-on"] = ("warning", "built-in")
        self.values["lang"] = ("en", "built-in")
        self.values["pattern-cap"] = (DEFAULT_PATTERN_CAP, "built-in")
        self.values["tests"] = (TESTS_MODES[0], "built-in")
        self.values["test-paths"] = ((), "built-in")
        self.values["library-keys"] = ((KEY_MODES[0], {}), "built-in")

    def ids(self, selectors: Sequence[str], where: str) -> frozenset[str]:
        ids: set[str] = set()
        for token in selectors:
            try:
                found, _spec = expand(self.registry, token)
            except UnknownRuleError as error:
                raise ConfigError(f"{where}: {error}") from None
            ids |= found
        return frozenset(ids)

    def apply(self, layer: Layer) -> None:
        origin, data = layer.origin, layer.data
        for key, value in data.items():
            where = f"{origin}: {key}"
            if key not in TOP_KEYS or (key in FILE_ONLY_KEYS and not layer.allow_preset_keys):
                allowed = ", ".join(k for k in TOP_KEYS if layer.allow_preset_keys or k not in FILE_ONLY_KEYS)
                raise ConfigError(f"{origin}: unknown key {key!r} (allowed: {allowed})")
            if key == "fail-on":
                try:
                    Severity.parse(str(value))
                except ValueError as error:
                    raise ConfigError(f"{where}: {error}") from None
                self.values[key] = (str(value).lower(), origin)
            elif key == "lang":
                if value not in LANGUAGES:
                    raise ConfigError(f"{where}: {value!r} is not allowed (allowed: {', '.join(LANGUAGES)})")
                self.values[key] = (value, origin)
            elif key == "pattern-cap":
                if isinstance(value, bool) or not isinstance(value, int) or value < 100:
                    raise ConfigError(f"{where}: expected an integer ≥ 100, got {value!r}")
                self.values[key] = (value, origin)
            elif key == "tests":
                if value not in TESTS_MODES:
                    raise ConfigError(f"{where}: {value!r} is not allowed (allowed: {', '.join(TESTS_MODES)})")
                self.values[key] = (value, origin)
            elif key == "library-keys":
                self.values[key] = (_library_keys(value, where, self.values[key][0]), origin)
            elif key == "test-paths":
                self.values[key] = (tuple(_path_glob(glob, where) for glob in _strings(value, where)), origin)
            elif key == "rules":
                self._rules(value, origin)
            elif key == "namespaces":
                self._namespaces(value, origin)
            elif key == "per-key-ignores":
                if not isinstance(value, Mapping):
                    raise ConfigError(f"{where}: expected a table of glob = [rules]")
                for glob, selectors in value.items():
                    ids = self.ids(_strings(selectors, f"{where}.{glob}"), f"{where}.{glob}")
                    self.key_ignores[glob] = (ids, origin)
            elif key == "per-file-ignores":
                self._file_ignores(value, where, origin)
        if any(k in data for k in ("select", "extend-select", "ignore")):
            select = data.get("select")
            layer_select = None if select is None else _strings(select, f"{origin}: select")
            extend = _strings(data.get("extend-select", ()), f"{origin}: extend-select")
            ignore = _strings(data.get("ignore", ()), f"{origin}: ignore")
            for token in (*(layer_select or ()), *extend, *ignore):
                self.ids((token,), f"{origin}: select/ignore")
            self.selection.append(SelectionLayer(origin, layer_select, extend, ignore))

    def _file_ignores(self, value: Any, where: str, origin: str) -> None:
        if not isinstance(value, Mapping):
            raise ConfigError(f'{where}: expected a table of path glob = [rules], e.g. "tests/**" = ["CMD001"]')
        for glob, selectors in value.items():
            _path_glob(glob, where)
            ids = self.ids(_strings(selectors, f"{where}.{glob!r}"), f"{where}.{glob!r}")
            self.file_ignores[glob] = (ids, origin)

    def _rules(self, tables: Any, origin: str) -> None:
        if not isinstance(tables, Mapping):
            raise ConfigError(f"{origin}: rules: expected tables like [rules.key-length]")
        for name, table in tables.items():
            where = f"{origin}: rules.{name}"
            cls = self.registry.find(name)
            if cls is None:
                raise ConfigError(f"{where}: unknown rule {name!r} (see `rediscipline rules`)")
            if not isinstance(table, Mapping):
                raise ConfigError(f"{where}: expected a table of options")
            rule_id = cls.meta.id
            for key, value in table.items():
                if key == "severity":
                    try:
                        self.severities[rule_id] = (Severity.parse(str(value)), origin, True)
                    except ValueError as error:
                        raise ConfigError(f"{where}.severity: {error}") from None
                    continue
                try:
                    build(cls.Options, {key: value})
                except OptionError as error:
                    message = str(error)
                    if message.startswith("unknown option"):
                        message += " (or severity)"
                    raise ConfigError(f"{where}: {message}") from None
                self.rule_options[rule_id][key] = (value, origin)

    def _namespaces(self, tables: Any, origin: str) -> None:
        if not isinstance(tables, Mapping):
            raise ConfigError(f'{origin}: namespaces: expected tables like [namespaces."session:*"]')
        for glob, table in tables.items():
            policy = parse_namespace(glob, table, f"{origin}: namespaces.{glob!r}")
            for selector in policy.ignore:
                self.ids((selector,), f"{origin}: namespaces.{glob!r}.ignore")
            expanded = tuple(sorted(self.ids(policy.ignore, origin)))
            self.namespaces[glob] = (
                NamespacePolicy(**{**_fields(policy), "ignore": expanded}),
                origin,
            )

    def settings(
        self, preset: str, overlays: tuple[str, ...], config_file: str | None, origins: tuple[str, str]
    ) -> Settings:
        enabled = resolve(self.registry, self.selection)
        configured: list[ConfiguredRule] = []
        provenance: list[Provenance] = [
            Provenance("preset", preset, origins[0]),
            Provenance("overlays", _show(overlays), origins[1]),
        ]
        for key in ("fail-on", "lang", "pattern-cap", "tests", "test-paths"):
            value, origin = self.values[key]
            provenance.append(Provenance(key, _show(value), origin))
        (library_keys, library_modes), origin = self.values["library-keys"]
        provenance.append(Provenance("library-keys", _show({"default": library_keys, **library_modes}), origin))
        select_origin = self.selection[-1].origin if self.selection else "built-in"
        provenance.append(Provenance("enabled", f"{len(enabled)} of {len(self.registry)} rules", select_origin))
        for cls in self.registry:
            rule_id = cls.meta.id
            severity, sev_origin, forced = self.severities[rule_id]
            prefix = f"rules.{cls.meta.slug}"
            if rule_id not in enabled:
                provenance.append(Provenance(f"{prefix}", "disabled", select_origin))
                continue
            options = self.rule_options[rule_id]
            instance = build(cls.Options, {k: v for k, (v, _o) in options.items()})
            configured.append(ConfiguredRule(_instance(cls), instance, severity, forced))
            provenance.append(Provenance(f"{prefix}.severity", severity.label, sev_origin))
            for key, (value, origin) in options.items():
                provenance.append(Provenance(f"{prefix}.{key}", _show(value), origin))
        for glob, (policy, origin) in self.namespaces.items():
            set_fields = {k: v for k, v in _fields(policy).items() if k != "pattern" and v not in (None, "", (), False)}
            provenance.append(Provenance(f"namespaces.{glob!r}", _show(set_fields), origin))
        for glob, (ids, origin) in self.key_ignores.items():
            provenance.append(Provenance(f"per-key-ignores.{glob!r}", _show(sorted(ids)), origin))
        for glob, (ids, origin) in self.file_ignores.items():
            provenance.append(Provenance(f"per-file-ignores.{glob!r}", _show(sorted(ids)), origin))
        return Settings(
            preset=preset,
            overlays=overlays,
            config_file=config_file,
            fail_on=Severity.parse(self.values["fail-on"][0]),
            lang=self.values["lang"][0],
            rules=tuple(configured),
            namespaces=tuple(policy for policy, _o in self.namespaces.values()),
            key_ignores={glob: ids for glob, (ids, _o) in self.key_ignores.items()},
            pattern_cap=self.values["pattern-cap"][0],
            provenance=tuple(provenance),
            file_ignores={glob: ids for glob, (ids, _o) in self.file_ignores.items()},
            test_paths=self.values["test-paths"][0],
            tests=self.values["tests"][0],
            library_keys=library_keys,
            library_modes=library_modes,
        )


def _fields(policy: NamespacePolicy) -> dict[str, Any]:
    return {name: getattr(policy, name) for name in policy.__dataclass_fields__}


def _instance(cls: type[Rule[Any]]) -> Rule[Any]:
    return cls()


def resolve_settings(
    registry: Registry,
    *,
    preset: str,
    overlays: Sequence[str],
    file_layer: Layer | None,
    cli_layer: Layer | None,
    origins: tuple[str, str] = ("built-in", "built-in"),
) -> Settings:
    """Fold every layer into Settings; raises ConfigError naming the origin and key on any bad value."""
    resolver = _Resolver(registry)
    resolver.builtin()
    seen: set[str] = set()
    for name in (preset, *overlays):
        for item in preset_chain(name):
            if item.name in seen:
                continue
            seen.add(item.name)
            resolver.apply(Layer(item.origin, item.data))
    if file_layer is not None:
        resolver.apply(file_layer)
    if cli_layer is not None:
        resolver.apply(cli_layer)
    return resolver.settings(preset, tuple(overlays), file_layer.origin if file_layer else None, origins)


__all__ = ["DEFAULT_PRESET", "Layer", "Provenance", "Settings", "resolve_settings"]
