"""pytest settings for the code-check tests.

The folders under `projects/` are sample repositories that `test_projects.py` checks with rediscipline. Their
own `tests/test_*.py` files belong to those repositories (they import Django, GLIDE, pymemcache and the
sample packages), so this suite never collects them.
"""

collect_ignore = ["projects"]
