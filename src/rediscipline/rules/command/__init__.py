"""CMD: commands, one module each; the banned commands (CMD001-CMD004) are rows of one table."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.command.banned_commands import AdminCommand, FlushCommand, KeysCommand, MonitorCommand
from rediscipline.rules.command.delete_collection import DeleteCollection
from rediscipline.rules.command.eval_script import EvalScript
from rediscipline.rules.command.full_scan_command import FullScanCommand
from rediscipline.rules.command.scan_count import ScanCount
from rediscipline.rules.command.select_command import SelectCommand
from rediscipline.rules.command.transaction import Transaction

#: Every CMD rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    KeysCommand,  # CMD001
    FlushCommand,  # CMD002
    MonitorCommand,  # CMD003
    AdminCommand,  # CMD004
    FullScanCommand,  # CMD005
    SelectCommand,  # CMD006
    Transaction,  # CMD007
    DeleteCollection,  # CMD008
    EvalScript,  # CMD009
    ScanCount,  # CMD010
)
