"""KEY013 hashtag-slot-skew."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Example, Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.redis_meta.keyslot import hash_slot, hashtag_of
from rediscipline.rules.base import (
    Accumulator,
    AggregateResult,
    AggregateRule,
    PartExample,
    RuleContext,
    earliest,
    examples_of,
    merge_table,
    prune_table,
    rule,
)
from rediscipline.rules.key.template_parts import scan_braces, show
from rediscipline.rules.options import RuleOptions, option

#: Distinct constant tags tracked at once; when full, the tags with the fewest keys so far are dropped.
TRACKED_TAGS = 10_000
#: Patterns remembered per tag (keys of further patterns still count towards the tag's total).
PATTERNS_PER_TAG = 8
EXAMPLES = 3


@dataclass(frozen=True)
class SlotSkewOptions(RuleOptions):
    min_keys: int = option(1000, "Report a constant hashtag shared by at least this many keys.", minimum=1)


@dataclass(slots=True)
class _Tag:
    """Keys seen so far with one constant tag: the total, per pattern, and a few examples per pattern (the
    first example of a pattern is its first key, so it tells the part the pattern was first seen in)."""

    total: int = 0
    patterns: dict[bytes, int] = field(default_factory=dict)
    examples: dict[bytes, list[PartExample]] = field(default_factory=dict)

    def merge(self, other: _Tag) -> None:
        """Add another part's keys: the first PATTERNS_PER_TAG patterns in the order one pass would have met
        them (by the part of their first key, then as each part met them), with the earliest examples."""
        self.total += other.total
        first: dict[bytes, tuple[int, int]] = {}
        for side in (self, other):
            for position, (pattern, examples) in enumerate(side.examples.items()):
                seen = (examples[0][0], position)
                if pattern not in first or seen < first[pattern]:
                    first[pattern] = seen
        kept = sorted(first, key=first.__getitem__)[:PATTERNS_PER_TAG]
        self.patterns = {p: self.patterns.get(p, 0) + other.patterns.get(p, 0) for p in kept}
        self.examples = {p: earliest(self.examples.get(p, []), other.examples.get(p, []), EXAMPLES) for p in kept}


def _total(entry: _Tag) -> int:
    return entry.total


class _SkewAccumulator(Accumulator):
    """Counts keys per constant tag in a bounded table (see `TRACKED_TAGS`).

    Merging is exact while no part tracked more than TRACKED_TAGS tags or met more than PATTERNS_PER_TAG
    patterns of one tag.
    """

    def __init__(self, min_keys: int, capacity: int = TRACKED_TAGS) -> None:
        self.min_keys = min_keys
        self.capacity = capacity
        self.tags: dict[bytes, _Tag] = {}

    def add(self, fact: KeyFact, pattern: bytes) -> None:
        name = fact.name
        tag = hashtag_of(name) if isinstance(name, bytes) else scan_braces(name).constant_tag
        if tag is None:
            return
        entry = self.tags.get(tag)
        if entry is None:
            if len(self.tags) >= self.capacity:
                prune_table(self.tags, _total)
            entry = self.tags[tag] = _Tag()
        entry.total += 1
        if pattern in entry.patterns:
            entry.patterns[pattern] += 1
        elif len(entry.patterns) < PATTERNS_PER_TAG:
            entry.patterns[pattern] = 1
            entry.examples[pattern] = []
        else:
            return
        examples = entry.examples[pattern]
        if len(examples) < EXAMPLES:
            examples.append((self.part, Example(name if isinstance(name, bytes) else pattern, fact.origin)))

    def merge(self, other: Accumulator) -> None:
        assert isinstance(other, _SkewAccumulator)
        merge_table(self.tags, other.tags, self.capacity, _total, _Tag.merge)

    def finish(self) -> Iterator[AggregateResult]:
        for tag, entry in self.tags.items():
            if entry.total < self.min_keys:
                continue
            slot = hash_slot(tag)
            shown_tag = show(b"{" + tag + b"}")
            for pattern, count in entry.patterns.items():
                if count == entry.total:
                    share = Text("", "")
                else:
                    share = Text(f" ({count} of them match this pattern)", f"（其中 {count} 个匹配此模式）")
                message = Text(
                    f"{entry.total} keys share the constant hashtag {shown_tag}{share.en}, so they all hash to "
                    f"cluster slot {slot} and live on one shard, which then holds and serves them alone: put a "
                    "variable id in the tag (`rank:{<uid>}:…`), or drop the braces if multi-key operations do "
                    "not need these keys together",
                    f"{entry.total} 个 Key 使用同一个固定的 hashtag {shown_tag}{share.zh}，全部落在集群槽位 {slot}，"
                    "即同一个分片上，由它独自存储和承担访问：在 tag 中使用可变的 ID（`rank:{<uid>}:…`），"
                    "如果多 Key 操作不需要这些 Key 在一起，则去掉括号",
                )
                violation = Violation("constant-tag", message, value=entry.total)
                yield AggregateResult(pattern, violation, count, examples_of(entry.examples[pattern]))


@rule(
    "KEY013",
    "hashtag-slot-skew",
    title=("Many keys in one cluster slot", "大量 Key 落入同一集群槽位"),
    severity=Severity.WARNING,
    where=("live", "rdb", "keys"),
    sources=("000 §Key 名字如何设计 — 命名",),
)
class HashtagSlotSkew(AggregateRule[SlotSkewOptions]):
    """Checks for many keys pinned to one cluster slot by a constant hashtag.

    ## What it does
    Looks at key names whose hashtag holds no variable part (`rank:{global}:user:123`: the tag is
    `global` for every user) and counts the keys of each such tag. When at least `min-keys` keys share
    one constant tag, every pattern they belong to is reported with the key count and the slot they all
    land in (CRC16 of the tag modulo 16384, as Redis Cluster computes it). A tag holding an id
    (`user:{12345}:cart`) spreads over the slots and is never reported.

    At most 10 000 distinct constant tags are tracked at once; when the table is full, the quarter with the
    fewest keys so far is dropped. Tags with many keys are kept, so memory stays bounded on any key space
    while real skew is still found; a dropped tag that returns starts counting from zero.

    ## Why is this bad?
    Redis Cluster places a key by its hashtag alone, so every key with the same tag lands in the same slot
    and therefore on the same shard, however many shards the cluster has. That shard holds all of their
    memory and serves all of their traffic while the others idle, and the slot cannot be split further.

    ## Example
    5000 keys like these, all with the tag `global`:
    ```
    rank:{global}:user:1
    rank:{global}:user:2
    ```

    ## Use instead
    A tag that varies with the keys used together, or no hashtag at all when multi-key commands do not
    need these keys in one slot:
    ```
    rank:{1}:user
    rank:user:2
    ```

    ## Options
    - `min-keys`: report a constant tag shared by at least this many keys (default 1000).

    ## Source
    - 000 §Key 名字如何设计 — 命名: when using hashtags, take care that large amounts of data do not fall
      into the same shard, which unbalances the nodes.
    """

    Options = SlotSkewOptions

    def relevant(self, key: KeyTemplate, ctx: RuleContext[SlotSkewOptions]) -> bool:
        return scan_braces(key).constant_tag is not None

    def accumulator(self, ctx: RuleContext[SlotSkewOptions]) -> Accumulator:
        return _SkewAccumulator(ctx.options.min_keys)
