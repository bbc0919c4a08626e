"""The violations a collector recorded lately, numbered in order, for a caller that watches a run piece by piece.

The pytest plugin asks what each test broke: it reads `serial` before the test and `since(serial)` after
it. Only the last `limit` violations are kept (older ones are dropped, and `since` says how many of those it
cannot hand out), so memory stays bounded whatever the traffic. While `exempt` names rules, their violations
are left out of the collector's record altogether (a test's `rediscipline(ignore=...)` marker): not
recorded, not warned, logged or raised, not kept here.

A collector keeps nothing of this unless `Collector.keep_recent()` is called.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rediscipline.engine.groups import ResolvedViolation
from rediscipline.model.location import Location

if TYPE_CHECKING:
    from rediscipline.engine.runtime import Violations
    from rediscipline.guard.judging import Found

#: Violations kept unless told otherwise: a few MB at most.
RECENT_LIMIT = 10_000


@dataclass(frozen=True, slots=True)
class Recorded:
    """One violation as a command made it: the rule's verdict, the key pattern and command it is about, and
    the application's call site."""

    violation: ResolvedViolation
    pattern: bytes | None
    command: str
    site: Location


class RecentViolations:
    """The last `limit` violations a collector recorded, each with its serial number (1, 2, ...)."""

    def __init__(self, limit: int = RECENT_LIMIT) -> None:
        if limit < 1:
            raise ValueError(f"the number of recent violations kept must be positive, not {limit}")
        self._kept: deque[tuple[int, Recorded]] = deque(maxlen=limit)
        self._lock = threading.Lock()
        #: The serial number of the last violation recorded (0: none yet).
        self.serial = 0
        #: Rule ids whose violations are left out of the record while set.
        self.exempt: frozenset[str] = frozenset()

    def add(self, found: Found) -> Violations:
        """Number and keep `found`'s violations; return those the collector records (the exempt left out)."""
        exempt = self.exempt
        violations = found.violations
        if exempt:
            violations = tuple(violation for violation in violations if violation.rule_id not in exempt)
        if violations:
            with self._lock:
                for violation in violations:
                    self.serial += 1
                    self._kept.append((self.serial, Recorded(violation, found.pattern, found.command, found.site)))
        return violations

    def since(self, mark: int) -> tuple[list[Recorded], int]:
        """The violations recorded after serial `mark` that are still kept, oldest first, and how many were
        recorded after it but already dropped."""
        newer: list[Recorded] = []
        with self._lock:
            last = self.serial
            for serial, recorded in reversed(self._kept):
                if serial <= mark:
                    break
                newer.append(recorded)
        newer.reverse()
        return newer, max(0, last - mark - len(newer))
