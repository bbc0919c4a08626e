"""The runtime guard: the conventions checked on every command a running application sends through redis-py.

    from rediscipline.guard import guard, guard_report
    r = guard(redis.Redis(), mode="warn")      # or "log", "raise", "record"
    ...
    report = guard_report(r)                  # the usual Report, for every renderer

See `guard.api` for the entry points, `guard.collector` for the modes and `guard.fixes` for the opt-in fixes.
"""

from rediscipline.guard.api import (
    collector_of,
    default_collector,
    guard,
    guard_new_clients,
    guard_report,
    new_collector,
    report_of,
    reset_default,
    unguard,
)
from rediscipline.guard.collector import MODES, Collector
from rediscipline.guard.errors import ConventionViolation, ConventionWarning, GuardError
from rediscipline.guard.fixes import FixError, Fixes

__all__ = [
    "MODES",
    "Collector",
    "ConventionViolation",
    "ConventionWarning",
    "FixError",
    "Fixes",
    "GuardError",
    "collector_of",
    "default_collector",
    "guard",
    "guard_new_clients",
    "guard_report",
    "new_collector",
    "report_of",
    "reset_default",
    "unguard",
]
