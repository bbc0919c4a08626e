"""Suppressions and baselines: what the team chose not to see, applied to finished findings (no I/O but the
baseline file, no printing).

* `apply`: inline `# rediscipline: ignore[...]` / `file-ignore[...]` directives and `per-file-ignores` globs;
* `unused`: directives that suppressed nothing become SUP001 `unused-suppression` findings;
* `baseline`: write and read the baseline file, and hide the findings it lists (matched by fingerprint);
* `paths`: the gitignore-style globs of `per-file-ignores`.
"""
