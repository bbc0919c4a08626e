"""KEY008 segment-count."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, show, split_parts
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class SegmentCountOptions(RuleOptions):
    min_segments: int = option(2, "Fewest levels a key name must have (1 = no lower bound).", minimum=1)
    max_segments: int = option(6, "Most `:`-separated levels a key name may have (0 = no upper bound).", minimum=0)
    flat_separators: tuple[str, ...] = option(
        ("#", "_"),
        "In a key name without any `:`, these characters separate levels for the lower bound (000: `uid#0#0`).",
    )


@rule(
    "KEY008",
    "segment-count",
    title=("Too few or too many key levels", "键名层级过少或过多"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "001 §1.2 可读性和可管理性",
        "002 §规范一：key 的命名规范",
        "004 §1 命名格式",
        "004 §5.2 避免的问题",
    ),
    overlaps=NAME_OVERLAPS,
)
class SegmentCount(NameRule[SegmentCountOptions]):
    """Checks how many levels a key name has.

    ## What it does
    Counts the `:`-separated levels of a key name and reports names with fewer than `min-segments`
    (code `too-few`) or more than `max-segments` (code `too-many`). For the lower bound, a name without
    any `:` is split on `flat-separators` instead, so 000's split keys (`video_info#olympic#2020-08-29#1`,
    `uid#0#0`) and its flat names (`edu0_info`) count their `#` and `_` parts as levels; the upper bound
    counts `:` levels only. Empty levels (`a::b`) are counted here and reported by KEY009. In a template
    from code, a variable part may itself hold `:`, so `too-few` is not reported for a template with an
    unknown part.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    A single-level name such as `counter` has no business prefix: two features can pick the same name
    and overwrite each other's data, and nobody can tell from the name which service owns the key or
    find all of its keys with `SCAN MATCH prefix:*`. Too many levels make the name long (every byte is
    stored once per key) and usually mean that words which are one idea were split into levels.

    ## Example
    ```
    counter
    orderStatusOrderId98765
    user:profile:personal:information:unique:identifier:12345
    ```

    ## Use instead
    ```
    uv:page:1024
    order:status:order_id:98765
    user:profile:id:12345
    ```

    ## Options
    - `min-segments`: the fewest levels a name must have (default 2: `业务名:表名:id` needs at least a
      prefix and a name; 1 turns the lower bound off).
    - `max-segments`: the most `:` levels a name may have (default 6, enough for 004's longest example
      `session:token:uid:abc123:ts:1692806400`; 0 turns the upper bound off).
    - `flat-separators`: characters that separate levels in a name with no `:`, for the lower bound
      (default `["#", "_"]`, the separators 000 recommends besides `:`; `[]` makes every name without
      `:` a single level).

    ## Source
    - 000 §Key 名字如何设计 — 命名: the business id is a prefix separated by `:`; split keys may use `#`;
      000 §各种ID recommends `#`, `:` and `_` as separators (`uid#0#0`, `edu0_info`).
    - 001 §1.2: prefix keys with the business (or database) name, separated by colons: `业务名:表名:id`.
    - 002 §规范一: the business name as prefix, then `:` and the data name: `uv:page:1024`.
    - 004 §1: `<module>:<submodule>:<description>:<identifier>`; §5.2 rejects
      `user:profile:personal:information:unique:identifier:12345` as too long.
    """

    Options = SegmentCountOptions

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[SegmentCountOptions]
    ) -> Iterator[Violation]:
        opts = ctx.options
        levels = len(key.segments())
        shown = show(key.pattern)
        if opts.max_segments and levels > opts.max_segments:
            yield Violation(
                "too-many",
                Text(
                    f"`{shown}` has {levels} levels, more than {opts.max_segments}: merge levels that do not "
                    "carry a meaning of their own (004: `user:profile:id:12345`, not "
                    "`user:profile:personal:information:unique:identifier:12345`)",
                    f"`{shown}` 有 {levels} 个层级，超过 {opts.max_segments} 个：合并没有独立含义的层级"
                    "（004：用 `user:profile:id:12345`，而不是 "
                    "`user:profile:personal:information:unique:identifier:12345`）",
                ),
                value=levels,
            )
            return
        if levels == 1 and opts.flat_separators:
            levels = len(split_parts(key.parts, "".join(opts.flat_separators).encode("utf-8")))
        if levels < opts.min_segments and key.parts and not key.has_unknown:  # an empty name is KEY009's
            yield Violation(
                "too-few",
                Text(
                    f"`{shown}` has only {levels} level{'s' if levels != 1 else ''}, fewer than "
                    f"{opts.min_segments}: prefix it with the business and data names separated by `:` "
                    "(`业务名:表名:id`, e.g. `uv:page:1024`) so that keys of different features cannot "
                    "collide and can be found by prefix",
                    f"`{shown}` 只有 {levels} 个层级，少于 {opts.min_segments} 个：以业务名、数据名为前缀并用 `:` 分隔"
                    "（`业务名:表名:id`，如 `uv:page:1024`），避免不同业务的 Key 冲突，也便于按前缀查找",
                ),
                value=levels,
            )
