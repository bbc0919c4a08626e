"""The pytest plugin (entry point `pytest11`): off unless `--rediscipline` is given.

`pytest --rediscipline` guards every redis-py and valkey client made during the session, in `record` mode
with the project's settings, and ends the session with the report of the conventions its commands broke;
`--rediscipline=strict` also fails the test whose call broke a rule at or above `--rediscipline-fail-on`.
`@pytest.mark.rediscipline(ignore=[...])` exempts one test from rules. See docs/guard.md, "The pytest plugin".

Off, the plugin adds its options and its marker and nothing else: no client is patched, nothing is printed,
and the guard is not imported (`session` is, only when the plugin is on).
"""

from __future__ import annotations

import pytest

from rediscipline.pytest_plugin.options import OFF, add_options, read_mode, read_options, rewrite_bare_flag

#: The plugin's hooks are new-style wrappers (pluggy 1.2, which pytest requires from 8 on).
MINIMUM_PYTEST = 8
#: The name the running plugin is registered under (`config.pluginmanager.get_plugin(PLUGIN_NAME)`).
PLUGIN_NAME = "rediscipline-guard"
MARKER = (
    "rediscipline(ignore=[RULES]): the rediscipline plugin leaves these rules' violations made while the test "
    "runs out of its report and never fails the test for them (ids, families, slugs or ALL)"
)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(args: list[str]) -> None:
    rewrite_bare_flag(args)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER)
    mode = read_mode(config)
    if mode == OFF:
        return
    if int(pytest.__version__.split(".", 1)[0]) < MINIMUM_PYTEST:
        raise pytest.UsageError(f"--rediscipline needs pytest {MINIMUM_PYTEST} or later, not {pytest.__version__}")
    options = read_options(config, mode)
    from rediscipline.pytest_plugin.session import GuardedSession

    config.pluginmanager.register(GuardedSession.start(config, options), PLUGIN_NAME)
