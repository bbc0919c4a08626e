"""The corpora under `projects/` and `fixtures/` are code to be checked, never tests to be run (a mini
project may have its own `tests/` with `conftest.py` and `test_*.py`, as real projects do)."""

collect_ignore = ["projects", "fixtures"]
