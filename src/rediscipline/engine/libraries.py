"""Attribute key templates to the library families of the catalog (`redis_meta.libraries`).

A family's shapes are compiled once into regular expressions over a typed rendering of a template: literal
bytes as they are, each placeholder as `\\x00<slot>\\x00`. So `{var}` matches exactly one variable part,
`{uuid}` one UUID, and `{name}` literal words or variable parts without a `:`, on keys from a server, a dump
or a key list and on key templates from code alike. Attribution runs once per template (the engine memoises
it with the template's verdict); the rows are indexed by the first two bytes of their literal prefix, so a
template is tried against the few rows that can match, not the whole catalog.

A row's expression is compiled the first time a template is tried against it, and a template is tried only
against rows whose literal text it holds (`shape_literals`: every run of a shape's text between fields and
digits is in any rendering the shape matches). A run whose keys belong to no library compiles none of the
369 shapes (compiling them all costs ~25 ms, a tenth of a small dump's scan); `compile_shape` on every row of
the catalog is a test's job (tests/engine/test_libraries.py).

A shape that starts with `{prefix}` captures the library's configurable prefix. A row that `proves_prefix`
attributes its keys at once and records the prefix; a row that waits for one (`waits_for_prefix`) only names
the candidates (`LibraryCatalog.waiting`), and the engine settles them once every key of the run is in.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from rediscipline.model.keyname import (
    SLOT_DATE,
    SLOT_DATE_DASHED,
    SLOT_DATETIME,
    SLOT_HEX,
    SLOT_INT,
    SLOT_TOKEN,
    SLOT_UUID,
    KeyTemplate,
    Placeholder,
)
from rediscipline.redis_meta.libraries import FAMILIES, KEY_MODES, PERSISTING_EXEMPT, KeyFamily

_MARK = b"\x00"
_ONE = rb"\x00[a-z-]+\x00"
_FIELDS: dict[str, bytes] = {
    "var": _ONE,
    "name": rb"(?:[^:\x00]|" + _ONE + rb")+?",
    "rest": rb"(?:[^\x00]|" + _ONE + rb")+?",
    "int": rb"\x00" + SLOT_INT.encode() + rb"\x00",
    "uuid": rb"\x00" + SLOT_UUID.encode() + rb"\x00",
    "hex": rb"\x00" + SLOT_HEX.encode() + rb"\x00",
    "token": rb"\x00" + SLOT_TOKEN.encode() + rb"\x00",
    "date": rb"\x00(?:"
    + rb"|".join(re.escape(s.encode()) for s in (SLOT_DATE, SLOT_DATE_DASHED, SLOT_DATETIME))
    + rb")\x00",
}
_FIELD = re.compile(r"\{\{|\}\}|\{([a-z]+)\}")
#: `{prefix}`: the library's configurable prefix, captured (only at the start of a shape).
_PREFIX = rb"(?P<prefix>(?:[^\x00]|" + _ONE + rb")+?)"
#: Rows whose shape starts with a field are tried on every template.
_ANY_PREFIX = b""
#: The longest key (as `typed` renders it) attribution looks at: no library writes longer names than a page
#: cache key with its URL digests, and shapes with several `{rest}` would backtrack over megabytes.
LONGEST_ATTRIBUTED = 512


class ShapeError(ValueError):
    """A shape in the catalog does not follow the syntax (a defect of the catalog, found by its tests)."""


def compile_shape(shape: str) -> re.Pattern[bytes]:
    """The regular expression of one shape over the typed rendering (see the module docstring)."""
    out: list[bytes] = []
    position = 0
    for match in _FIELD.finditer(shape):
        out.append(_literal_pattern(shape[position : match.start()]))
        token = match.group()
        if token in ("{{", "}}"):
            out.append(re.escape(token[0].encode()))
        elif match.group(1) == "prefix":
            if match.start():
                raise ShapeError(f"{{prefix}} is allowed only at the start of a shape: {shape!r}")
            out.append(_PREFIX)
        else:
            field = _FIELDS.get(match.group(1))
            if field is None:
                raise ShapeError(f"unknown field {token} in shape {shape!r}")
            out.append(field)
        position = match.end()
    rest = shape[position:]
    if "{" in rest or "}" in rest:
        raise ShapeError(f"unbalanced brace in shape {shape!r}")
    out.append(_literal_pattern(rest))
    return re.compile(b"".join(out), re.DOTALL)


def _literal_pattern(text: str) -> bytes:
    """Literal shape text as a pattern; its numbers also match an inferred integer (Django's version `1` in
    `:1:` is a placeholder in the template of `:1:views...`)."""
    pieces = re.split(r"([0-9]+)", text)
    return b"".join(
        rb"(?:" + re.escape(_literal(piece)) + rb"|\x00" + SLOT_INT.encode() + rb"\x00)"
        if index % 2
        else re.escape(_literal(piece))
        for index, piece in enumerate(pieces)
    )


def _literal(text: str) -> bytes:
    """Shape text as the bytes a library writes: characters below 256 as one byte each (the catalog spells
    control bytes such as kombu's `\\x06\\x16` as escapes), others in UTF-8."""
    return b"".join(bytes((ord(c),)) if ord(c) < 256 else c.encode() for c in text)


def shape_literals(shape: str) -> tuple[bytes, ...]:
    """The runs of literal bytes every rendering a shape matches holds, as they are: its text between fields,
    split at digits (a number may be a placeholder in the template), with `{{` and `}}` as the braces they
    escape."""
    texts: list[str] = []
    current = ""
    position = 0
    for match in _FIELD.finditer(shape):
        current += shape[position : match.start()]
        token = match.group()
        if token in ("{{", "}}"):
            current += token[0]
        else:
            texts.append(current)
            current = ""
        position = match.end()
    texts.append(current + shape[position:])
    return tuple(_literal(piece) for text in texts for piece in re.split(r"[0-9]+", text) if piece)


def literal_prefix(shape: str) -> bytes:
    """The bytes every template a shape matches starts with: its text before the first field or digit (a
    number may be a placeholder in the template)."""
    head = _FIELD.search(shape)
    text = shape if head is None else shape[: head.start()]
    if head is not None and head.group() in ("{{", "}}"):
        text += head.group()[0]
    return _literal(re.split(r"[0-9]", text, maxsplit=1)[0])


def typed(template: KeyTemplate) -> bytes:
    """The rendering shapes match: literal bytes (a NUL doubled) and `\\x00<slot>\\x00` per placeholder."""
    out: list[bytes] = []
    for part in template.parts:
        if isinstance(part, Placeholder):
            out.append(_MARK + part.slot.encode() + _MARK)
        else:
            out.append(part.replace(_MARK, b"\x00\x00") if _MARK in part else part)
    return b"".join(out)


class Row:
    """One shape of a family: its literal runs and its expression, both made when a template is first tried."""

    __slots__ = ("_literals", "_pattern", "family", "shape")

    def __init__(self, shape: str, family: KeyFamily) -> None:
        self.shape = shape
        self.family = family
        self._literals: tuple[bytes, ...] | None = None
        self._pattern: re.Pattern[bytes] | None = None

    @property
    def compiled(self) -> bool:
        return self._pattern is not None

    def fullmatch(self, rendered: bytes) -> re.Match[bytes] | None:
        """The match of the whole rendering, if the shape matches it."""
        literals = self._literals
        if literals is None:
            literals = self._literals = shape_literals(self.shape)
        for literal in literals:
            if literal not in rendered:
                return None
        if self._pattern is None:
            self._pattern = compile_shape(self.shape)
        return self._pattern.fullmatch(rendered)


class LibraryCatalog:
    """The catalog's families, indexed for attribution (each row compiled on first use)."""

    def __init__(self, families: Iterable[KeyFamily] = FAMILIES) -> None:
        self.families: tuple[KeyFamily, ...] = tuple(families)
        self.by_id = {family.id: family for family in self.families}
        self._order = {family.id: order for order, family in enumerate(self.families)}
        self._index: dict[bytes, list[Row]] = {}
        for family in self.families:
            for shape in family.shapes:
                prefix = literal_prefix(shape)[:2]
                key = prefix if len(prefix) == 2 else _ANY_PREFIX
                self._index.setdefault(key, []).append(Row(shape, family))
        self._unprefixed: Sequence[Row] = self._index.get(_ANY_PREFIX, [])
        #: the rows that claim keys only under a proved prefix, in catalog order (`{prefix}` may only start a
        #: shape, where it is the group `prefix`)
        self._waiting = [
            row for row in self._unprefixed if row.shape.startswith("{prefix}") and waits_for_prefix(row.family)
        ]
        self.libraries = frozenset(family.library for family in self.families)

    def rows(self) -> Iterator[Row]:
        """Every row, by index bucket."""
        for rows in self._index.values():
            yield from rows

    def family_of(self, template: KeyTemplate, key_type: str | None = None) -> KeyFamily | None:
        """The family `match` finds, unless it claims the key only under a prefix still to be proved."""
        found = self.match(template, key_type)
        if found is None or (found[1] is not None and not found[0].proves_prefix):
            return None
        return found[0]

    def waiting(self, template: KeyTemplate, key_type: str | None = None) -> list[tuple[KeyFamily, bytes]]:
        """Every row waiting for a proved prefix that matches the template, with the prefix it captured: the
        prefix proved in the run decides which library's key it is (`shop-tasks:default` is a dramatiq queue
        under namespace `shop-tasks`, or a kombu queue under `global_keyprefix` `shop-tasks:`)."""
        rendered = typed(template)
        found: list[tuple[KeyFamily, bytes]] = []
        if len(rendered) > LONGEST_ATTRIBUTED:
            return found
        for row in self._waiting:
            if not _admits(row.family, key_type):
                continue
            match = row.fullmatch(rendered)
            if match is not None:
                found.append((row.family, match.group("prefix")))
        return found

    def match(self, template: KeyTemplate, key_type: str | None = None) -> tuple[KeyFamily, bytes | None] | None:
        """The first family (in catalog order) whose shape matches the whole template and whose types admit
        `key_type` (an unknown type admits every family but those whose shape an application's key can take:
        `KeyFamily.type_required`), with the `{prefix}` its shape captured (as rendered by `typed`), if any."""
        rendered = typed(template)
        if len(rendered) > LONGEST_ATTRIBUTED:
            return None
        candidates = self._index.get(rendered[:2], ())
        best: tuple[int, KeyFamily, bytes | None] | None = None
        for rows in (candidates, self._unprefixed):
            for row in rows:
                if not _admits(row.family, key_type):
                    continue
                found = row.fullmatch(rendered)
                if found is not None:
                    order = self._order[row.family.id]
                    if best is None or order < best[0]:
                        best = (order, row.family, found.groupdict().get("prefix"))
                    break
        return (best[1], best[2]) if best is not None else None


def _admits(family: KeyFamily, key_type: str | None) -> bool:
    """Whether a key of `key_type` can be the family's: a known type must be one of its types, and an unknown
    one admits every family but those whose shape an application's key can take (`type_required`)."""
    if key_type is None:
        return not family.type_required
    return not family.types or key_type in family.types


def waits_for_prefix(family: KeyFamily) -> bool:
    """Whether a family claims keys only under a prefix another key of its library proved."""
    return not family.proves_prefix and any(shape.startswith("{prefix}") for shape in family.shapes)


@functools.cache
def default_catalog(ecosystem: str | None = None) -> LibraryCatalog:
    """The catalog of `redis_meta.libraries` (only one ecosystem's families: code of that language, whose keys
    a library of another language does not write), indexed once per process."""
    return LibraryCatalog(family for family in FAMILIES if ecosystem is None or family.ecosystem == ecosystem)


@dataclass(frozen=True)
class LibraryPolicy:
    """How a run treats keys of a library's own format: the catalog, and per library whether the naming rules
    judge them (`library-keys`: `default` for every library, `modes` by library name, lower case)."""

    catalog: LibraryCatalog
    default: str = KEY_MODES[0]
    modes: Mapping[str, str] = field(default_factory=dict)

    def judges_names(self, family: KeyFamily) -> bool:
        return self.modes.get(family.library.lower(), self.default) == "judge"


def exempt(family: KeyFamily | None, rule_id: str, family_of_rule: str, judge_names: bool) -> bool:
    """Whether a rule leaves keys of `family` alone: naming rules on a library's format (unless judged), and
    the missing-TTL rules on a family meant to persist. A family whose shape an application's key can take
    (`type_required`: `user::1` is Spring Cache's shape and a naming mistake alike) is named, never silenced."""
    if family is None or family.type_required:
        return False
    if family_of_rule == "KEY" and not judge_names:
        return True
    return family.persists and rule_id in PERSISTING_EXEMPT
