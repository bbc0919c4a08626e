"""The checked-in redis-py command table matches the installed redis-py, and maps the methods that matter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rediscipline.sources.code.commands import COMMANDS, REDIS_PY_VERSION
from rediscipline.sources.code.spec import CommandSpec

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_matches_the_installed_redis_py() -> None:
    import redis

    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_command_table.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, f"redis-py {redis.__version__} vs table {REDIS_PY_VERSION}: {done.stderr}"


def test_commands_keys_and_options_of_common_methods() -> None:
    assert COMMANDS["set"].command == "SET"
    assert COMMANDS["set"].keys == ("name",)
    assert {"ex", "px", "exat", "pxat", "keepttl", "nx"} <= set(COMMANDS["set"].options)
    assert COMMANDS["hgetall"] == CommandSpec(command="HGETALL", params=("name",), keys=("name",), required=1)
    assert (COMMANDS["delete"].command, COMMANDS["delete"].variadic_keys) == ("DEL", "names")
    assert (COMMANDS["mget"].command, COMMANDS["mget"].key_lists) == ("MGET", ("keys",))
    assert (COMMANDS["mset"].command, COMMANDS["mset"].key_lists) == ("MSET", ("mapping",))
    assert (COMMANDS["blpop"].key_lists, COMMANDS["blpop"].options) == (("keys",), ("timeout",))
    assert (COMMANDS["eval"].command, COMMANDS["eval"].variadic_mixed) == ("EVAL", "keys_and_args")
    assert COMMANDS["zrange"].command == "ZRANGE"
    assert COMMANDS["scan_iter"].command == "SCAN"
    assert COMMANDS["client_pause"].command == "CLIENT PAUSE"
    assert COMMANDS["config_set"].command == "CONFIG SET"
    assert COMMANDS["flushall"].command == "FLUSHALL"
    assert COMMANDS["keys"].command == "KEYS"


def test_signature_shapes_tell_which_calls_fit() -> None:
    assert (COMMANDS["set"].required, COMMANDS["set"].var_positional, COMMANDS["set"].var_keyword) == (2, False, False)
    assert (COMMANDS["touch"].required, COMMANDS["touch"].var_positional) == (0, True)
    assert COMMANDS["keys"].var_keyword  # `target_nodes=` and the like on a cluster
    assert "nx" in COMMANDS["hexpire"].keyword_only


def test_every_method_names_a_command_and_only_its_own_parameters() -> None:
    assert len(COMMANDS) > 300
    for method, spec in COMMANDS.items():
        assert spec.command and spec.command == spec.command.upper(), method
        named = set(spec.params) | set(spec.options)
        assert set(spec.keys) <= named and set(spec.key_lists) <= named, method
