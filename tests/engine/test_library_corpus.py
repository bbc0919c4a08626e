"""Pattern inference and library attribution measured on keyspaces written by real libraries.

`tests/data/library_keys/*.tsv` hold the keys real task queues, caches, session stores, rate limiters, locks
and object mappers left on a server (`scripts/library_keyspace/`), each labelled with the library that wrote
it and the family a person would name. Every file is fed to an engine as a scan would feed it (name, type,
TTL), and measured: patterns per family, families per pattern, and which keys are attributed to which
library. The tables printed with `-s` are the numbers quoted in the notes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import cache
from pathlib import Path

import pytest

from rediscipline.api import settings_for
from rediscipline.engine.libraries import LibraryPolicy, default_catalog
from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import Location
from rediscipline.settings.loader import Overrides
from tests.support.library_corpus import APPLICATION, Row, corpus_files, load

FILES = corpus_files()
ORIGIN = Location("live", "redis://127.0.0.1:6379", db=0)

#: Families whose keys differ by a word the application chose (a country, a currency pair, a function, a
#: schedule entry, a field name): words stay words, so such a family is a pattern per word until a level has 24 of them.
WORD_FAMILIES = frozenset(
    {
        "walrus cache country",
        "app cache exchange rate",
        "flask-caching memoize version",
        "flask-caching memoize instance version",
        "django-cacheops conjunction set",
        "redbeat entry",
    }
)
#: Families of different libraries whose keys have the same shape byte for byte (they differ in the Redis
#: type at most, which a pattern does not hold): one pattern covers both.
SAME_SHAPE = (
    frozenset({"flask-session session", "app session"}),
    frozenset({"dramatiq result", "taskiq result"}),
)
#: Families whose key names the application chose through a library's generic API (`cache.set("token_…")`
#: under an aiocache namespace, a pottery container's name, dogpile's `region.set(key)`), or in a shape
#: applications write too (python-redis-lock's `lock:<name>`: only its `lock-signal:` keys are the
#: library's own): no shape can claim them without claiming an application's keys.
APPLICATION_NAMED = frozenset(
    {
        "aiocache token",
        "aiocache user feed",
        "dogpile.cache region homepage",
        "pottery dict prefs",
        "pottery set tags",
        "pottery counter daily counts",
        "python-redis-lock lock invoice",
        "python-redis-lock lock user sync",
        "python-redis-lock lock report",
        "python-redis-lock lock forever-leader",
        "python-redis-lock lock refresh-exchange-rates",
        "python-redis-lock lock sitemap-rebuild",
    }
)
_SAME_SHAPE_FAMILIES = frozenset(name for pair in SAME_SHAPE for name in pair)
#: The catalog's library names a corpus library's keys may be attributed to (the same key format).
SAME_FORMAT = {"django-redis": {"django"}, "kombu": {"celery"}, "flask-limiter": {"limits"}}


@cache
def measured(path: Path) -> tuple[list[Row], list[bytes], dict[bytes, str]]:
    """The rows of one corpus file, the pattern each key ended up under, and the pattern → family map."""
    rows = load(path)
    engine = Engine(settings_for(Overrides(isolated=True)).rules, libraries=LibraryPolicy(default_catalog()))
    for row in rows:
        engine.feed(KeyFact(row.key, ORIGIN, 0, row.type, ttl_ms=row.ttl_ms))
    result = engine.finish("live")
    patterns = [engine.patterns.canonical(KeyTemplate(infer_parts(row.key)).pattern) for row in rows]
    families = {row.pattern: row.library for row in result.stats.pattern_stats if row.library}
    return rows, patterns, families


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_each_family_is_one_pattern(path: Path) -> None:
    rows, patterns, _families = measured(path)
    by_family: dict[tuple[str, str], Counter[bytes]] = defaultdict(Counter)
    for row, pattern in zip(rows, patterns, strict=True):
        by_family[(row.library, row.family)][pattern] += 1
    average = sum(len(found) for found in by_family.values()) / len(by_family)
    print(
        f"\n{path.stem}: {len(rows)} keys, {len(by_family)} families, {len(set(patterns))} patterns, "
        f"{average:.2f} patterns per family, at most {max(len(found) for found in by_family.values())}"
    )
    split = {name: len(found) for name, found in by_family.items() if len(found) > 3 and name[1] not in WORD_FAMILIES}
    assert not split
    assert average <= 1.3


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_no_pattern_covers_two_families(path: Path) -> None:
    rows, patterns, _families = measured(path)
    by_pattern: dict[bytes, set[str]] = defaultdict(set)
    for row, pattern in zip(rows, patterns, strict=True):
        by_pattern[pattern].add(row.family)  # Django and django-redis write the same families, named alike
    merged = {pattern: names for pattern, names in by_pattern.items() if len(names) > 1}
    assert all(frozenset(names) in SAME_SHAPE for names in merged.values()), merged


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_library_keys_are_attributed_to_their_library(path: Path) -> None:
    rows, patterns, families = measured(path)
    catalog = default_catalog()
    known = {library.lower() for library in catalog.libraries}
    right = total = 0
    wrong: Counter[tuple[str, str]] = Counter()
    for row, pattern in zip(rows, patterns, strict=True):
        family = catalog.by_id.get(families.get(pattern, ""))
        got = family.library.lower() if family is not None else None
        if row.library == APPLICATION:
            assert got is None, (row.key, got)  # an application's key is never a library's
            continue
        accepted = {row.library} | SAME_FORMAT.get(row.library, set())
        if not accepted & known or row.family in APPLICATION_NAMED or row.family in _SAME_SHAPE_FAMILIES:
            continue  # a library the catalog does not hold, or keys no shape can tell apart
        total += 1
        if got in accepted:
            right += 1
        elif got is not None:
            wrong[(row.library, got)] += 1
    print(f"\n{path.stem}: {right} of {total} keys of catalogued libraries attributed to their library")
    assert not wrong
    assert total and right >= 0.9 * total
