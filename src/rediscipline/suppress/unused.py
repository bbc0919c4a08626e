"""Turn suppressions that suppressed nothing into SUP001 `unused-suppression` findings.

A stale `# rediscipline: ignore[CMD001]` hides the next real problem on that line, so it is reported like
ruff's unused `noqa` (RUF100). A team may run with a subset of the rules (`--select CMD`), so only codes of
rules enabled in this run are reported as unused, and a blanket `ignore` only when every rule that checks
code is enabled; unknown rules and malformed directives are reported whatever is enabled.

The finding sits on the comment. Its fingerprint comes from the file and the directive's normalised text
(not its line), numbered in file order when the same directive repeats, so a baseline keeps matching it
when lines move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rediscipline.engine.fingerprint import site_fingerprint
from rediscipline.model.code import Directive
from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_CODE, Location
from rediscipline.model.text import Text
from rediscipline.rules.base import ConfiguredRule
from rediscipline.rules.registry import Registry
from rediscipline.suppress.apply import UNUSED_RULE, Unused

CODE_UNUSED = "unused"
CODE_UNKNOWN = "unknown-rule"
CODE_MALFORMED = "malformed"
_SHOWN_MAX = 80


def unused_findings(unused: Iterable[Unused], rules: Sequence[ConfiguredRule], registry: Registry) -> list[Finding]:
    """SUP001 findings for `unused` (from `suppress`), in file order; none when SUP001 is not enabled.

    `rules` are the rules enabled in this run (`Settings.rules`): they decide which codes may be called
    unused and SUP001's severity.
    """
    reporter = next((r for r in rules if r.id == UNUSED_RULE), None)
    if reporter is None:
        return []
    enabled = {r.id for r in rules}
    code_rules = {c.meta.id for c in registry if "code" in c.meta.where and c.meta.id != UNUSED_RULE}
    blanket_reportable = code_rules <= enabled
    grouped: dict[tuple[str, Directive], dict[str, list[str]]] = {}
    for path, directive, code in unused:
        kinds = grouped.setdefault((path, directive), {})
        if code is None:
            if blanket_reportable:
                kinds.setdefault(CODE_UNUSED, [])
        elif ":" in code:
            kinds.setdefault(CODE_MALFORMED, []).append(code)
        else:
            found = registry.find(code)
            if found is None:
                kinds.setdefault(CODE_UNKNOWN, []).append(code)
            elif found.meta.id in enabled:
                kinds.setdefault(CODE_UNUSED, []).append(f"{found.meta.id} ({found.meta.slug})")
    out: list[Finding] = []
    seen: dict[str, int] = {}
    ordered = sorted(grouped.items(), key=lambda item: (item[0][0], item[0][1].line, item[0][1].column))
    for (path, directive), kinds in ordered:
        for kind in (CODE_UNUSED, CODE_UNKNOWN, CODE_MALFORMED):
            if kind not in kinds:
                continue
            location = Location(
                SOURCE_CODE,
                path,
                line=directive.line,
                column=directive.column,
                end_line=directive.line,
                context=directive_text(directive),
            )
            base = site_fingerprint(UNUSED_RULE, kind, SOURCE_CODE, location)
            seen[base] = occurrence = seen.get(base, 0) + 1
            out.append(
                Finding(
                    rule_id=UNUSED_RULE,
                    code=kind,
                    severity=reporter.severity,
                    message=_message(kind, directive, kinds[kind]),
                    location=location,
                    fingerprint=base if occurrence == 1 else f"{base}.{occurrence}",
                )
            )
    return out


def directive_text(directive: Directive) -> str:
    """The directive as it would be written, normalised: `ignore[CMD001,key-length]`, `file-ignore`."""
    verb = "file-ignore" if directive.whole_file else "ignore"
    if len(directive.codes) == 1 and ":" in directive.codes[0]:
        return directive.codes[0]
    return f"{verb}[{','.join(directive.codes)}]" if directive.codes else verb


def _message(kind: str, directive: Directive, codes: list[str]) -> Text:
    written = shown(f"# rediscipline: {directive_text(directive)}")
    if kind == CODE_MALFORMED:
        text = shown(f"# {codes[0]}")
        return Text(
            f"malformed suppression comment `{text}`: write `# rediscipline: ignore[CMD001]`, "
            "`# rediscipline: ignore` or `# rediscipline: file-ignore[CMD001]`",
            f"抑制注释 `{text}` 格式错误：请写成 `# rediscipline: ignore[CMD001]`、"
            "`# rediscipline: ignore` 或 `# rediscipline: file-ignore[CMD001]`",
        )
    if kind == CODE_UNKNOWN:
        names = ", ".join(repr(shown(c)) for c in codes)
        plural = "s" if len(codes) > 1 else ""
        return Text(
            f"unknown rule{plural} {names} in `{written}`: use a rule id such as CMD001 or a slug such as "
            "keys-command (`rediscipline rules` lists them)",
            f"`{written}` 中的规则 {names} 不存在：请使用规则编号（如 CMD001）或短名（如 keys-command），"
            "`rediscipline rules` 可列出全部规则",
        )
    where_en, where_zh = ("in this file", "在本文件中") if directive.whole_file else ("here", "在此处")
    if not codes:
        return Text(
            f"unused suppression `{written}`: no finding {where_en} to suppress; remove it",
            f"无效的抑制注释 `{written}`：{where_zh}没有需要抑制的问题，请删除",
        )
    listed = ", ".join(codes)
    return Text(
        f"unused suppression in `{written}`: {listed} reported nothing {where_en}; remove "
        + ("it" if len(codes) == len(directive.codes) else "the unused code" + ("s" if len(codes) > 1 else "")),
        f"`{written}` 中的 {listed} {where_zh}没有报告任何问题，请删除"
        + ("该注释" if len(codes) == len(directive.codes) else "无用的规则编号"),
    )


def shown(text: str) -> str:
    """Comment text made safe to show on one line: control characters escaped, long text cut."""
    safe = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return safe if len(safe) <= _SHOWN_MAX else safe[: _SHOWN_MAX - 1] + "…"


__all__ = ["CODE_MALFORMED", "CODE_UNKNOWN", "CODE_UNUSED", "directive_text", "unused_findings"]
