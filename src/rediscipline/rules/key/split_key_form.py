"""KEY014 split-key-form."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import SLOT_ANY, SLOT_INT, KeyTemplate, Part, Placeholder
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import (
    NAMING_CHECKS,
    byte_class,
    find_literal_bytes,
    level_extents,
    show,
    split_parts,
)
from rediscipline.rules.options import RuleOptions, option

_HASH = byte_class(b"#")


@dataclass(frozen=True)
class SplitKeyFormOptions(RuleOptions):
    allowed: bool = option(True, "Whether `#` may separate the parts of a split key (false: report every `#`).")


def _is_shard_index(piece: tuple[Part, ...]) -> bool:
    """A number: an integer placeholder, a code expression (which may well be one), or literal digits."""
    if len(piece) != 1:
        return False
    part = piece[0]
    if isinstance(part, Placeholder):
        return part.slot in (SLOT_INT, SLOT_ANY)
    return part.isdigit()


@rule(
    "KEY014",
    "split-key-form",
    title=("`#` outside a split-key suffix", "`#` 未用于拆分 Key 的后缀"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "000 §该如何设计数据结构以避开大Key和热Key — 各种ID",
        "003 §Key设计原则 — 4. 避免特殊字符",
    ),
    overlaps=NAME_OVERLAPS,
)
class SplitKeyForm(NameRule[SplitKeyFormOptions]):
    """Checks that `#` is used only to number the parts of a split key.

    ## What it does
    000 lets `#` separate the parts of a key that was split into many (`video_info#olympic#2020-08-29#1`,
    or modulo sharding `uid#0#0` … `uid#999#99`): the `#` parts come last and the last one is the shard
    number. This rule reports `#` used otherwise: a last `#` part that is not a number (`user#profile#name`,
    code `not-split`: use `:` for hierarchy) and `#` parts followed by further `:` levels (`user#1:profile`,
    code `inside-hierarchy`). Empty `#` parts are KEY009's. With `allowed = false`, every `#` is reported
    (code `hash-sign`), for conventions whose character set has no `#`.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    Readers and tools split key names on `:` to find the business, the object and the id. A `#` used as a
    second level separator hides levels from them (`SCAN MATCH user:*` does not find `user#1:profile`) and
    makes two spellings of the same hierarchy possible. Kept at the end and followed by a shard number,
    `#` says one thing only: "this is part N of a split key".

    ## Example
    ```
    user#profile#name
    user#1:profile
    ```

    ## Use instead
    ```
    user:profile:name
    user:1:profile
    video_info#olympic#2020-08-29#1
    uid#0#0
    ```

    ## Options
    - `allowed`: whether `#` may separate the parts of a split key at all (default true, from 000; false
      for presets whose character set has no `#`, such as 003's, which lists `#` among symbols to avoid).

    ## Source
    - 000 §Key 名字如何设计 — 命名: if the key itself is a split key, `#` may separate its parts
      (`video_info#olympic#2020-08-29#1`, `…#2`).
    - 000 §该如何设计数据结构以避开大Key和热Key — 各种ID: modulo sharding
      `uid#0#0`, `uid#1#1`, …, `uid#999#99`; `#`, `:` and `_` as separators.
    - 003 §Key设计原则 — 4. 避免特殊字符: avoid special symbols such as `@#$%`.
    """

    Options = SplitKeyFormOptions

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[SplitKeyFormOptions]
    ) -> Iterator[Violation]:
        if not any(b"#" in literal for literal in key.literals()):
            return
        shown = show(key.pattern)
        signs = [hit.span for hit in find_literal_bytes(key, _HASH)]
        if not ctx.options.allowed:
            yield Violation(
                "hash-sign",
                Text(
                    f"`{shown}` contains `#`, which this convention does not allow: separate levels with `:`",
                    f"`{shown}` 含有 `#`，本规范不允许使用：请用 `:` 分隔层级",
                ),
                spans=tuple(signs),
            )
            return
        segments = key.segments()
        last_level = level_extents(key)[-1][0]  # `#`s from here on are in the last level
        hashed = [s for s in segments if any(b"#" in literal for literal in s.literal_bytes())]
        if hashed[0].index != len(segments) - 1:
            yield Violation(
                "inside-hierarchy",
                Text(
                    f"`{shown}` has `#` parts followed by more `:` levels: use `:` between levels and keep `#` "
                    "for the numbered parts of a split key at the end (`video_info#olympic#2020-08-29#1`)",
                    f"`{shown}` 的 `#` 部分之后还有 `:` 层级：层级之间用 `:` 分隔，`#` 只用于末尾拆分 Key 的编号"
                    "（`video_info#olympic#2020-08-29#1`）",
                ),
                spans=tuple(span for span in signs if span[0] < last_level),
            )
        last = segments[-1]
        if hashed[-1] is last:
            final = split_parts(last.parts, b"#")[-1]
            if final and not _is_shard_index(final):
                yield Violation(
                    "not-split",
                    Text(
                        f"`{shown}` uses `#` but its last `#` part is not a shard number: `#` only numbers the "
                        "parts of a split key (`uid#0#0`); use `:` for hierarchy (`user:profile:name`)",
                        f"`{shown}` 使用了 `#`，但最后一个 `#` 部分不是分片编号：`#` 只用于拆分 Key 的编号"
                        "（`uid#0#0`）；层级请用 `:` 分隔（`user:profile:name`）",
                    ),
                    spans=tuple(span for span in signs if span[0] >= last_level),
                )
