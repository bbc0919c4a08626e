"""Helpers shared by the key-naming rules: reading literal text, splitting words, describing bytes."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rediscipline.model.display import QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.keyname import KeyTemplate, Part, Placeholder, Segment, render_parts
from rediscipline.model.text import Text
from rediscipline.rules.base import Span

SEPARATOR_BYTE = 0x3A  # `:`

#: Where a naming rule can be checked: names are visible in every source that sees keys.
NAMING_CHECKS = ("code", "runtime", "live", "rdb", "keys")


def show(data: bytes, limit: int = 60) -> str:
    """Key text for a message: escaped, cut after `limit` characters with the full length (`model.display`)."""
    return display_bytes(data, min(limit, QUOTE_LIMIT))


def describe_byte(byte: int) -> str:
    """A readable name for one byte in a message: `' '` → `space`, `\\n` → `newline`."""
    names = {0x20: "space", 0x0A: "newline", 0x0D: "carriage return", 0x09: "tab", 0x27: "'", 0x22: '"'}
    if byte in names:
        return names[byte]
    if byte < 0x20 or byte == 0x7F:
        return f"\\x{byte:02x}"
    return chr(byte) if byte < 0x80 else f"\\x{byte:02x}"


# -- characters and case ---------------------------------------------------------------------------------
# Shared by KEY001-KEY004, KEY006, KEY007 and KEY010: where literal characters sit in a template, how to
# name them in a message, and what counts as a camelCase word (one definition for KEY006 and KEY007).


class LiteralRun(NamedTuple):
    """A maximal run of literal bytes, with what surrounds it.

    Adjacent literal parts are merged (pattern inference may emit `tok:` and `AbCd` as two parts), so a
    rule never sees a word or a separator cut in two.
    """

    text: bytes
    offset: int | None  # byte offset in the concrete key; None after a placeholder of unknown width
    before: Placeholder | None  # the placeholder just before the run (None at the start of the key)
    after: Placeholder | None  # the placeholder just after the run (None at the end of the key)
    at: int  # position of its first byte in the template (`Violation.spans`: a placeholder is one position)


class LiteralHit(NamedTuple):
    """One literal byte found by `find_literal_bytes`, with its neighbours (a byte or a placeholder)."""

    byte: int
    offset: int | None
    before: int | Placeholder | None
    after: int | Placeholder | None
    braced: bool  # between a `{` and the next `}` of the same run: a hashtag, or `{uid}` document notation
    at: int  # position in the template (`Violation.spans`)

    @property
    def span(self) -> Span:
        return (self.at, self.at + 1)


def literal_runs(key: KeyTemplate) -> list[LiteralRun]:
    """The key's literal text as runs between placeholders (see `LiteralRun`)."""
    runs: list[LiteralRun] = []
    offset: int | None = 0
    text = b""
    start: int | None = 0
    at = position = 0
    before: Placeholder | None = None
    for part in key.parts:
        if isinstance(part, bytes):
            if not text:
                start, at = offset, position
            text += part
            offset = None if offset is None else offset + len(part)
            position += len(part)
            continue
        if text:
            runs.append(LiteralRun(text, start, before, part, at))
            text = b""
        before = part
        offset = None if offset is None or part.width is None else offset + part.width
        position += 1
    if text:
        runs.append(LiteralRun(text, start, before, None, at))
    return runs


_BRACED = re.compile(rb"\{[^}]*\}")


@functools.lru_cache(maxsize=64)
def byte_class(chars: bytes) -> re.Pattern[bytes]:
    """A compiled regex matching any one of `chars` (cached: rule options are built once per run)."""
    if not chars:
        return re.compile(rb"(?!)")
    return re.compile(b"[" + b"".join(re.escape(bytes((c,))) for c in sorted(set(chars))) + b"]")


def find_literal_bytes(key: KeyTemplate, pattern: re.Pattern[bytes]) -> list[LiteralHit]:
    """Every literal byte matched by the one-byte `pattern`; placeholders are never searched."""
    hits: list[LiteralHit] = []
    for run in literal_runs(key):
        text = run.text
        braces = [m.span() for m in _BRACED.finditer(text)] if b"{" in text else []
        for match in pattern.finditer(text):
            i = match.start()
            hits.append(
                LiteralHit(
                    text[i],
                    None if run.offset is None else run.offset + i,
                    text[i - 1] if i > 0 else run.before,
                    text[i + 1] if i + 1 < len(text) else run.after,
                    any(start < i < end - 1 for start, end in braces),
                    run.at + i,
                )
            )
    return hits


_BYTE_NAMES_ZH = {0x20: "空格", 0x0A: "换行符", 0x0D: "回车符", 0x09: "制表符"}


def byte_label(byte: int) -> Text:
    """How a message names one byte: `space` / `空格`, `` `@` ``, `` `\\x00` ``."""
    if byte in _BYTE_NAMES_ZH:
        return Text(describe_byte(byte), _BYTE_NAMES_ZH[byte])
    if byte == 0x5C:
        return Text("backslash `\\`", "反斜杠 `\\`")
    if byte == 0x60:
        return Text("backtick", "反引号 `")
    shown = f"`{describe_byte(byte)}`"
    return Text(shown, shown)


def position(offset: int | None) -> Text:
    """Where a byte is: its offset in the key, or only "after a variable part" for a code template."""
    if offset is None:
        return Text("after a variable part", "变量部分之后")
    return Text(f"at offset {offset}", f"偏移 {offset}")


def describe_hits(hits: Sequence[LiteralHit], limit: int = 5) -> Text:
    """`space at offset 4, tab at offset 9 and 2 more` / `空格（偏移 4）、制表符（偏移 9）等 4 处`."""
    shown = hits[:limit]
    en = ", ".join(f"{byte_label(h.byte).en} {position(h.offset).en}" for h in shown)
    zh = "、".join(f"{byte_label(h.byte).zh}（{position(h.offset).zh}）" for h in shown)
    if len(hits) > limit:
        en += f" and {len(hits) - limit} more"
        zh += f" 等 {len(hits)} 处"
    return Text(en, zh)


_WORD = re.compile(rb"[A-Za-z0-9]+")
_CAMEL = re.compile(rb"[a-z][0-9]*[A-Z]")
_SNAKE_LOWER_UPPER = re.compile(rb"([a-z0-9])([A-Z])")
_SNAKE_ACRONYM = re.compile(rb"([A-Z])([A-Z][a-z])")


def word_spans(key: KeyTemplate) -> list[tuple[bytes, Span]]:
    """Every occurrence of an ASCII word (a run of letters and digits) of the literal text, in order, with
    its span in the template. Words never extend into a placeholder: in `orderStatusOrderId98765` the word
    is `orderStatusOrderId`."""
    return [
        (match.group(), (run.at + match.start(), run.at + match.end()))
        for run in literal_runs(key)
        for match in _WORD.finditer(run.text)
    ]


def spans_of(words: Iterable[bytes], found: Sequence[tuple[bytes, Span]]) -> tuple[Span, ...]:
    """The spans of every occurrence of `words` in `found` (as `word_spans` gives them)."""
    wanted = set(words)
    return tuple(span for word, span in found if word in wanted)


def is_camel_word(word: bytes) -> bool:
    """True for camelCase and PascalCase words: a lower-case letter (optionally followed by digits) directly
    followed by an upper-case one (`userId`, `UserProfile`, `md5Hash`).

    KEY007 reports these; KEY006 reports every other word with upper-case letters (`AID`, `User`, `INFO`).
    """
    return _CAMEL.search(word) is not None


def snake_case(word: bytes) -> str:
    """`orderStatusOrderId` → `order_status_order_id`, `XMLHttpRequest` → `xml_http_request`."""
    split = _SNAKE_ACRONYM.sub(rb"\1_\2", _SNAKE_LOWER_UPPER.sub(rb"\1_\2", word))
    return split.lower().decode("ascii")


def _word_and_fix(word: bytes, fix: Callable[[bytes], str]) -> tuple[str, str]:
    """A word as a message quotes it, and its fix: both bounded, so a 1 MB word costs a message ~200 bytes.

    A long word is shown as its head and its length (`AAAA…(1,048,576 bytes)`); its fix is the fix of
    that head followed by `…`, computed on the head only.
    """
    if len(word) <= QUOTE_LIMIT:
        return word.decode("ascii"), fix(word)
    return show(word, QUOTE_LIMIT), fix(word[:QUOTE_LIMIT]) + "…"


def describe_words(words: Sequence[bytes], fix: Callable[[bytes], str], limit: int = 4) -> Text:
    """`` `userId` (→ `user_id`), `AID` (→ `aid`) `` / `` `userId`（改为 `user_id`） ``: words with their fix."""
    shown = [_word_and_fix(w, fix) for w in words[:limit]]
    en = ", ".join(f"`{word}` (→ `{fixed}`)" for word, fixed in shown)
    zh = "、".join(f"`{word}`（改为 `{fixed}`）" for word, fixed in shown)
    if len(words) > limit:
        en += f" and {len(words) - limit} more"
        zh += f" 等 {len(words)} 个"
    return Text(en, zh)


# -- labels: abbreviations, type and time segments, namespaces -------------------------------------------


def level_extents(key: KeyTemplate) -> tuple[Span, ...]:
    """The span of each `:` level in the template, by `Segment.index` (an empty level has an empty span at
    the place it would be: `a::b`'s middle level is (2, 2))."""
    extents: list[Span] = []
    start = position = 0
    for part in key.parts:
        if isinstance(part, Placeholder):
            position += 1
            continue
        for index, byte in enumerate(part):
            if byte == SEPARATOR_BYTE:
                extents.append((start, position + index))
                start = position + index + 1
        position += len(part)
    extents.append((start, position))
    return tuple(extents)


def literal_pieces(key: KeyTemplate) -> list[tuple[bytes, Span]]:
    """The literal parts of every level (`Segment.literal_bytes`, level by level) with their spans."""
    pieces: list[tuple[bytes, Span]] = []
    position = 0
    for part in key.parts:
        if isinstance(part, Placeholder):
            position += 1
            continue
        start = position
        for piece in part.split(b":"):
            if piece:
                pieces.append((piece, (start, start + len(piece))))
            start += len(piece) + 1
        position += len(part)
    return pieces


_SEGMENT_WORD = re.compile(rb"[^_\-.#{}]+")


def segment_word_spans(text: bytes, start: int) -> list[tuple[bytes, Span]]:
    """The words of a level's literal `text` (split on `_ - . # { }`), which starts at template position
    `start`, with their spans."""
    return [(m.group(), (start + m.start(), start + m.end())) for m in _SEGMENT_WORD.finditer(text)]


def segment_label(segment: Segment) -> str | None:
    """A wholly literal, non-empty segment as lower-case text, else None.

    Type words (`…:hash:…`) and time labels (`…:date:…`) are whole segments; a segment holding a
    placeholder is a value, never a label. Invalid UTF-8 is replaced, so it can never equal a label.
    """
    literal = segment.literal
    if not literal:
        return None
    return literal.decode("utf-8", errors="replace").lower()


def has_unknown(segment: Segment) -> bool:
    """True when the segment holds a placeholder of unknown content (a code expression)."""
    return any(isinstance(part, Placeholder) and not part.known for part in segment.parts)


def quoted(items: Iterable[str], limit: int = 5) -> str:
    """`a`, `b` for a message, each item once, in first-seen order; at most `limit` items, each bounded."""
    distinct = list(dict.fromkeys(items))
    text = ", ".join(f"`{display_text(item, QUOTE_LIMIT)}`" for item in distinct[:limit])
    return text + (f" (+{len(distinct) - limit})" if len(distinct) > limit else "")


# -- levels and hashtags ---------------------------------------------------------------------------------


def split_parts(parts: Iterable[Part], separators: bytes) -> list[tuple[Part, ...]]:
    """Split template parts into pieces on any byte of `separators` found in literal parts.

    Placeholders never split (a number cannot contain `#`). Empty pieces are kept, so `a##b` on b"#"
    gives three pieces with an empty middle one, and `uid#` + int + `#` + int gives three pieces.
    """
    splitter = byte_class(separators)
    pieces: list[tuple[Part, ...]] = []
    current: list[Part] = []
    for part in parts:
        if isinstance(part, Placeholder):
            current.append(part)
            continue
        for index, chunk in enumerate(splitter.split(part)):
            if index:
                pieces.append(tuple(current))
                current = []
            if chunk:
                current.append(chunk)
    pieces.append(tuple(current))
    return pieces


_OPEN, _CLOSE = 0x7B, 0x7D  # `{` and `}`


@dataclass(frozen=True, slots=True)
class Braces:
    """What Redis Cluster makes of the braces in a key name (see `scan_braces`).

    Positions are template positions (`Violation.spans`).
    """

    count: int  # `{` and `}` bytes in the literal parts
    tag: tuple[Part, ...] | None  # what Redis hashes instead of the whole key, when there is a usable tag
    problems: tuple[str, ...]  # hashtag-malformed codes, at most one of each
    problem_spans: tuple[tuple[Span, ...], ...] = ()  # the braces each problem is about, by `problems`
    tag_braces: tuple[Span, ...] = ()  # the `{` and the `}` around `tag`
    braces: tuple[Span, ...] = ()  # every `{` and `}`

    @property
    def constant_tag(self) -> bytes | None:
        """The tag's bytes when it has no placeholder: every key of the template then hashes to one slot."""
        if self.tag is None or not all(isinstance(part, bytes) for part in self.tag):
            return None
        return b"".join(part for part in self.tag if isinstance(part, bytes))

    @property
    def shown_tag(self) -> str:
        """The tag with its braces for messages, placeholders as `*`: `{*}`, `{global}`."""
        return show(b"{" + render_parts(self.tag or ()) + b"}")


def _rejoin(items: list[int | Placeholder]) -> tuple[Part, ...]:
    parts: list[Part] = []
    run = bytearray()
    for item in items:
        if isinstance(item, int):
            run.append(item)
            continue
        if run:
            parts.append(bytes(run))
            run = bytearray()
        parts.append(item)
    if run:
        parts.append(bytes(run))
    return tuple(parts)


def scan_braces(key: KeyTemplate) -> Braces:
    """Find the hashtag Redis Cluster would use and everything odd about the key's braces.

    Redis hashes the bytes between the FIRST `{` and the first `}` after it; when there is no such pair,
    or it is empty (`{}`), the whole key is hashed (`keyHashSlot` in cluster.c, `key_slot` in redis-py).
    Braces only ever come from literal parts: a placeholder stands for an id and never contains one.
    Problem codes: `stray-close` (a `}` no `{` opened), `unclosed`, `empty`, `nested` (a `{` inside the
    tag, like 000's `a{aa{xxx}bb}b`, which routes by `aa{xxx`) and `multiple` (a `{` after the tag).
    Each problem is about some braces: the stray `}`s; the `{`s never closed; the `{}`; the nested braces
    from the first `{` to the `}` that balances them; the braces of each later `{…}`.
    """
    items: list[int | Placeholder] = []
    for part in key.parts:
        if isinstance(part, bytes):
            items.extend(part)
        else:
            items.append(part)
    braces = tuple((i, i + 1) for i, item in enumerate(items) if item in (_OPEN, _CLOSE))
    if not braces:
        return Braces(0, None, ())
    found: dict[str, list[Span]] = {}
    opened = next((i for i, item in enumerate(items) if item == _OPEN), None)
    stray = [(i, i + 1) for i in range(len(items) if opened is None else opened) if items[i] == _CLOSE]
    if stray:
        found["stray-close"] = stray
    if opened is None:
        return _braces(len(braces), None, found, (), braces)
    closed = next((i for i in range(opened + 1, len(items)) if items[i] == _CLOSE), None)
    if closed is None:
        found["unclosed"] = [(i, i + 1) for i in range(opened, len(items)) if items[i] == _OPEN]
        return _braces(len(braces), None, found, (), braces)
    content = items[opened + 1 : closed]
    tag = _rejoin(content) if content else None
    if not content:
        found["empty"] = [(opened, opened + 1), (closed, closed + 1)]
    depth = content.count(_OPEN)
    if depth:
        found["nested"] = []  # its span ends where the nested braces balance, found below
    nested_end = closed + 1
    later: int | None = None  # the `{` of a `{…}` after the tag, while it is open
    for index in range(closed + 1, len(items)):
        item = items[index]
        if item == _OPEN:
            if not depth:
                later = index
                found.setdefault("multiple", [])
            depth += 1
        elif item == _CLOSE:
            if not depth:
                found.setdefault("stray-close", []).append((index, index + 1))
                continue
            depth -= 1
            if not depth and later is None:
                nested_end = index + 1
            elif not depth and later is not None:
                found["multiple"] += [span for span in braces if later <= span[0] <= index]
                later = None
    if later is not None:
        found["multiple"] += [span for span in braces if later <= span[0]]
    if "nested" in found:
        found["nested"] = [span for span in braces if opened <= span[0] < nested_end]
    return _braces(len(braces), tag, found, ((opened, opened + 1), (closed, closed + 1)), braces)


def _braces(
    count: int,
    tag: tuple[Part, ...] | None,
    found: dict[str, list[Span]],
    around: tuple[Span, ...],
    every: tuple[Span, ...],
) -> Braces:
    """A `Braces` whose problems are `found`'s, in the order they were found."""
    return Braces(count, tag, tuple(found), tuple(tuple(spans) for spans in found.values()), around, every)
