"""Names `vulture` reports as unused that are used, each where Python or a framework reaches them by name.

`make lint` runs vulture over src, tests, scripts and benchmarks with this file (pyproject.toml
[tool.vulture]). Only genuine false positives belong here; dead code is deleted instead. This file is read by
vulture, never imported or run.
"""

# PEP 562: Python calls a module's `__getattr__` for a missing attribute; rediscipline.api loads the live and
# dump adapters through it, so that `rediscipline keys` never imports redis-py or the RDB parser.
__getattr__  # src/rediscipline/api/__init__.py

# click commands: the group imports each by the attribute name written as a string in cli.main.COMMANDS;
# `create` is registered on the `baseline` group by its decorator.
check_command  # src/rediscipline/cli/check.py
keys_command  # src/rediscipline/cli/keys.py
diff_command  # src/rediscipline/cli/diff.py
fleet_command  # src/rediscipline/cli/fleet.py
rules_command  # src/rediscipline/cli/rules.py
rule_command  # src/rediscipline/cli/rules.py
create_command  # src/rediscipline/cli/baseline.py

# click.Group.format_commands, overridden: click calls it to write the command list of `--help`.
format_commands  # src/rediscipline/cli/main.py

# pytest reads these module-level names: `collect_ignore` in a conftest, `pytestmark` in a test module.
collect_ignore  # tests/code/conftest.py
pytestmark  # tests/code/test_stdlib.py, tests/rdb/test_robustness.py

# tests/support/dataset.py picks a value pool by the key type's name: getattr(pools, "zset").
zset  # tests/support/dataset.py

# benchmarks/rdb_datasets.py: a field of the dataset record written to its JSON file by dataclasses.asdict.
build_seconds  # benchmarks/rdb_datasets.py

# scripts/library_keyspace/caches_flask.py names memoized functions as an application's module would; Flask-Caching
# reads `__qualname__` into its memoize version keys.
__qualname__  # scripts/library_keyspace/caches_flask.py

# pytest calls a plugin's hooks by name: the pytest plugin's module (the `pytest11` entry point) and the object it
# registers while it is on; `session.exitstatus` is read by pytest after `pytest_sessionfinish`. Test modules
# that run inner sessions load the `pytester` plugin by `pytest_plugins`.
pytest_addoption  # src/rediscipline/pytest_plugin/__init__.py
pytest_load_initial_conftests  # src/rediscipline/pytest_plugin/__init__.py
pytest_configure  # src/rediscipline/pytest_plugin/__init__.py
pytest_collection_modifyitems  # src/rediscipline/pytest_plugin/session.py
pytest_runtest_protocol  # src/rediscipline/pytest_plugin/session.py
pytest_runtest_call  # src/rediscipline/pytest_plugin/session.py
pytest_sessionfinish  # src/rediscipline/pytest_plugin/session.py
pytest_terminal_summary  # src/rediscipline/pytest_plugin/session.py
pytest_unconfigure  # src/rediscipline/pytest_plugin/session.py
exitstatus  # src/rediscipline/pytest_plugin/session.py
pytest_plugins  # tests/pytest_plugin/test_session.py, tests/pytest_plugin/test_off_and_options.py

# html.parser.HTMLParser calls these by name as it reads a page: the reader of rendered Markdown in tests.
handle_starttag  # tests/render/gfm.py
handle_endtag  # tests/render/gfm.py
handle_data  # tests/render/gfm.py
