"""The plugin while it is on: one collector for the session, the clients made during it guarded with it, each
test's call checked in strict mode, and the report at the end.

The collector is made at `pytest_configure` in `record` mode with the project's settings (or
`--rediscipline-config`) and is the guard's default collector for the session, so `guard_report()` in a test
reads it. Every redis-py / valkey client made from then on is guarded: in fixtures, in tests, and in test
modules as they are imported at collection; clients made before (by a `conftest.py` at the root, at import)
are not. A test's `rediscipline` marker leaves its rules out of the record while the test runs (its
fixtures' setup and teardown included); in strict mode, the violations the test's call made (not its
fixtures') at or above the fail-on severity fail it.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import ExitStack
from dataclasses import dataclass, field

import pytest

from rediscipline.guard import Collector, guard_new_clients, new_collector, report_of, reset_default
from rediscipline.guard.recent import RecentViolations
from rediscipline.model.report import Report
from rediscipline.pytest_plugin.failing import FailingRules
from rediscipline.pytest_plugin.marker import EXEMPT, exempt_rules
from rediscipline.pytest_plugin.options import PluginOptions
from rediscipline.pytest_plugin.output import rendered, write_report


@dataclass
class GuardedSession:
    """The running plugin (registered by `pytest_configure` when the plugin is on)."""

    config: pytest.Config
    options: PluginOptions
    collector: Collector
    recent: RecentViolations
    failing: FailingRules
    guarding: ExitStack
    report: Report | None = None
    written: str | None = None
    problems: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, config: pytest.Config, options: PluginOptions) -> GuardedSession:
        """Make the session's collector and start guarding the clients made from now on."""
        try:
            collector = new_collector("record", config=options.config)
        except ValueError as error:  # a convention file's error (ConfigError), one line
            raise pytest.UsageError(f"rediscipline: {error}") from None
        recent = collector.keep_recent()
        failing = FailingRules(collector.settings, str(collector.sites.root), options.fail_on)
        guarding = ExitStack()
        guarding.enter_context(guard_new_clients(collector))
        reset_default(collector)
        return cls(config, options, collector, recent, failing, guarding)

    # -- tests ---------------------------------------------------------------------------------------------

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            exempt = exempt_rules(item, self.collector.registry)
            if exempt:
                item.stash[EXEMPT] = exempt

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        self.recent.exempt = item.stash.get(EXEMPT, frozenset())
        try:
            return (yield)
        finally:
            self.recent.exempt = frozenset()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self) -> Generator[None, object, object]:
        if not self.options.strict:
            return (yield)
        mark = self.recent.serial
        result = yield  # a test that raised fails (or skips) as it is; its violations are in the report
        recorded, dropped = self.recent.since(mark)
        breaks = self.failing.breaks(recorded)
        if breaks:
            pytest.fail(self.failing.message(breaks, dropped), pytrace=False)
        return result

    # -- the end of the session ----------------------------------------------------------------------------

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.report = report = report_of(self.collector)
        path = self.options.report
        if path is None:
            return
        try:
            write_report(report, path, self.options.report_format, self.collector.settings.lang)
        except OSError as error:
            self.problems.append(f"rediscipline: cannot write {path}: {error.strerror or error}")
            session.exitstatus = pytest.ExitCode.USAGE_ERROR
            return
        self.written = f"rediscipline: {self.options.report_format} report written to {path}"

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.report is None:
            return
        writer = self.config.get_terminal_writer()
        terminalreporter.write_sep("=", "rediscipline")
        terminalreporter.write(rendered(self.report, "text", self.collector.settings.lang, writer.hasmarkup))
        for line in (self.written, *self.problems):
            if line is not None:
                terminalreporter.write_line(line, red=line in self.problems)

    def pytest_unconfigure(self) -> None:
        self.guarding.close()
        reset_default()
