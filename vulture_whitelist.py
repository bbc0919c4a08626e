"""Names `vulture` reports as unused that are used, each where Python or a framework reaches them by name.

`make lint` runs vulture over src, tests, scripts and benchmarks with this file (pyproject.toml
[tool.vulture]). Only genuine false positives belong here; dead code is deleted instead. This file is read by
vulture, never imported or run.
"""

# PEP 562: Python calls a module's `__getattr__` for a missing attribute; rediscipline.api loads the live and
# dump adapters through it, so that `rediscipline keys` never imports redis-py or the RDB parser.
__getattr__  # src/rediscipline/api/__init__.py

# click commands: the group imports each by the attribute name written as a string in cli.main.COMMANDS;
# `create` is registered on the `baseline` group by its decorator, `eviction` and `expiry` on the `simulate` group.
check_command  # src/rediscipline/cli/check.py
keys_command  # src/rediscipline/cli/keys.py
diff_command  # src/rediscipline/cli/diff.py
fleet_command  # src/rediscipline/cli/fleet.py
traffic_command  # src/rediscipline/cli/traffic.py
rules_command  # src/rediscipline/cli/rules.py
rule_command  # src/rediscipline/cli/rules.py
create_command  # src/rediscipline/cli/baseline.py
simulate_command  # src/rediscipline/cli/simulate.py
eviction_command  # src/rediscipline/cli/simulate.py
expiry_command  # src/rediscipline/cli/simulate.py

# Renderers: rediscipline.render.RENDERERS imports each by its module and function name, written as strings.
render_github  # src/rediscipline/render/github.py

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

# The HTML page's view objects: the Jinja2 templates (src/rediscipline/render/html/templates/*.j2) read these
# fields by name, which vulture cannot see.
chart_notes  # render/html/__init__.py Page
wide  # render/html/__init__.py Page
families_of  # render/html/__init__.py Page
patterns_caption  # render/html/__init__.py Page
drill  # render/html/charts.py Bar
y  # render/html/charts.py Column
top_label  # render/html/charts.py ColumnChart
not_in_page  # render/html/findings.py ExampleView
severity_word  # render/html/findings.py OccurrenceView, RuleView
subject_title  # render/html/findings.py OccurrenceView
took  # render/html/header.py Header
score_class  # render/html/header.py Header
rules_ran  # render/html/header.py Header

# html.parser.HTMLParser calls the handler of a self-closing tag (`<line/>`) by name.
handle_startendtag  # tests/render/html/page_parts.py

# hatch_build.py: hatchling loads the build hook's class from the file named in pyproject.toml and calls its
# `initialize` and `finalize`; setuptools' build_ext reads the folders it is given as attributes.
CompiledCoreHook  # hatch_build.py
initialize  # hatch_build.py CompiledCoreHook
finalize  # hatch_build.py CompiledCoreHook
build_lib  # hatch_build.py, setuptools build_ext
build_temp  # hatch_build.py, setuptools build_ext

# Read by the compiled core (engine/_kernel.pyx), which vulture does not scan.
gated_accumulators  # engine/runner.py NameVerdict
