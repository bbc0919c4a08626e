"""Suppressions and baselines: what the team chose not to see, applied to finished findings (no I/O but the
baseline file, no printing). It works on model Findings and directive facts only: it never imports the rules
or the engine.

* `apply`: inline `# rediscipline: ignore[...]` / `file-ignore[...]` directives and `per-file-ignores` globs;
  the directives that suppressed nothing are handed back for the engine to judge with SUP001;
* `baseline`: write and read the baseline file, and hide the findings it lists (matched by fingerprint);
* `paths`: the gitignore-style globs of `per-file-ignores`.
"""
