"""KEY009 empty-segment."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, Span, covered_by, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, literal_runs, quoted, show
from rediscipline.rules.options import RuleOptions

_SEPARATORS = b":#"
# Two separators in a row.
_DOUBLED = re.compile(rb"[:#]{2,}")


@rule(
    "KEY009",
    "empty-segment",
    title=("Empty level in a key name", "键名中有空层级"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "004 §2.2 使用冒号分隔层级",
        "001 §1.2 可读性和可管理性",
        "000 §Key 名字如何设计 — 命名",
    ),
    overlaps=NAME_OVERLAPS,
)
class EmptySegment(NameRule[RuleOptions]):
    """Checks for empty levels between separators.

    ## What it does
    Reports key names with an empty level: two separators in a row (`a::b`, `a##b`, `a:#b`, code
    `empty`), a name that starts with a separator (`:a`, code `leading`) or ends with one (`a:`,
    `uid#0#`, code `trailing`). Both `:` (the level separator) and `#` (000's split-key separator) count.
    An empty name is reported as `empty` too.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    Every part between separators should carry one meaning of its own. An empty part means a variable was
    empty when the name was built (`f"user:{uid}:cart"` with `uid = ""`), so unrelated data can end up
    under the same key, or that a prefix was joined twice (`app:` + `:user`). Framework defaults that join
    an empty prefix produce leading separators. Tools that split names on `:` see a level that is not there.

    ## Example
    ```
    user::profile:12345
    :user:profile:12345
    user:profile:
    uid#0#
    ```

    ## Use instead
    ```
    user:profile:12345
    uid#0#0
    ```

    ## Options
    None.

    ## Source
    - 004 §2.2: `:` separates the levels, and each part expresses one independent meaning.
    - 001 §1.2: `业务名:表名:id`, every level named.
    - 000 §Key 名字如何设计 — 命名: `#` separates the parts of a split key (`video_info#olympic#2020-08-29#1`).
    """

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        pattern = key.pattern
        shown = show(pattern)
        if not pattern:
            yield Violation("empty", Text("the key name is empty", "键名为空"))
            return
        if pattern[0] in _SEPARATORS:
            sep = chr(pattern[0])
            yield Violation(
                "leading",
                Text(
                    f"`{shown}` starts with `{sep}`: its first level is empty (an empty prefix was joined?)",
                    f"`{shown}` 以 `{sep}` 开头：第一个层级为空（拼接了空前缀？）",
                ),
                spans=((0, 1),),
            )
        levels = _empty_levels(key)
        if levels:
            yield _empty(shown, levels)
        if pattern[-1] in _SEPARATORS and len(pattern) > 1:
            sep = chr(pattern[-1])
            end = sum(len(part) if isinstance(part, bytes) else 1 for part in key.parts)
            yield Violation(
                "trailing",
                Text(
                    f"`{shown}` ends with `{sep}`: its last level is empty (a missing id?)",
                    f"`{shown}` 以 `{sep}` 结尾：最后一个层级为空（缺少 ID？）",
                ),
                spans=((end - 1, end),),
            )

    def narrow(
        self,
        violation: Violation,
        covered: Sequence[Span],
        key: KeyTemplate,
        key_type: str | None,
        ctx: RuleContext[RuleOptions],
    ) -> Violation | None:
        """The `empty` violation lists runs of separators: it is rebuilt from the empty levels left uncovered."""
        if violation.code != "empty" or not violation.spans:
            return super().narrow(violation, covered, key, key_type, ctx)
        left = [(pair, span) for pair, span in _empty_levels(key) if not covered_by(span, covered)]
        return _empty(show(key.pattern), left) if left else None


def _empty_levels(key: KeyTemplate) -> list[tuple[bytes, Span]]:
    """Each empty level between separators, as the two separators around it with their span (`a:::b` has two,
    which share the middle `:`). Separators only come from literal text, so separators that touch in the
    template touch in every key of it."""
    return [
        (run.text[index : index + 2], (run.at + index, run.at + index + 2))
        for run in literal_runs(key)
        for match in _DOUBLED.finditer(run.text)
        for index in range(match.start(), match.end() - 1)
    ]


def _empty(shown: str, levels: list[tuple[bytes, Span]]) -> Violation:
    """The violation naming the runs of separators that `levels` (from `_empty_levels`) form."""
    runs: list[tuple[bytes, int]] = []  # each run of separators, with the end of its span
    for pair, (start, end) in levels:
        if runs and runs[-1][1] == start + 1:
            runs[-1] = (runs[-1][0] + pair[1:], end)
        else:
            runs.append((pair, end))
    listed = quoted(run.decode("ascii") for run, _end in runs)
    return Violation(
        "empty",
        Text(
            f"`{shown}` has an empty level between separators ({listed}): a part of the name was empty "
            "when it was built",
            f"`{shown}` 的分隔符之间有空层级（{listed}）：拼接键名时某个部分为空",
        ),
        spans=tuple(span for _pair, span in levels),
    )
