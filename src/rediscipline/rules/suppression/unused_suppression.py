"""SUP001 unused-suppression."""

from __future__ import annotations

from rediscipline.model.severity import Severity
from rediscipline.rules.base import Rule, rule
from rediscipline.rules.options import RuleOptions


@rule(
    "SUP001",
    "unused-suppression",
    title=("Unused or invalid suppression comment", "无效的抑制注释"),
    severity=Severity.WARNING,
    where=("code",),
    sources=(),
)
class UnusedSuppression(Rule[RuleOptions]):
    """Checks for suppression comments that suppress nothing.

    This rule judges no Redis fact: it exists so that it can be selected, ignored, given a severity and
    documented like any other. The suppression step reports it after the other rules have run
    (`rediscipline.suppress.unused`).

    ## What it does
    Reports a `# rediscipline: ignore[...]` or `# rediscipline: file-ignore[...]` comment, or one code in
    it, that suppressed no finding in this run (code `unused`); a code that names no rule (code
    `unknown-rule`); and a comment that starts with `rediscipline:` but is not a valid directive (code
    `malformed`), such as `# rediscipline: ignore[` or `# rediscipline: ignore CMD001`.

    Only codes of rules enabled in this run are reported as unused, so a run with `--select CMD` does not
    call a `key-length` suppression stale; a bare `ignore` is reported only when every rule that checks
    code is enabled. Unknown and malformed codes are always reported.

    ## Why is this bad?
    A suppression outlives the problem it hid. Once the code is fixed or moved, the comment stays behind
    and silently hides the next real problem on that line. A typo in a rule id, or a directive the tool
    cannot read, suppresses nothing while its author believes it does.

    ## Example
    ```python
    # The KEYS call was replaced by SCAN, but the suppression stayed:
    for key in r.scan_iter(match="user:*", count=500):  # rediscipline: ignore[CMD001]
        ...
    r.hgetall(name)  # rediscipline: ignore[CMD0005]
    ```

    ## Use instead
    ```python
    for key in r.scan_iter(match="user:*", count=500):
        ...
    r.hgetall(name)  # rediscipline: ignore[CMD005]
    ```
    To keep a suppression on purpose, name this rule in it too: `# rediscipline: ignore[CMD001, SUP001]`,
    or `# rediscipline: file-ignore[SUP001]` for a whole file.

    ## Options
    None. The severity can be set as for any rule: `[rules.unused-suppression] severity = "error"`.

    ## Source
    No convention document: this rule keeps the tool's own suppression comments honest, as ruff's
    RUF100 (unused `noqa`) does for Python linters.
    """
