"""Library entry points: each returns a finished `Report` that any renderer can write.

Example::

    from rediscipline.api import check_key_names, scan_live, LiveScanOptions, scan_rdb, RdbScanOptions
    report = check_key_names([b"user:profile:id:1", b"User Name"])
    report = scan_live(LiveScanOptions("redis://127.0.0.1:6379"))
    report = scan_rdb(RdbScanOptions(("/backup/dump.rdb",)))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rediscipline.api.defaults import settings_for

if TYPE_CHECKING:
    from rediscipline.api.keys import KeyInput, check_key_names, check_keys
    from rediscipline.api.live import LiveScanOptions, scan_live
    from rediscipline.api.rdb import RdbScanOptions, scan_rdb

__all__ = [
    "KeyInput",
    "LiveScanOptions",
    "RdbScanOptions",
    "check_key_names",
    "check_keys",
    "scan_live",
    "scan_rdb",
    "settings_for",
]


def __getattr__(name: str) -> Any:
    """Load a source only when it is used: `rediscipline keys` never needs redis-py or the RDB parser, and a
    scan never needs the key-list reader."""
    if name in ("KeyInput", "check_key_names", "check_keys"):
        from rediscipline.api import keys

        return getattr(keys, name)
    if name in ("LiveScanOptions", "scan_live"):
        from rediscipline.api import live

        return getattr(live, name)
    if name in ("RdbScanOptions", "scan_rdb"):
        from rediscipline.api import rdb

        return getattr(rdb, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
