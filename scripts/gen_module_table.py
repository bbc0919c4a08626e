"""Generate src/rediscipline/redis_meta/module_table_generated.py from the installed redis-py's module command classes.

    .venv/bin/python scripts/gen_module_table.py            # write the table
    .venv/bin/python scripts/gen_module_table.py --check    # exit 1 when the checked-in table differs

redis-py reaches the commands of Redis modules through accessors on the client: `r.json()` (RedisJSON),
`r.ts()` (TimeSeries), `r.ft(index)` (Search), `r.bf()`, `r.cf()`, `r.cms()`, `r.topk()`, `r.tdigest()`
(Bloom) and `r.vset()` (vector sets). Each accessor's class has one method per command. The command of a
method is the first argument of its `execute_command` call (a literal, or a module constant such as
`ADD_CMD = "TS.ADD"`), else that of the helper it delegates to.

Module methods do not annotate their keys the way `CoreCommands` does (`name: str`, `key` without an
annotation), so keys are read from the parameter names redis-py gives them: `key` and the names ending in
`_key` or `Key` (`source_key`, `destKey`) hold one key, and so does `name` in the JSON commands (the
document's key); `keys` and `srcKeys` hold a list of keys, `*keys` several. Everything else (JSON paths,
TimeSeries filters and labels, Bloom items, index names) is not a key.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the shared signature reader beside this script

from scripts.gen_command_table import parameter_shape  # noqa: E402

TARGET = ROOT / "src" / "rediscipline" / "redis_meta" / "module_table_generated.py"
#: accessor on the client → (module of its command class, class name)
ACCESSORS = {
    "json": ("redis.commands.json.commands", "JSONCommands"),
    "ts": ("redis.commands.timeseries.commands", "TimeSeriesCommands"),
    "ft": ("redis.commands.search.commands", "SearchCommands"),
    "bf": ("redis.commands.bf.commands", "BFCommands"),
    "cf": ("redis.commands.bf.commands", "CFCommands"),
    "cms": ("redis.commands.bf.commands", "CMSCommands"),
    "topk": ("redis.commands.bf.commands", "TOPKCommands"),
    "tdigest": ("redis.commands.bf.commands", "TDigestCommands"),
    "vset": ("redis.commands.vectorset.commands", "VectorSetCommands"),
}
KEY_NAMES = frozenset({"key"})
KEY_LIST_NAMES = frozenset({"keys", "srcKeys"})
#: Accessors whose commands call the key of their value `name` (a JSON document).
NAME_IS_KEY = frozenset({"json"})


def _is_key(accessor: str, name: str) -> bool:
    if name in KEY_NAMES or name.endswith(("_key", "Key")):
        return True
    return name == "name" and accessor in NAME_IS_KEY


def _sent_command(function: Any) -> str | None:
    """The first argument of the method's `execute_command` call: a literal, or a constant of its module."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return None
    names = vars(inspect.getmodule(function))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        if node.func.attr != "execute_command":
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value.upper()
        if isinstance(first, ast.Name) and isinstance(names.get(first.id), str):
            return str(names[first.id]).upper()
    return None


def command_of(owner: type, name: str) -> str | None:
    function = getattr(owner, name)
    found = _sent_command(function)
    if found:
        return found
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if isinstance(target, ast.Name) and target.id == "self" and hasattr(owner, node.func.attr):
                found = _sent_command(getattr(owner, node.func.attr))
                if found:
                    return found
    return None


def spec_of(accessor: str, owner: type, name: str) -> dict[str, Any] | None:
    command = command_of(owner, name)
    if command is None:
        return None

    def role(parameter: inspect.Parameter) -> str | None:
        if parameter.kind is parameter.VAR_POSITIONAL:
            return "variadic_keys" if parameter.name in KEY_LIST_NAMES else None
        if _is_key(accessor, parameter.name):
            return "keys"
        return "key_lists" if parameter.name in KEY_LIST_NAMES else None

    return {"command": command, **parameter_shape(inspect.signature(getattr(owner, name)), role)}


def render() -> str:
    import importlib

    import redis

    blocks = []
    for accessor, (module, class_name) in ACCESSORS.items():
        owner = getattr(importlib.import_module(module), class_name)
        rows = []
        for name, function in inspect.getmembers(owner, inspect.isfunction):
            if name.startswith("_") or name == "execute_command" or not function.__module__.startswith("redis."):
                continue
            spec = spec_of(accessor, owner, name)
            if spec is None:
                continue
            fields = ", ".join(f"{key}={value!r}" for key, value in spec.items() if value not in ((), None, 0, False))
            rows.append(f"        {name!r}: MethodSignature({fields}),")
        blocks.append(f"    {accessor!r}: {{\n" + "\n".join(rows) + "\n    },")
    return (
        "# ruff: noqa: E501 - generated, one method per line\n"
        '"""redis-py module command methods → Redis commands and their key parameters. GENERATED: do not edit.\n\n'
        f"Made by scripts/gen_module_table.py from redis-py {redis.__version__} (the classes behind `r.json()`,\n"
        "`r.ts()`, `r.ft()`, `r.bf()`, `r.cf()`, `r.cms()`, `r.topk()`, `r.tdigest()`, `r.vset()`); a test\n"
        'fails when the installed redis-py would give another table.\n"""\n\n'
        "from __future__ import annotations\n\n"
        "from rediscipline.redis_meta.records import MethodSignature\n\n"
        "#: accessor (`json`) → method (`set`) → the command it sends and where its keys are\n"
        "MODULE_COMMANDS: dict[str, dict[str, MethodSignature]] = {\n" + "\n".join(blocks) + "\n}\n"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the checked-in table is stale")
    args = parser.parse_args()
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is stale: run scripts/gen_module_table.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
