"""Commands named by rule options are commands Redis has; CMD005's are whole-collection reads by the table."""

from __future__ import annotations

from rediscipline.redis_meta.commands import command_info
from rediscipline.redis_meta.records import READS_WHOLE
from rediscipline.rules.command.banned_commands import BANNED, AdminCommandOptions
from rediscipline.rules.command.full_scan_command import RANGE_COMMANDS, FullScanOptions


def test_full_scan_defaults_read_whole_collections() -> None:
    for name in FullScanOptions().commands:
        info = command_info(name)
        assert info is not None and info.reads == READS_WHOLE, name
    assert set(RANGE_COMMANDS) == {
        "lrange", "zrange", "zrevrange", "zrangebyscore", "zrevrangebyscore", "zrangebylex", "zrevrangebylex",
    }  # fmt: skip


def test_banned_commands_are_known_and_admin_defaults_are_operator_tools() -> None:
    options = AdminCommandOptions()
    for name in (*options.commands, *options.application_commands, *(c for row in BANNED for c in row.commands)):
        assert command_info(name) is not None, name
    assert [row.id for row in BANNED] == ["CMD001", "CMD002", "CMD003", "CMD004"]
    for name in options.commands:
        info = command_info(name)
        assert info is not None and info.is_admin and info.is_dangerous, name
