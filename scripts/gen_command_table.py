"""Generate rediscipline's command table (src/rediscipline/redis_meta/*_generated.py) from Redis and redis-py.

    .venv/bin/python scripts/gen_command_table.py            # write the table from the saved inputs
    .venv/bin/python scripts/gen_command_table.py --check    # exit 1 when the checked-in table differs
    .venv/bin/python scripts/gen_command_table.py --refresh  # ask the servers again, then write the table

Commands come from what the servers publish about themselves: `--refresh` starts each server of SERVER_KINDS
(tests/support/servers.py: Debian Redis 7.0, Valkey 9.1 and Redis 8.2 from the virtualenv), reads `COMMAND
INFO` and `COMMAND DOCS`, stops it by its PID and saves the replies as scripts/command_table/<flavor>-<version>.json
(without the docs' summaries, histories and argument trees, which the table does not use). Those saved replies
are the inputs: generating and checking need no server. Where servers disagree Redis wins over Valkey and a
newer server over an older one; each flavor keeps its own `since` version.

Derived per command:
- `key_type`: from the ACL data-type category (@hash → hash, @sortedset and @geo → zset, @bitmap and
  @hyperloglog → string, ...); none when the command has no keys or several types (SORT);
- `reads`: DECLARED_READS below, the commands that read a whole collection (HGETALL, SMEMBERS, the set
  algebra, SORT) or a range that may cover all of it (LRANGE 0 -1); COMMAND DOCS says so only in prose (its
  complexity), so they are declared, and each must be a keyed @slow command of a collection type.
- read/write, blocking, admin, dangerous: the server's own flags and ACL categories, kept as they are.

Methods come from the installed redis-py: the Redis command of a method is the literal first argument of
its `execute_command` call, else that of the helper it delegates to (`zrange` → `_zrange`), else its name
upper-cased (`client_pause` → `CLIENT PAUSE` for container commands). Keys come from redis-py's parameter
annotations (see redis_meta/records.py `MethodSignature`).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ROOT / "scripts" / "command_table"
PACKAGE = ROOT / "src" / "rediscipline" / "redis_meta"
COMMANDS_TARGET = PACKAGE / "command_table_generated.py"
METHODS_TARGET = PACKAGE / "method_table_generated.py"
#: The servers asked by --refresh (tests/support/servers.py kinds); Redis 6.2 has no COMMAND DOCS.
SERVER_KINDS = ("redis70", "valkey91", "redis82")
#: ACL data-type categories → the key type `TYPE` reports.
CATEGORY_TYPES = {
    "string": "string", "bitmap": "string", "hyperloglog": "string", "list": "list", "hash": "hash",
    "set": "set", "sortedset": "zset", "geo": "zset", "stream": "stream",
}  # fmt: skip
#: Commands that read a whole collection on every call, and range reads whose bounds may cover one.
DECLARED_READS = {
    **dict.fromkeys(("hgetall", "hkeys", "hvals", "smembers"), "whole"),
    **dict.fromkeys(("sinter", "sunion", "sdiff", "sinterstore", "sunionstore", "sdiffstore"), "whole"),
    **dict.fromkeys(("zinter", "zunion", "zdiff", "zinterstore", "zunionstore", "zdiffstore"), "whole"),
    **dict.fromkeys(("sort", "sort_ro"), "whole"),
    **dict.fromkeys(("lrange", "zrange", "zrevrange"), "index"),
    **dict.fromkeys(("zrangebyscore", "zrevrangebyscore"), "score"),
    **dict.fromkeys(("zrangebylex", "zrevrangebylex"), "lex"),
}
#: redis-py names DEBUG's subcommands like a container's (`debug_object` → DEBUG OBJECT), though COMMAND INFO
#: lists DEBUG as one command.
METHOD_CONTAINERS = ("debug",)
#: redis-py's command classes of one data type → the key type, for methods whose command no server knows.
MIXIN_TYPES = {
    "HashCommands": "hash", "ListCommands": "list", "SetCommands": "set", "SortedSetCommands": "zset",
    "StreamCommands": "stream", "GeoCommands": "zset", "HyperlogCommands": "string",
}  # fmt: skip
KEY = {"KeyT", "KeyT | None", "Union[KeyT, None]", "Optional[KeyT]"}
KEY_LIST_MARKERS = ("KeysT", "Sequence[KeyT]", "List[KeyT]", "Iterable[KeyT]", "Mapping[AnyKeyT", "Dict[KeyT")


# ---- servers → saved inputs --------------------------------------------------------------------------------


def _text(value: Any) -> Any:
    """A RESP reply with bytes turned into text, recursively (RESP2 maps arrive as dicts or flat lists)."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, list):
        return [_text(item) for item in value]
    if isinstance(value, dict):
        return {_text(key): _text(item) for key, item in value.items()}
    return value


def _as_map(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    return dict(zip(value[::2], value[1::2], strict=True)) if value else {}


def _entries(info: list[Any]) -> dict[str, dict[str, Any]]:
    """COMMAND INFO entries (subcommands flattened) → name → record."""
    out: dict[str, dict[str, Any]] = {}
    for entry in info:
        if not entry:
            continue
        name, arity, flags, _first, _last, _step, categories, tips, key_specs, subcommands = entry[:10]
        out[name.lower()] = {  # module commands are named in capitals (VADD); commandstats lowercases them
            "arity": arity,
            "flags": flags,
            "categories": [c.removeprefix("@") for c in categories],
            "tips": tips,
            "key_specs": [_as_map(spec) for spec in key_specs],
            "subcommands": sorted(sub[0].lower() for sub in subcommands or ()),
        }
        out.update(_entries(subcommands or []))
    return out


def _docs(docs: dict[str, Any], into: dict[str, dict[str, Any]]) -> None:
    kept = ("since", "group", "complexity", "doc_flags", "deprecated_since", "replaced_by")
    for written, reply in docs.items():
        doc, name = _as_map(reply), written.lower()
        if name in into:
            into[name].update({field: doc[field] for field in kept if field in doc})
        _docs(_as_map(doc.get("subcommands") or {}), into)


def read_server(kind: str) -> dict[str, Any]:
    """Start a server of `kind`, read COMMAND INFO and COMMAND DOCS, stop it (by its PID)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import redis
    from tests.support.servers import start_server

    server = start_server(kind)
    try:
        connection = redis.Connection(host=server.host, port=server.port)
        try:
            replies = []
            for command in (("COMMAND", "INFO"), ("COMMAND", "DOCS")):
                connection.send_command(*command)
                replies.append(_text(connection.read_response()))
        finally:
            connection.disconnect()
    finally:
        server.stop()
    commands = _entries(replies[0])
    _docs(_as_map(replies[1]), commands)
    return {"flavor": server.flavor, "version": server.version, "commands": dict(sorted(commands.items()))}


def refresh() -> None:
    """Replace the saved replies with those of the servers installed now (all read before any is replaced)."""
    replies = [read_server(kind) for kind in SERVER_KINDS]
    INPUTS.mkdir(exist_ok=True)
    for old in INPUTS.glob("*.json"):
        old.unlink()
    for found in replies:
        path = INPUTS / f"{found['flavor']}-{found['version']}.json"
        path.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"saved {path.relative_to(ROOT)} ({len(found['commands'])} commands)")


# ---- saved inputs → commands ---------------------------------------------------------------------------------


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def load_inputs() -> list[dict[str, Any]]:
    """The saved replies, by flavor and version."""
    inputs = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(INPUTS.glob("*.json"))]
    if not inputs:
        raise SystemExit(f"no inputs in {INPUTS}: run scripts/gen_command_table.py --refresh")
    return sorted(inputs, key=lambda found: (found["flavor"], _version(found["version"])))


def _key_spec(spec: dict[str, Any]) -> dict[str, Any]:
    begin, find = spec["begin_search"], spec["find_keys"]
    out: dict[str, Any] = {"flags": tuple(spec["flags"])}
    if begin["type"] == "index":
        out["begin"] = begin["spec"]["index"]
    elif begin["type"] == "keyword":
        out["begin"] = begin["spec"]["startfrom"]
        out["keyword"] = begin["spec"]["keyword"]
    if find["type"] == "range":
        out.update(lastkey=find["spec"]["lastkey"], keystep=find["spec"]["keystep"], limit=find["spec"]["limit"])
    elif find["type"] == "keynum":
        out.update(find="keynum", keynumidx=find["spec"]["keynumidx"], firstkey=find["spec"]["firstkey"])
        out["keystep"] = find["spec"]["keystep"]
    else:
        out["find"] = "unknown"
    return out


def _key_type(record: dict[str, Any]) -> str | None:
    if not record["key_specs"]:
        return None
    types = {CATEGORY_TYPES[c] for c in record["categories"] if c in CATEGORY_TYPES}
    return types.pop() if len(types) == 1 else None


def merge(inputs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One record per command: the fields of the highest-priority server that knows it, `since` per flavor."""
    ordered = sorted(inputs, key=lambda found: (found["flavor"] == "redis", _version(found["version"])), reverse=True)
    merged: dict[str, dict[str, Any]] = {}
    for found in ordered:
        for name, record in found["commands"].items():
            since_field = f"{found['flavor']}_since"
            if name not in merged:
                merged[name] = {**record, "redis_since": None, "valkey_since": None}
            if merged[name][since_field] is None:
                merged[name][since_field] = record.get("since")
    for name, record in merged.items():
        record["key_type"] = _key_type(record)
        record["reads"] = DECLARED_READS.get(name)
    _check_declared(merged)
    return dict(sorted(merged.items()))


def _check_declared(merged: dict[str, dict[str, Any]]) -> None:
    """Every declared collection read is a keyed, @slow command of a collection type (SORT: of several)."""
    for name, kind in DECLARED_READS.items():
        record = merged.get(name)
        if record is None:
            raise SystemExit(f"DECLARED_READS names {name!r}, which no server knows")
        types = {CATEGORY_TYPES[c] for c in record["categories"] if c in CATEGORY_TYPES}
        ranged = kind == "whole" or record["key_type"] in ("list", "zset")
        if not record["key_specs"] or "slow" not in record["categories"] or not types or not ranged:
            raise SystemExit(f"DECLARED_READS: {name!r} is not a keyed @slow read of a collection: {record}")


def render_commands(inputs: list[dict[str, Any]], merged: dict[str, dict[str, Any]]) -> str:
    servers = tuple((found["flavor"], found["version"]) for found in inputs)
    rows = [f"    {name!r}: {_command_row(name, record)}," for name, record in merged.items()]
    made_from = ", ".join(f"{flavor} {version}" for flavor, version in servers)
    return (
        "# ruff: noqa: E501 - generated, one command per line\n"
        '"""Redis commands as servers describe them. GENERATED by scripts/gen_command_table.py: do not edit.\n\n'
        f"Made from the COMMAND INFO and COMMAND DOCS replies of {made_from}, saved in\n"
        "scripts/command_table/; a test fails when those inputs would give another table.\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from rediscipline.redis_meta.records import CommandInfo, KeySpec\n\n"
        f"#: The (flavor, version) of every server the table was made from.\nSERVERS = {servers!r}\n\n"
        "COMMANDS: dict[str, CommandInfo] = {\n" + "\n".join(rows) + "\n}\n"
    )


def _command_row(name: str, record: dict[str, Any]) -> str:
    fields: list[str] = [repr(name), repr(record["arity"])]
    optional = {
        "flags": tuple(record["flags"]),
        "categories": tuple(record["categories"]),
        "keys": tuple(_key_spec(spec) for spec in record["key_specs"]),
        "group": record.get("group", ""),
        "redis_since": record["redis_since"],
        "valkey_since": record["valkey_since"],
        "deprecated_since": record.get("deprecated_since"),
        "subcommands": tuple(record["subcommands"]),
        "key_type": record["key_type"],
        "reads": record["reads"],
    }
    for field, value in optional.items():
        if value in ((), None, ""):
            continue
        if field == "keys":
            fields.append("keys=(" + "".join(_spec_text(spec) + ", " for spec in value).removesuffix(" ") + ")")
        else:
            fields.append(f"{field}={value!r}")
    return f"CommandInfo({', '.join(fields)})"


def _spec_text(spec: dict[str, Any]) -> str:
    defaults = {"begin": 0, "keyword": None, "find": "range", "lastkey": 0, "keystep": 1, "limit": 0}
    defaults.update(keynumidx=0, firstkey=1)
    parts = [repr(spec["flags"])]
    parts += [f"{field}={value!r}" for field, value in spec.items() if field != "flags" and defaults[field] != value]
    return f"KeySpec({', '.join(parts)})"


# ---- redis-py → methods -------------------------------------------------------------------------------------


def _literal_command(function: Any) -> str | None:
    """The command a method sends: the literal first argument of `execute_command`, or of a private helper it
    hands the name to (`self._eval("EVAL_RO", ...)`)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            first = node.args[0]
            named = isinstance(first, ast.Constant) and isinstance(first.value, str)
            sender = node.func.attr == "execute_command" or (
                node.func.attr.startswith("_") and named and str(first.value).replace("_", "").isupper()  # type: ignore[attr-defined]
            )
            if sender and named:
                return str(first.value).upper()  # type: ignore[attr-defined]
    return None


def _delegates(function: Any) -> list[str]:
    """Methods of `self` this method calls, in source order."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return []
    called = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if isinstance(target, ast.Name) and target.id == "self" and node.func.attr != "execute_command":
                called.append(node.func.attr)
    return called


def command_of(owner: type, name: str, containers: frozenset[str]) -> str:
    function = getattr(owner, name)
    found = _literal_command(function)
    if found:
        return found
    for helper in _delegates(function):
        if hasattr(owner, helper):
            found = _literal_command(getattr(owner, helper))
            if found:
                return found
    words = name.split("_")
    if words[-1] == "iter" and len(words) > 1:  # scan_iter pages with SCAN
        words = words[:-1]
    if words[0] in containers and len(words) > 1:
        return f"{words[0].upper()} {'-'.join(words[1:]).upper()}"
    return "".join(words).upper()


def signature_of(owner: type, name: str, containers: frozenset[str]) -> dict[str, Any] | None:
    function = getattr(owner, name)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    return {"command": command_of(owner, name, containers), **parameter_shape(signature, _annotated_role)}


def _annotated_role(parameter: inspect.Parameter) -> str | None:
    """What a `CoreCommands` parameter holds, read from its annotation (`KeyT`, `KeysT`, `*args: KeyT`)."""
    note = parameter.annotation if isinstance(parameter.annotation, str) else ""
    if parameter.kind is parameter.VAR_POSITIONAL:
        if note.replace(" ", "") == "KeyT":
            return "variadic_keys"
        return "variadic_mixed" if "KeyT" in note else None
    if note in KEY:
        return "keys"
    return "key_lists" if any(marker in note for marker in KEY_LIST_MARKERS) else None


def parameter_shape(signature: inspect.Signature, role: Callable[[inspect.Parameter], str | None]) -> dict[str, Any]:
    """The fields of a `MethodSignature` for a method's parameters after `self`. `role` says what a parameter
    holds: `keys` (one key), `key_lists` (a list of keys), for `*args` `variadic_keys` (keys only) or
    `variadic_mixed` (keys among other values), or None (not a key). Shared by this generator and
    gen_module_table.py, which tell keys apart by annotation and by name respectively."""
    params, keys, key_lists, options, keyword_only = [], [], [], [], []
    variadic: dict[str, str | None] = {"variadic_keys": None, "variadic_mixed": None}
    required = 0
    var_positional = var_keyword = False
    for parameter in list(signature.parameters.values())[1:]:
        if parameter.kind is parameter.VAR_POSITIONAL:
            var_positional = True
            found = role(parameter)
            if found is not None:
                variadic[found] = parameter.name
            continue
        if parameter.kind is parameter.VAR_KEYWORD:
            var_keyword = True
            continue
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            params.append(parameter.name)
            required += parameter.default is parameter.empty
        else:
            keyword_only.append(parameter.name)
        found = role(parameter)
        if found == "keys":
            keys.append(parameter.name)
        elif found == "key_lists":
            key_lists.append(parameter.name)
        if parameter.default is not parameter.empty:
            options.append(parameter.name)
    return {
        "params": tuple(params),
        "keys": tuple(keys),
        "key_lists": tuple(key_lists),
        **variadic,
        "options": tuple(options),
        "keyword_only": tuple(keyword_only),
        "required": required,
        "var_positional": var_positional,
        "var_keyword": var_keyword,
    }


def render_methods(merged: dict[str, dict[str, Any]]) -> str:
    import redis
    from redis.commands.core import CoreCommands

    containers = frozenset({name for name, record in merged.items() if record["subcommands"]} | set(METHOD_CONTAINERS))
    rows, unlisted = [], []
    for name in sorted(dir(CoreCommands)):
        if name.startswith("_") or name == "execute_command" or not callable(getattr(CoreCommands, name)):
            continue
        found = signature_of(CoreCommands, name, containers)
        if found is None:
            continue
        fields = ", ".join(f"{key}={value!r}" for key, value in found.items() if value not in ((), None, 0, False))
        rows.append(f"    {name!r}: MethodSignature({fields}),")
        command = found["command"].lower().replace(" ", "|", 1)
        owner = next(klass.__name__ for klass in CoreCommands.__mro__ if name in vars(klass))
        if command not in merged and owner in MIXIN_TYPES:
            unlisted.append(f"    {name!r}: {MIXIN_TYPES[owner]!r},")
    return (
        "# ruff: noqa: E501 - generated, one method per line\n"
        '"""redis-py client methods → Redis commands, key and option parameters. GENERATED: do not edit.\n\n'
        f"Made by scripts/gen_command_table.py from redis-py {redis.__version__} (`CoreCommands`); a test fails when\n"
        'the installed redis-py would give another table.\n"""\n\n'
        "from __future__ import annotations\n\n"
        "from rediscipline.redis_meta.records import MethodSignature\n\n"
        f'REDIS_PY_VERSION = "{redis.__version__}"\n\n'
        "METHODS: dict[str, MethodSignature] = {\n" + "\n".join(rows) + "\n}\n\n"
        "#: The key type of the methods whose command none of the servers knows, from the redis-py class that\n"
        "#: defines them (HashCommands: hash); the command table gives the others.\n"
        "UNLISTED_KEY_TYPES: dict[str, str] = {\n" + "\n".join(unlisted) + "\n}\n"
    )


# ---- main -----------------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when the checked-in table is stale")
    mode.add_argument("--refresh", action="store_true", help="read the servers again before writing the table")
    args = parser.parse_args()
    if args.refresh:
        refresh()
    inputs = load_inputs()
    merged = merge(inputs)
    expected = {COMMANDS_TARGET: render_commands(inputs, merged), METHODS_TARGET: render_methods(merged)}
    if args.check:
        stale = [path for path, text in expected.items() if not path.exists() or path.read_text("utf-8") != text]
        for path in stale:
            print(f"{path.relative_to(ROOT)} is stale: run scripts/gen_command_table.py", file=sys.stderr)
        return 1 if stale else 0
    for path, text in expected.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
