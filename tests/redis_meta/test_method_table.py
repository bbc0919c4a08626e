"""The redis-py method table maps the methods that matter to their commands, keys and options."""

from __future__ import annotations

from rediscipline.redis_meta.commands import command_info
from rediscipline.redis_meta.method_table_generated import METHODS as COMMANDS
from rediscipline.redis_meta.methods import METHODS, command_name, method_key_type
from rediscipline.redis_meta.records import MethodSignature as CommandSpec


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


def test_subcommands_are_named_as_the_servers_name_them() -> None:
    """A method of a container command sends `CONTAINER SUB`, which the command table knows as `container|sub`
    (XGROUP's subcommands included, which no literal names in redis-py's source)."""
    assert COMMANDS["xgroup_create"].command == "XGROUP CREATE"
    assert command_name(COMMANDS["config_set"]) == "config|set"
    for method, spec in COMMANDS.items():
        name = command_name(spec)
        container = command_info(name.partition("|")[0])
        if "|" in name and container is not None and container.subcommands:
            assert command_info(name) is not None, method


def test_cluster_methods_split_a_batch_but_send_the_same_commands() -> None:
    assert METHODS["mget_nonatomic"].command == "MGET"
    assert METHODS["mset_nonatomic"].key_lists == ("mapping",)
    assert set(COMMANDS) < set(METHODS)


def test_a_methods_key_type_comes_from_its_command_or_its_redis_py_class() -> None:
    assert [method_key_type(m) for m in ("hset", "zadd", "pfadd", "bitop", "geoadd", "delete", "expire")] == [
        "hash",
        "zset",
        "string",
        "string",
        "zset",
        None,
        None,
    ]
    # commands newer than every server of the table: the redis-py class that defines the method says
    assert [method_key_type(m) for m in ("himport_set", "xnack", "sdiffcard", "arset", "nosuch")] == [
        "hash",
        "stream",
        "set",
        None,
        None,
    ]
