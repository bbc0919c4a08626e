"""Library entry points: each returns a finished `Report` that any renderer can write.

Example::

    from rediscipline.api import check_key_names, scan_live, LiveScanOptions
    report = check_key_names([b"user:profile:id:1", b"User Name"])
    report = scan_live(LiveScanOptions("redis://127.0.0.1:6379"))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rediscipline.api.common import settings_for
from rediscipline.api.keys import KeyInput, check_key_names, check_keys

if TYPE_CHECKING:
    from rediscipline.api.live import LiveScanOptions, scan_live

__all__ = ["KeyInput", "LiveScanOptions", "check_key_names", "check_keys", "scan_live", "settings_for"]


def __getattr__(name: str) -> Any:
    """Load the live scan (and redis-py with it) only when it is used: `rediscipline keys` never needs it."""
    if name in ("LiveScanOptions", "scan_live"):
        from rediscipline.api import live

        return getattr(live, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
