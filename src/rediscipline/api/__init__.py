"""Library entry points: each returns a finished `Report` that any renderer can write.

Example::

    from rediscipline.api import check_key_names, scan_live, LiveScanOptions
    report = check_key_names([b"user:profile:id:1", b"User Name"])
    report = scan_live(LiveScanOptions("redis://127.0.0.1:6379"))
"""

from __future__ import annotations

from rediscipline.api.common import settings_for
from rediscipline.api.keys import KeyInput, check_key_names, check_keys
from rediscipline.api.live import LiveScanOptions, scan_live

__all__ = ["KeyInput", "LiveScanOptions", "check_key_names", "check_keys", "scan_live", "settings_for"]
