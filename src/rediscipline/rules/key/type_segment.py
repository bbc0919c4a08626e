"""KEY016 type-segment."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate, Segment
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.redis_meta.records import KEY_TYPES
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, level_extents, quoted, segment_label
from rediscipline.rules.options import RuleOptions, option

#: Non-canonical spellings of a type word. `map` and `dict` are left out on purpose: as a level they
#: usually mean a business thing (a game map, a dictionary), not the Redis type.
ALIASES = MappingProxyType(
    {
        "hashmap": "hash",
        "hmap": "hash",
        "sortedset": "zset",
        "sorted_set": "zset",
        "sorted-set": "zset",
        "lst": "list",
        "str": "string",
        "strm": "stream",
    }
)


@dataclass(frozen=True)
class TypeSegmentOptions(RuleOptions):
    words: tuple[str, ...] = option(KEY_TYPES, "The canonical type words a level may be.")
    aliases: Mapping[str, str] = option(ALIASES, "Non-canonical type words (→ the canonical word to write).")
    require: bool = option(False, "Every key must contain a type level.")
    position: str = option(
        "anywhere",
        "Where the type level goes: `anywhere` (004) or `last` (a type suffix, `user:basic.info:1:hash`).",
        choices=("anywhere", "last"),
    )


@rule(
    "KEY016",
    "type-segment",
    title=("Type level missing, misspelled or wrong", "类型层级缺失、不规范或与实际类型不符"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=("004 §3 数据类型扩展命名",),
    overlaps=NAME_OVERLAPS,
)
class TypeSegment(NameRule[TypeSegmentOptions]):
    """Checks the optional level that names the key's Redis type (`chat:messages:list:room_id:56789`).

    ## What it does
    Finds levels that are exactly a type word (`string`, `list`, `hash`, `set`, `zset`, `stream`; the whole
    level, so `settings` is not `set`) and reports:
    - `alias`: a non-canonical spelling (`hashmap`, `sortedset`, `lst`);
    - `mismatch` (error): the name says one type but the key is another — its real type, when the source
      knows it (live server, RDB; in code and at run time, the type its command implies), or else the
      type its namespace declares;
    - `namespace-type` (error): the key's real type differs from the `type` its namespace declares;
    - `missing`: with `require = true`, the key has no type level;
    - `position`: with `position = "last"`, the type level is not the last one.

    On a string key (its real type, else the type its namespace declares), a type word that is the last
    literal level (only placeholder levels may follow it) is a label of the data, not a type level, and is
    not judged: `file:42:hash` and `file:hash:<sha>` hold or index a digest, `user:42:list` a serialised
    list. This holds for keys in code, whose type comes from the command (`r.set(f"file:{fid}:hash", d)`),
    as for keys read from a server. With `position = "last"`, the last level is declared to be the type,
    so it is judged as one.

    At run time (the guard), every key the application sends is judged, with the type its command implies
    (HSET: hash; a command on keys of any type, such as DEL or EXPIRE, implies none).

    ## Why is this bad?
    A type level is a promise: readers and tools pick commands from it. `chat:messages:list:…` that is
    really a zset sends people to LRANGE and gets WRONGTYPE errors, and a namespace declared as hashes that
    holds strings breaks every HGET written for it. Several spellings of one type (`hash`, `hashmap`) make
    the keyspace impossible to grep.

    ## Example
    ```
    user:profile:hashmap:id:12345
    chat:messages:list:room_id:56789     (a zset on the server)
    ```

    ## Use instead
    ```
    user:profile:hash:id:12345
    chat:messages:zset:room_id:56789
    ```

    ## Options
    - `words`: the canonical type words (default string, list, hash, set, zset, stream).
    - `aliases`: non-canonical spellings and the word to write instead (`hashmap` → `hash`, `sortedset` → `zset`, …).
    - `require`: every key must have a type level (default false; Tencent Cloud's convention requires it).
    - `position`: `anywhere` (default, 004 puts it in the description or after the identifier) or `last`.

    ## Source
    - 004 §3 数据类型扩展命名: an optional type level such as `list`, `hash`, `set`, `zset`
      (chat:messages:list:room_id:56789, user:profile:hash:id:12345, leaderboard:score:zset:game_id:11111).
    """

    Options = TypeSegmentOptions

    needs = frozenset({"type"})  # the real type, when the source can probe it (`mismatch`)
    reads_namespace = frozenset({"type"})

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[TypeSegmentOptions]
    ) -> Iterator[Violation]:
        opts = ctx.options
        words = {w.lower() for w in opts.words}
        aliases = {k.lower(): v.lower() for k, v in opts.aliases.items()}
        segments = key.segments()
        actual = _actual_type(key_type, aliases)
        declared = ctx.namespace.type if ctx.namespace is not None else None
        expected, whose = (actual, "the key is") if actual else (declared, "its namespace declares")
        data_label = _data_label(segments, expected, opts.position)
        named: list[str] = []  # canonical type named by each type level, in order
        positions: list[int] = []
        misspelled: list[str] = []
        aliased: list[int] = []  # indexes of the misspelled levels
        for segment in segments:
            label = segment_label(segment)
            if label is None or segment.index == data_label:
                continue
            if label in words:
                named.append(label)
            elif label in aliases:
                named.append(aliases[label])
                misspelled.append(f"{label} → {aliases[label]}")
                aliased.append(segment.index)
            else:
                continue
            positions.append(segment.index)
        extents = level_extents(key) if positions else ()
        if misspelled:
            yield Violation(
                "alias",
                Text(
                    f"non-canonical type level {quoted(misspelled)}",
                    f"类型层级写法不规范：{quoted(misspelled)}",
                ),
                spans=tuple(extents[index] for index in aliased),
            )
        if named and expected and expected not in named:
            zh_whose = "实际类型为" if actual else "所属命名空间声明为"
            yield Violation(
                "mismatch",
                Text(
                    f"the name says {' / '.join(dict.fromkeys(named))} but {whose} {expected}",
                    f"键名标明类型 {' / '.join(dict.fromkeys(named))}，但{zh_whose} {expected}",
                ),
                Severity.ERROR,
                spans=tuple(extents[index] for index in positions),
            )
        if actual and declared and actual != declared and ctx.namespace is not None:
            yield Violation(
                "namespace-type",
                Text(
                    f"the key is a {actual} but namespace `{ctx.namespace.pattern}` declares {declared}",
                    f"Key 的类型为 {actual}，但命名空间 `{ctx.namespace.pattern}` 声明为 {declared}",
                ),
                Severity.ERROR,
            )
        if opts.require and not named:
            suffix = f":{expected}" if expected else ":hash"
            yield Violation(
                "missing",
                Text(
                    f"the key has no type level; add one such as `{suffix}`",
                    f"键名缺少类型层级，请添加，例如 `{suffix}`",
                ),
            )
        if opts.position == "last" and positions and positions[-1] != segments[-1].index:
            yield Violation(
                "position",
                Text(
                    f"the type level `{named[-1]}` should be the last level",
                    f"类型层级 `{named[-1]}` 应位于键名末尾",
                ),
                spans=(extents[positions[-1]],),
            )


def _data_label(segments: tuple[Segment, ...], expected: str | None, position: str) -> int | None:
    """The index of the level that labels a string's data rather than naming a type, or None.

    On a string key, the last literal level (only placeholders may follow it) is what the value is:
    `file:42:hash` holds a digest, `file:hash:<sha>` maps a digest to a file, `user:42:list` a serialised
    list. With `position = "last"` the team declared that level to be the type, so it stays one.
    """
    if expected != "string" or position == "last":
        return None
    for segment in reversed(segments):
        if segment.literal:
            return segment.index
        if any(isinstance(part, bytes) and part for part in segment.parts):
            return None  # a level mixing text and a value (`v2_{id}`): no label to find
    return None


def _actual_type(key_type: str | None, aliases: Mapping[str, str]) -> str | None:
    """The key's real type from a source, normalised (`none`: the key vanished between SCAN and TYPE)."""
    if not key_type:
        return None
    lower = key_type.lower()
    if lower == "none":
        return None
    return aliases.get(lower, lower)
