"""Which of the violations a test's call made fail it in strict mode, and the failure message.

A violation fails the test when its severity is at or above `--rediscipline-fail-on` and the session report
would show it: the convention file's `per-file-ignores` and its `tests` mode (`errors-only`, `ignore`) are
applied to its call site as the report applies them, so strict mode never fails a test for a finding the
report leaves out. Violations are grouped per rule, code and call site, with how many times each happened.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rediscipline.guard.recent import Recorded
from rediscipline.model.finding import TESTS_MODES
from rediscipline.model.severity import Severity
from rediscipline.settings.layering import Settings
from rediscipline.suppress.paths import PathIgnores
from rediscipline.suppress.test_code import TestPaths

_TESTS_ERRORS_ONLY, _TESTS_IGNORE = TESTS_MODES[1], TESTS_MODES[2]
#: Broken rules a failure message lists (the rest are counted).
SHOWN = 20


@dataclass(slots=True)
class Break:
    """A rule a test broke at one call site, `times` times."""

    rule_id: str
    severity: Severity
    message: str
    site: str
    times: int = 1


class FailingRules:
    """Picks a test's failing violations with the session's settings; `root`: the folder call sites are
    relative to (the collector's)."""

    def __init__(self, settings: Settings, root: str, fail_on: Severity) -> None:
        self.fail_on = fail_on
        self.lang = settings.lang
        self.tests = settings.tests
        self._ignores = PathIgnores(settings.file_ignores, root)
        self._is_test = TestPaths(settings.test_paths, root)

    def breaks(self, recorded: Iterable[Recorded]) -> list[Break]:
        """The failing violations among `recorded`, grouped per rule, code and call site, in order."""
        found: dict[tuple[str, str, str | None, int | None], Break] = {}
        for item in recorded:
            violation, site = item.violation, item.site
            if violation.severity < self.fail_on or (site.path is not None and self._left_out(site.path, item)):
                continue
            key = (violation.rule_id, violation.code, site.path, site.line)
            known = found.get(key)
            if known is not None:
                known.times += 1
                continue
            where = f"{site.path}:{site.line}" if site.line is not None else str(site.path)
            message = violation.message.in_(self.lang)
            found[key] = Break(violation.rule_id, violation.severity, message, where)
        return list(found.values())

    def _left_out(self, path: str, item: Recorded) -> bool:
        """Whether the report leaves this violation out: a `per-file-ignores` glob, or the `tests` mode."""
        rule_id, severity = item.violation.rule_id, item.violation.severity
        if self._ignores and rule_id in self._ignores.ids(path):
            return True
        if self.tests == _TESTS_IGNORE or (self.tests == _TESTS_ERRORS_ONLY and severity < Severity.ERROR):
            return self._is_test(path)
        return False

    def message(self, breaks: list[Break], dropped: int = 0) -> str:
        """The failure message: each broken rule with its message and call site, worst first."""
        total = sum(item.times for item in breaks)
        noun = "violation" if total == 1 else "violations"
        lines = [f"rediscipline: {total} {noun} of the conventions at or above {self.fail_on.label}:"]
        ordered = sorted(breaks, key=lambda item: -item.severity)
        for item in ordered[:SHOWN]:
            times = f" (×{item.times})" if item.times > 1 else ""
            lines.append(f"  {item.site}: {item.rule_id} [{item.severity.label}] {item.message}{times}")
        if len(ordered) > SHOWN:
            lines.append(f"  … and {len(ordered) - SHOWN} more rules and call sites (see the rediscipline report)")
        if dropped:
            lines.append(
                f"  ({dropped:,} earlier violations of this test were not kept to be shown; the report counts them)"
            )
        return "\n".join(lines)
