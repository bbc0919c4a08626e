"""SUP001 unused-suppression."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from rediscipline.model.code import UnusedSuppression
from rediscipline.model.finding import Violation
from rediscipline.model.report import RuleMeta
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import RuleContext, SuppressionRule, rule
from rediscipline.rules.options import RuleOptions

RULE_ID = "SUP001"
CODE_UNUSED = "unused"
CODE_UNKNOWN = "unknown-rule"
CODE_MALFORMED = "malformed"
_SHOWN_MAX = 80


@rule(
    "SUP001",
    "unused-suppression",
    title=("Unused or invalid suppression comment", "无效的抑制注释"),
    severity=Severity.WARNING,
    where=("code",),
    sources=(),
)
class UnusedSuppressionRule(SuppressionRule[RuleOptions]):
    """Checks for suppression comments that suppress nothing.

    It runs after every other rule and after the suppressions were applied: the suppression step
    (`rediscipline.suppress`) hands it what each comment left unused, and it judges that like any rule.

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

    def check(self, unused: Sequence[UnusedSuppression], ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        directive = unused[0].directive
        kinds = _kinds(unused, ctx)
        for kind in (CODE_UNUSED, CODE_UNKNOWN, CODE_MALFORMED):
            if kind in kinds:
                yield Violation(
                    kind, _message(kind, directive.whole_file, directive.text(), len(directive.codes), kinds[kind])
                )


def _kinds(unused: Sequence[UnusedSuppression], ctx: RuleContext[RuleOptions]) -> dict[str, list[str]]:
    """The codes of one directive to report, by kind: only rules enabled in this run are called unused, and a
    blanket directive only when every rule that checks code is enabled."""
    by_name = _names(ctx.catalog, ctx.memo)
    kinds: dict[str, list[str]] = {}
    for item in unused:
        code = item.code
        if code is None:
            code_rules = ctx.memo.get("code-rules")
            if code_rules is None:
                code_rules = ctx.memo["code-rules"] = frozenset(
                    rule_id for rule_id, meta in ctx.catalog.items() if "code" in meta.where and rule_id != RULE_ID
                )
            if code_rules <= ctx.enabled:
                kinds.setdefault(CODE_UNUSED, [])
        elif ":" in code:
            kinds.setdefault(CODE_MALFORMED, []).append(code)
        else:
            meta = by_name.get(code.upper()) or by_name.get(code.lower())
            if meta is None:
                kinds.setdefault(CODE_UNKNOWN, []).append(code)
            elif meta.id in ctx.enabled:
                kinds.setdefault(CODE_UNUSED, []).append(f"{meta.id} ({meta.slug})")
    return kinds


def _names(catalog: Mapping[str, RuleMeta], memo: dict[object, object]) -> dict[str, RuleMeta]:
    """Rules by id and by slug (ids upper case, slugs lower case, as the registry finds them)."""
    found = memo.get("names")
    if found is None:
        found = memo["names"] = {**{m.slug.lower(): m for m in catalog.values()}, **dict(catalog)}
    return found  # type: ignore[return-value]


def _message(kind: str, whole_file: bool, text: str, written: int, codes: list[str]) -> Text:
    shown_text = shown(f"# rediscipline: {text}")
    if kind == CODE_MALFORMED:
        comment = shown(f"# {codes[0]}")
        return Text(
            f"malformed suppression comment `{comment}`: write `# rediscipline: ignore[CMD001]`, "
            "`# rediscipline: ignore` or `# rediscipline: file-ignore[CMD001]`",
            f"抑制注释 `{comment}` 格式错误：请写成 `# rediscipline: ignore[CMD001]`、"
            "`# rediscipline: ignore` 或 `# rediscipline: file-ignore[CMD001]`",
        )
    if kind == CODE_UNKNOWN:
        names = ", ".join(repr(shown(c)) for c in codes)
        plural = "s" if len(codes) > 1 else ""
        return Text(
            f"unknown rule{plural} {names} in `{shown_text}`: use a rule id such as CMD001 or a slug such as "
            "keys-command (`rediscipline rules` lists them)",
            f"`{shown_text}` 中的规则 {names} 不存在：请使用规则编号（如 CMD001）或短名（如 keys-command），"
            "`rediscipline rules` 可列出全部规则",
        )
    where_en, where_zh = ("in this file", "在本文件中") if whole_file else ("here", "在此处")
    if not codes:
        return Text(
            f"unused suppression `{shown_text}`: no finding {where_en} to suppress; remove it",
            f"无效的抑制注释 `{shown_text}`：{where_zh}没有需要抑制的问题，请删除",
        )
    listed = ", ".join(codes)
    return Text(
        f"unused suppression in `{shown_text}`: {listed} reported nothing {where_en}; remove "
        + ("it" if len(codes) == written else "the unused code" + ("s" if len(codes) > 1 else "")),
        f"`{shown_text}` 中的 {listed} {where_zh}没有报告任何问题，请删除"
        + ("该注释" if len(codes) == written else "无用的规则编号"),
    )


def shown(text: str) -> str:
    """Comment text made safe to show on one line: control characters escaped, long text cut."""
    safe = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return safe if len(safe) <= _SHOWN_MAX else safe[: _SHOWN_MAX - 1] + "…"
