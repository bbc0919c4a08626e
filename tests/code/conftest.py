"""The corpora under `projects/` and `fixtures/` are code to be checked, never tests to be run: a sample
project has its own `tests/` with `conftest.py` and `test_*.py` files, as real projects do, which import
Django, GLIDE, pymemcache and the sample packages."""

collect_ignore = ["projects", "fixtures"]
