"""Generate src/rediscipline/sources/code/commands.py from the installed redis-py's command methods.

    .venv/bin/python scripts/gen_command_table.py            # write the table
    .venv/bin/python scripts/gen_command_table.py --check    # exit 1 when the checked-in table differs

The Redis command of a method is the literal first argument of its `execute_command` call, else that of the
helper it delegates to (`zrange` → `_zrange`), else its name upper-cased (`client_pause` → `CLIENT PAUSE`
for container commands). Keys come from redis-py's parameter annotations (see `sources/code/spec.py`).
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
TARGET = ROOT / "src" / "rediscipline" / "sources" / "code" / "commands.py"
#: Commands whose subcommand is the second word of the method name (`config_get` → CONFIG GET).
CONTAINERS = {
    "acl", "client", "cluster", "command", "config", "debug", "function", "latency", "memory", "module",
    "object", "pubsub", "script", "slowlog", "xinfo",
}  # fmt: skip
KEY = {"KeyT", "KeyT | None", "Union[KeyT, None]", "Optional[KeyT]"}
KEY_LIST_MARKERS = ("KeysT", "Sequence[KeyT]", "List[KeyT]", "Iterable[KeyT]", "Mapping[AnyKeyT", "Dict[KeyT")


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


def command_of(owner: type, name: str) -> str:
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
    if words[0] in CONTAINERS and len(words) > 1:
        return f"{words[0].upper()} {'-'.join(words[1:]).upper()}"
    return "".join(words).upper()


def spec_of(owner: type, name: str) -> dict[str, Any] | None:
    function = getattr(owner, name)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    params, keys, key_lists, options, keyword_only = [], [], [], [], []
    variadic_keys = variadic_mixed = None
    required = 0
    var_positional = var_keyword = False
    for parameter in list(signature.parameters.values())[1:]:
        note = parameter.annotation if isinstance(parameter.annotation, str) else ""
        if parameter.kind is parameter.VAR_POSITIONAL:
            var_positional = True
            if note.replace(" ", "") == "KeyT":
                variadic_keys = parameter.name
            elif "KeyT" in note:
                variadic_mixed = parameter.name
            continue
        if parameter.kind is parameter.VAR_KEYWORD:
            var_keyword = True
            continue
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            params.append(parameter.name)
            required += parameter.default is parameter.empty
        else:
            keyword_only.append(parameter.name)
        if note in KEY:
            keys.append(parameter.name)
        elif any(marker in note for marker in KEY_LIST_MARKERS):
            key_lists.append(parameter.name)
        if parameter.default is not parameter.empty:
            options.append(parameter.name)
    return {
        "command": command_of(owner, name),
        "params": tuple(params),
        "keys": tuple(keys),
        "key_lists": tuple(key_lists),
        "variadic_keys": variadic_keys,
        "variadic_mixed": variadic_mixed,
        "options": tuple(options),
        "keyword_only": tuple(keyword_only),
        "required": required,
        "var_positional": var_positional,
        "var_keyword": var_keyword,
    }


def render() -> str:
    import redis
    from redis.commands.core import CoreCommands

    rows = []
    for name in sorted(dir(CoreCommands)):
        if name.startswith("_") or name == "execute_command" or not callable(getattr(CoreCommands, name)):
            continue
        spec = spec_of(CoreCommands, name)
        if spec is None:
            continue
        fields = ", ".join(f"{key}={value!r}" for key, value in spec.items() if value not in ((), None, 0, False))
        rows.append(f"    {name!r}: CommandSpec({fields}),")
    return (
        "# ruff: noqa: E501 - generated, one method per line\n"
        '"""redis-py client methods → Redis commands, key and option parameters. GENERATED: do not edit.\n\n'
        f"Made by scripts/gen_command_table.py from redis-py {redis.__version__} (`CoreCommands`); a test fails when\n"
        'the installed redis-py would give another table.\n"""\n\n'
        "from __future__ import annotations\n\n"
        "from rediscipline.sources.code.spec import CommandSpec\n\n"
        f'REDIS_PY_VERSION = "{redis.__version__}"\n\n'
        "COMMANDS: dict[str, CommandSpec] = {\n" + "\n".join(rows) + "\n}\n"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the checked-in table is stale")
    args = parser.parse_args()
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is stale: run scripts/gen_command_table.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
