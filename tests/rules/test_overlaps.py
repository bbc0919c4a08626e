"""Overlapping naming rules: every two violations about the same bytes belong to a declared pair, and a
declared winner leaves no shared bytes to the other rule.

The corpus is every key of the KEY case files (and the code templates of their calls), the names of
tests/rules/data/key_names.txt (names seen in public code, each judged as a stored key and as a code
template) and names built from fragments that make each naming rule report, two at a time, glued and in
neighbouring levels. Each name is judged with every naming rule enabled, once with the default options and
once with options and namespaces that make the optional codes report too.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, cast

import pytest

from rediscipline.engine.overlaps import Checked, settle
from rediscipline.engine.runner import Engine
from rediscipline.engine.scopes import Scopes
from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import Location
from rediscipline.rules import default_registry
from rediscipline.rules.base import ConfiguredRule, NameRule, Overlap, covered_by, merge_spans
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.options import build
from rediscipline.settings.namespaces import parse_namespace
from tests.rules.casefile import glob_template, load_cases

NAMES = Path(__file__).parent / "data" / "key_names.txt"
NAME_RULES = [cls for cls in default_registry() if issubclass(cls, NameRule)]
ROWS: dict[frozenset[str], Overlap] = {frozenset(row.rules): row for row in NAME_OVERLAPS}

#: Options and namespaces under which the optional codes report (`uppercase-id`, `hash-sign`, `forbidden`,
#: `abbreviate`, `missing`, `position`, `unlabelled-date`, `undeclared`, `mget-too-long`, …).
STRICT_OPTIONS: dict[str, dict[str, Any]] = {
    "KEY006": {"check-identifiers": True},
    "KEY012": {"policy": "forbidden"},
    "KEY014": {"allowed": False},
    "KEY015": {"policy": "abbreviate"},
    "KEY016": {"require": True, "position": "last"},
    "KEY017": {"require-label": True},
}
STRICT_NAMESPACES: dict[str, dict[str, Any]] = {
    "user:*": {"hashtag": "required", "type": "hash"},
    "order:*": {"hashtag": "forbidden", "read-by-mget": True},
    "cart:*": {"hashtag": "allowed", "max-key-bytes": 20},
}
PROFILES: dict[str, tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]] = {
    "defaults": ({}, {}),
    "strict": (STRICT_OPTIONS, STRICT_NAMESPACES),
}

#: Bytes that make one naming rule report, or that sit at the edge of what it reports.
FRAGMENTS = (
    " ", "\t", "'", "\\", "\x00",  # KEY001
    "é", "\xff",  # KEY002 (UTF-8 text; a byte that is not UTF-8)
    "*", "?", "[", "]",  # KEY003
    "@", "$", "/", "(",  # KEY004
    "AID", "User", "A", "userId", "aB", "UserProfile", "XMLHttp",  # KEY006, KEY007
    "::", "##", ":#", ":",  # KEY009
    "-", ".", "+", "=",  # KEY010
    "{", "}", "{x}", "{}", "{a{b}c}", "{1}",  # KEY011, KEY012
    "#", "#x", "#1",  # KEY014
    "u", "p", "usr", "x" * 40, "economic",  # KEY015
    "str", "hmap", "hash", "Str", "zset",  # KEY016
    "date", "date:", "date:2024", "date:20241340", "ts", "ts:abc", "ts:", "20241122",  # KEY017
    "123", "order", "user", "cart",  # values and declared namespaces
)  # fmt: skip


def _fragment_names() -> Iterator[bytes]:
    for first, second in itertools.product(FRAGMENTS, repeat=2):
        a, b = first.encode("utf-8", "surrogateescape"), second.encode("utf-8", "surrogateescape")
        if first == "\xff":
            a = b"\xff"
        if second == "\xff":
            b = b"\xff"
        yield a + b
        yield b"user:" + a + b":" + b + b":1"


@cache
def named_corpus() -> dict[KeyTemplate, bytes | None]:
    """Every template of the corpus, once, with a stored key it stands for (None: a code template)."""
    templates: dict[KeyTemplate, bytes | None] = {}
    names = [name for case in load_cases() if case.rule_id.startswith("KEY") for name in case.keys]
    names += NAMES.read_bytes().split(b"\n")
    names += _fragment_names()
    for name in names:
        templates.setdefault(KeyTemplate(infer_parts(name)), name)
    code = [key for case in load_cases() if case.rule_id.startswith("KEY") for call in case.calls for key in call.keys]
    code += [glob_template(name.decode("utf-8", "surrogateescape")) for name in NAMES.read_bytes().split(b"\n")]
    for key in code:
        templates.setdefault(key, None)
    return templates


def corpus() -> tuple[KeyTemplate, ...]:
    return tuple(named_corpus())


@cache
def scopes(profile: str) -> Scopes:
    options, namespaces = PROFILES[profile]
    rules = [
        ConfiguredRule(cls(), build(cls.Options, options.get(cls.meta.id, {})), cls.meta.severity) for cls in NAME_RULES
    ]
    policies = [parse_namespace(pattern, table, "test") for pattern, table in namespaces.items()]
    catalog = {cls.meta.id: cls.meta for cls in NAME_RULES}
    return Scopes(rules, policies, {}, catalog, frozenset(catalog))


@cache
def checked(profile: str, key: KeyTemplate) -> tuple[Checked, ...]:
    """What every naming rule of the profile says about `key`, before overlaps are settled."""
    found = scopes(profile)
    scope = found.get(found.of(key.pattern) if found.scoped else None)
    return tuple(
        (configured, ctx, list(cast(NameRule[Any], configured.rule).check(key, None, ctx)))
        for configured, ctx in scope.name_rules
    )


def _intersect(first: Violation, second: Violation) -> bool:
    return any(a < d and c < b for a, b in first.spans for c, d in second.spans)


def meetings(results: Sequence[Checked]) -> Iterator[tuple[str, Violation, str, Violation]]:
    """Every two violations of different rules whose spans intersect."""
    flat = [(configured.id, v) for configured, _ctx, violations in results for v in violations]
    for (first, v1), (second, v2) in itertools.combinations(flat, 2):
        if first != second and _intersect(v1, v2):
            yield first, v1, second, v2


def _show(key: KeyTemplate, first: str, v1: Violation, second: str, v2: Violation) -> str:
    return f"{key.pattern!r}: {first}/{v1.code} {v1.spans} and {second}/{v2.code} {v2.spans}"


def _all_meetings(profile: str) -> Iterable[tuple[KeyTemplate, str, Violation, str, Violation]]:
    """Every meeting of two rules in the corpus, before overlaps are settled."""
    for key in corpus():
        for meeting in meetings(checked(profile, key)):
            yield (key, *meeting)


@pytest.mark.parametrize("profile", PROFILES)
def test_every_overlap_is_declared(profile: str) -> None:
    undeclared = [
        _show(key, first, v1, second, v2)
        for key, first, v1, second, v2 in _all_meetings(profile)
        if frozenset((first, second)) not in ROWS
    ]
    assert not undeclared, f"{len(undeclared)} overlaps with no row in NAME_OVERLAPS, e.g. {undeclared[:12]}"


@pytest.mark.parametrize("profile", PROFILES)
def test_a_winner_leaves_the_other_rule_nothing_it_reports(profile: str) -> None:
    """After settling, no span of a rule lies within what a rule it defers to reports (a span it shares only
    in part is another fact: `date:::` has two empty levels, one of them the date's)."""
    left = []
    for key in corpus():
        settled = settle(checked(profile, key), key, None)
        fired = {configured.id: violations for configured, _ctx, violations in settled}
        for configured, _ctx, violations in settled:
            for winner in cast(NameRule[Any], configured.rule).defers_to & fired.keys():
                covered = merge_spans(span for v in fired[winner] for span in v.spans)
                left += [
                    f"{key.pattern!r}: {configured.id}/{v.code} {v.spans} within {winner}'s {covered}"
                    for v in violations
                    if any(covered_by(span, covered) for span in v.spans)
                ]
    assert not left, f"{len(left)} violations left on bytes their winner reports, e.g. {left[:12]}"


def test_every_row_is_met_in_the_corpus() -> None:
    met = {frozenset((first, second)) for profile in PROFILES for _k, first, _1, second, _2 in _all_meetings(profile)}
    assert not [row.rules for row in NAME_OVERLAPS if frozenset(row.rules) not in met]


@pytest.mark.parametrize("row", NAME_OVERLAPS, ids=["+".join(row.rules) for row in NAME_OVERLAPS])
def test_each_row_names_rules_and_an_example_where_they_meet(row: Overlap) -> None:
    ids = {cls.meta.id for cls in NAME_RULES}
    assert set(row.rules) <= ids and row.rules[0] < row.rules[1]
    assert row.winner is None or row.winner in row.rules
    key = KeyTemplate(infer_parts(row.example.encode("utf-8")))
    met = {
        frozenset((first, second)) for profile in PROFILES for first, _1, second, _2 in meetings(checked(profile, key))
    }
    assert frozenset(row.rules) in met, f"{row.rules} do not meet on {row.example!r}"


def test_the_table_has_one_row_per_pair_and_each_rule_carries_its_rows() -> None:
    assert len(ROWS) == len(NAME_OVERLAPS)
    for cls in NAME_RULES:
        mine = tuple(row for row in NAME_OVERLAPS if cls.meta.id in row.rules)
        assert cls.overlaps == mine, cls.meta.id
        winners = {row.winner for row in mine if row.winner not in (None, cls.meta.id)}
        assert cls.defers_to == winners, cls.meta.id


@pytest.mark.parametrize("profile", PROFILES)
def test_the_engine_reports_what_settling_leaves(profile: str) -> None:
    """The engine settles overlaps on every template: its findings for one name are the settled violations."""
    options, namespaces = PROFILES[profile]
    rules = [
        ConfiguredRule(cls(), build(cls.Options, options.get(cls.meta.id, {})), cls.meta.severity) for cls in NAME_RULES
    ]
    policies = [parse_namespace(pattern, table, "test") for pattern, table in namespaces.items()]
    differ = []
    for key, name in named_corpus().items():
        engine = Engine(rules, policies)
        if name is None:
            engine.feed(KeyFact(key, Location("code", "app.py")))
        else:
            engine.feed_name(name)
        found = {(f.rule_id, f.code): f.message.en for f in engine.finish().findings}
        expected: dict[tuple[str, str], set[str]] = {}
        for configured, _ctx, violations in settle(checked(profile, key), key, None):
            for v in violations:
                expected.setdefault((configured.id, v.code), set()).add(v.message.en)
        # one finding per rule, code and pattern: a template with two violations of one code shows one of them
        if found.keys() != expected.keys() or any(message not in expected[code] for code, message in found.items()):
            differ.append((key.pattern, found, expected))
    assert not differ, differ[:5]
