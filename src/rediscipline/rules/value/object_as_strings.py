"""VAL005 object-as-strings."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rediscipline.model.display import display_bytes
from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Example, Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import (
    Accumulator,
    AggregateResult,
    AggregateRule,
    PartExample,
    RuleContext,
    earliest,
    examples_of,
    rule,
)
from rediscipline.rules.gate import when
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.value.sizes import count_text

#: Families (`user:*`) tracked at once; keys of further families are not looked at.
TRACKED_FAMILIES = 2000
#: Object ids remembered per family (the first seen), and in all families together.
IDS_PER_FAMILY = 1000
IDS_IN_ALL = 100_000
#: Distinct field names a family numbers (an id's fields are a bit mask over them); later ones only count keys.
FIELDS_PER_FAMILY = 64
SHOWN_FIELDS = 5
EXAMPLES = 3


@dataclass(frozen=True)
class ObjectAsStringsOptions(RuleOptions):
    min_fields: int = option(3, "An object is an id with at least this many field keys.", minimum=2)
    min_objects: int = option(10, "Report a family with at least this many such objects.", minimum=1)


@dataclass(slots=True)
class _Family:
    """String keys `<family>:<field>` seen so far: fields numbered, and per id the mask of its fields."""

    keys: int = 0
    fields: dict[bytes, int] = field(default_factory=dict)  # field → bit index (insertion order)
    field_keys: list[int] = field(default_factory=list)  # keys per field, by bit index
    #: where each field was first seen, by bit index: (part, its bit index in that part), one pass's order
    field_first: list[tuple[int, int]] = field(default_factory=list)
    ids: dict[bytes, int] = field(default_factory=dict)  # id prefix → mask of its fields
    objects: int = 0  # ids with at least `min_fields` fields
    untracked: bool = False  # some ids were not remembered (caps): `objects` is a lower bound
    examples: list[PartExample] = field(default_factory=list)

    def ranked_fields(self) -> list[bytes]:
        """Field names by keys, the first seen first among equals (by part, then as the part met them)."""
        return sorted(self.fields, key=lambda f: (-self.field_keys[self.fields[f]], self.field_first[self.fields[f]]))


class _ObjectAccumulator(Accumulator):
    """Counts, per family, the ids that carry several field keys, in bounded memory (see the caps above).

    Merging is exact while no part met more than TRACKED_FAMILIES families, FIELDS_PER_FAMILY fields or
    IDS_PER_FAMILY ids in a family, or IDS_IN_ALL ids in all.
    """

    gate = when("type", "==", "string")

    def __init__(self, min_fields: int, min_objects: int) -> None:
        self.min_fields = min_fields
        self.min_objects = min_objects
        self.families: dict[bytes, _Family] = {}
        self.tracked_ids = 0

    def add(self, fact: KeyFact, pattern: bytes) -> None:
        name = fact.name
        if fact.type != "string" or not isinstance(name, bytes):
            return
        family_pattern, separator, _ = pattern.rpartition(b":")
        if not separator:
            return  # the pattern table's overflow bucket
        prefix, _, field_name = name.rpartition(b":")
        family = self.families.get(family_pattern)
        if family is None:
            if len(self.families) >= TRACKED_FAMILIES:
                return
            family = self.families[family_pattern] = _Family()
        family.keys += 1
        if len(family.examples) < EXAMPLES:
            family.examples.append((self.part, Example(name, fact.origin)))
        index = family.fields.get(field_name)
        if index is None:
            if len(family.fields) >= FIELDS_PER_FAMILY:
                return
            index = family.fields[field_name] = len(family.fields)
            family.field_keys.append(0)
            family.field_first.append((self.part, index))
        family.field_keys[index] += 1
        self._mark(family, prefix, 1 << index)

    def _mark(self, family: _Family, object_id: bytes, bit: int) -> None:
        mask = family.ids.get(object_id)
        if mask is None:
            if len(family.ids) >= IDS_PER_FAMILY or self.tracked_ids >= IDS_IN_ALL:
                family.untracked = True
                return
            mask = 0
            self.tracked_ids += 1
        merged = mask | bit
        if merged != mask and merged.bit_count() == self.min_fields:
            family.objects += 1
        family.ids[object_id] = merged

    def merge(self, other: Accumulator) -> None:
        assert isinstance(other, _ObjectAccumulator)
        for family_pattern, theirs in other.families.items():
            mine = self.families.get(family_pattern)
            if mine is None:
                if len(self.families) < TRACKED_FAMILIES:
                    self.families[family_pattern] = theirs
                    self.tracked_ids += len(theirs.ids)
                continue
            self._merge_family(mine, theirs)

    def _merge_family(self, mine: _Family, theirs: _Family) -> None:
        """Add another part's keys of one family: its fields renumbered by name, masks of the same id joined."""
        mine.keys += theirs.keys
        mine.untracked = mine.untracked or theirs.untracked
        mine.examples = earliest(mine.examples, theirs.examples, EXAMPLES)
        bits: dict[int, int] = {}  # their bit index → mine
        for field_name, index in theirs.fields.items():
            into = mine.fields.get(field_name)
            if into is None:
                if len(mine.fields) >= FIELDS_PER_FAMILY:
                    continue
                into = mine.fields[field_name] = len(mine.fields)
                mine.field_keys.append(0)
                mine.field_first.append(theirs.field_first[index])
            else:
                mine.field_first[into] = min(mine.field_first[into], theirs.field_first[index])
            bits[index] = into
            mine.field_keys[into] += theirs.field_keys[index]
        for object_id, mask in theirs.ids.items():
            joined = 0
            for index, into in bits.items():
                if mask >> index & 1:
                    joined |= 1 << into
            known = mine.ids.get(object_id)
            if known is None:
                if len(mine.ids) >= IDS_PER_FAMILY or self.tracked_ids >= IDS_IN_ALL:
                    mine.untracked = True
                    continue
                self.tracked_ids += 1
                known = 0
            mine.ids[object_id] = known | joined
        mine.objects = sum(1 for mask in mine.ids.values() if mask.bit_count() >= self.min_fields)

    def finish(self) -> Iterator[AggregateResult]:
        for family_pattern, family in self.families.items():
            if family.objects < self.min_objects:
                continue
            ranked = family.ranked_fields()
            names = ", ".join(display_bytes(f, 30) for f in ranked[:SHOWN_FIELDS])
            more = ", …" if len(ranked) > SHOWN_FIELDS else ""
            shown = display_bytes(family_pattern, 60)
            objects = count_text(family.objects)
            at_least = Text("at least ", "至少 ") if family.untracked else Text("", "")
            message = Text(
                f"{count_text(family.keys)} string keys store {at_least.en}{objects} objects one field per key "
                f"({names}{more}): make each object one hash `{shown}` with these fields (HSET), which saves a "
                "key's overhead per field and reads an object in one command",
                f"{count_text(family.keys)} 个字符串 Key 按字段逐个存储了 {at_least.zh}{objects} 个对象"
                f"（{names}{more}）："
                f"请将每个对象存为一个 Hash `{shown}`，以这些字段为 field（HSET），可省去每个字段一个 Key 的开销，"
                "并用一条命令读取整个对象",
            )
            violation = Violation("one-key-per-field", message, value=family.objects)
            yield AggregateResult(family_pattern + b":*", violation, family.keys, examples_of(family.examples))


@rule(
    "VAL005",
    "object-as-strings",
    title=("Object stored as one string per field", "对象按字段拆成多个字符串存储"),
    severity=Severity.NOTE,
    where=("live", "rdb"),
    sources=("001 §2.2 选择适合的数据类型", "003 §Value设计原则 — 1. 选择合适的数据类型"),
)
class ObjectAsStrings(AggregateRule[ObjectAsStringsOptions]):
    """Checks for objects stored as one string key per field instead of one hash.

    ## What it does
    Looks at string keys whose last level is a fixed word and whose earlier levels hold an id:
    `user:1:name`, `user:1:age`, `user:1:favor`. Keys that share everything but the last level belong to
    one object (`user:1`); when at least `min-objects` objects of one family (`user:*`) each have at least
    `min-fields` such field keys, the family is reported once, on the pattern `user:*:*`, with the number
    of string keys involved and the most common fields.

    Memory stays bounded: at most 2000 families, the first 1000 ids of each family (100 000 in all) and 64
    field names per family are remembered; beyond that, keys are still counted but objects are not, so
    the rule can miss a family, never invent one.

    ## Why is this bad?
    Every key costs a dictionary entry, a key object and its name, about 50–70 bytes before the value,
    and its own TTL bookkeeping. An object with five fields as five strings pays that five times, needs
    five commands (or an MGET) to read, and can expire field by field, leaving half an object. A small
    hash holds the same fields in one compact listpack. Fields that need different TTLs (rate-limit
    windows) are a good reason to keep separate keys: ignore the rule for that namespace.

    ## Example
    ```
    SET user:1:name tom
    SET user:1:age 19
    SET user:1:favor football
    ```

    ## Use instead
    ```
    HSET user:1 name tom age 19 favor football
    ```

    ## Options
    - `min-fields`: an id counts as an object when it has at least this many field keys (default 3).
    - `min-objects`: report a family with at least this many objects (default 10).

    ## Source
    - 001 §2.2 选择适合的数据类型: hashes store objects: `hmset user:1 name tom age 19 favor football`, not one `set user:1:name` per field (the counter-example).
    - 003 §Value设计原则 — 1. 选择合适的数据类型: a user's fields as one hash: fields change one by one, and small objects take less memory.
    """  # noqa: E501 - the Source bullets are one line each in the generated docs

    Options = ObjectAsStringsOptions
    needs = frozenset({"type"})

    def relevant(self, key: KeyTemplate, ctx: RuleContext[ObjectAsStringsOptions]) -> bool:
        """A fixed last level (the field) after at least one level holding an id."""
        *head, last = key.segments()
        return bool(last.literal) and any(segment.literal is None for segment in head)

    def accumulator(self, ctx: RuleContext[ObjectAsStringsOptions]) -> Accumulator:
        return _ObjectAccumulator(ctx.options.min_fields, ctx.options.min_objects)
