"""KEY002 non-ascii."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, Span, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, literal_runs, position, show
from rediscipline.rules.options import RuleOptions, option

_HIGH = re.compile(rb"[\x80-\xff]+")
_LIMIT = 3  # spans named in one message


@dataclass(frozen=True)
class NonAsciiOptions(RuleOptions):
    allow_text: bool = option(
        False, "Accept valid UTF-8 text (for example Chinese); still report bytes that are not UTF-8."
    )


def _listing(spans: list[tuple[bytes, int | None]]) -> Text:
    shown = spans[:_LIMIT]
    en = ", ".join(f"`{show(text, 24)}` {position(offset).en}" for text, offset in shown)
    zh = "、".join(f"`{show(text, 24)}`（{position(offset).zh}）" for text, offset in shown)
    if len(spans) > _LIMIT:
        en += f" and {len(spans) - _LIMIT} more"
        zh += f" 等 {len(spans)} 处"
    return Text(en, zh)


@rule(
    "KEY002",
    "non-ascii",
    title=("Non-ASCII bytes in a key name", "键名包含非 ASCII 字符"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "003 §Key设计原则 — 4. 避免特殊字符",
        "001 §1.1 命名规范",
    ),
    overlaps=NAME_OVERLAPS,
)
class NonAscii(NameRule[NonAsciiOptions]):
    """Reports bytes outside ASCII in key names, telling text apart from broken bytes.

    ## What it does
    Finds runs of bytes `>= 0x80` in the literal text of a key name and reports them with code
    - `non-ascii` when they are valid UTF-8 text, such as Chinese words (`user:张三`);
    - `invalid-utf8` when they are not valid UTF-8 at all (binary data, a name cut in the middle of a
      multi-byte character, text in GBK or Latin-1).

    The message shows the text (escaped when it is not UTF-8) and its byte offset in the key.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    Redis compares key names as bytes, so the same visible text in two encodings or two Unicode
    normalisations is two different keys, and a client configured with another encoding silently misses
    them. Non-ASCII names are hard to type in `redis-cli`, are escaped into `\\xe5\\xbc\\xa0` sequences in its
    output and in many tools, and cost three bytes per Chinese character. Invalid UTF-8 is almost always
    a bug: a truncated key, a binary value used as a name, or a wrong encoding somewhere in the pipeline.

    ## Example
    ```
    user:张三:profile
    rank:周榜
    ```

    ## Use instead
    ```
    user:10086:profile
    rank:weekly
    ```

    ## Options
    - `allow-text`: accept valid UTF-8 text and report only bytes that are not UTF-8 (default false;
      for teams that deliberately use Chinese names).

    ## Source
    - 003 §Key设计原则 — 4. 避免特殊字符: 避免使用：中文.
    - 001 §1.1 命名规范: 可以使用的字符：小写英文字母、冒号(:)、数字、下划线 (ASCII only).
    """

    Options = NonAsciiOptions

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[NonAsciiOptions]) -> Iterator[Violation]:
        text_spans: list[tuple[bytes, int | None]] = []
        broken_spans: list[tuple[bytes, int | None]] = []
        text_at: list[Span] = []
        broken_at: list[Span] = []
        for run in literal_runs(key):
            for match in _HIGH.finditer(run.text):
                offset = None if run.offset is None else run.offset + match.start()
                span = match.group()
                at = (run.at + match.start(), run.at + match.end())
                try:
                    span.decode("utf-8")
                except UnicodeDecodeError:
                    broken_spans.append((span, offset))
                    broken_at.append(at)
                else:
                    text_spans.append((span, offset))
                    text_at.append(at)
        if broken_spans:
            listed = _listing(broken_spans)
            yield Violation(
                "invalid-utf8",
                Text(
                    f"bytes that are not valid UTF-8 in the key name: {listed.en}",
                    f"键名包含不是合法 UTF-8 的字节：{listed.zh}",
                ),
                value=sum(len(span) for span, _ in broken_spans),
                spans=tuple(broken_at),
            )
        if text_spans and not ctx.options.allow_text:
            listed = _listing(text_spans)
            yield Violation(
                "non-ascii",
                Text(
                    f"non-ASCII text in the key name: {listed.en}; use ASCII words or ids",
                    f"键名包含非 ASCII 字符：{listed.zh}；请使用英文单词或 ID",
                ),
                value=sum(len(span) for span, _ in text_spans),
                spans=tuple(text_at),
            )
