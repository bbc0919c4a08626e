"""The catalog rows of libraries outside Python: well-formed, distinct, and attributing the keys those libraries
write (and nothing an application writes)."""

from __future__ import annotations

import re

import pytest

from rediscipline.engine.libraries import LibraryCatalog
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts
from rediscipline.redis_meta.libraries.other_ecosystems import OTHER_ECOSYSTEMS
from rediscipline.redis_meta.libraries.schema import KeyFamily

FIELDS = frozenset({"var", "name", "rest", "int", "uuid", "hex", "token", "date", "prefix"})
ECOSYSTEMS = frozenset({"ruby", "node", "java", "php", "dotnet"})
TYPES = frozenset({"string", "list", "set", "zset", "hash", "stream"})
CJK = re.compile(r"[\u4e00-\u9fff]")
CATALOG = LibraryCatalog(OTHER_ECOSYSTEMS)


def shape_fields(shape: str) -> list[str]:
    """The fields of a shape, read brace by brace; raises ValueError on an unknown field or a stray brace."""
    fields: list[str] = []
    position = 0
    while position < len(shape):
        if shape.startswith(("{{", "}}"), position):
            position += 2
        elif shape[position] == "{":
            end = shape.find("}", position)
            if end < 0:
                raise ValueError(f"unclosed brace in {shape!r}")
            field = shape[position + 1 : end]
            if field not in FIELDS:
                raise ValueError(f"unknown field {{{field}}} in {shape!r}")
            fields.append(field)
            position = end + 1
        elif shape[position] == "}":
            raise ValueError(f"stray closing brace in {shape!r}")
        else:
            position += 1
    return fields


@pytest.mark.parametrize(
    ("shape", "fields"),
    [
        ("bull:{name}:{var}", ["name", "var"]),
        ("bull:{{{name}}}:wait", ["name"]),
        ("{name}::{rest}", ["name", "rest"]),
        ("stat:processed:{date}", ["date"]),
    ],
)
def test_shape_parser_reads_fields(shape: str, fields: list[str]) -> None:
    assert shape_fields(shape) == fields


@pytest.mark.parametrize("shape", ["bull:{queue}:wait", "bull:{name:wait", "bull:name}:wait", "bull:{}:wait"])
def test_shape_parser_rejects_bad_shapes(shape: str) -> None:
    with pytest.raises(ValueError):
        shape_fields(shape)


def _of(name: str, key_type: str | None) -> str | None:
    family = CATALOG.family_of(KeyTemplate(infer_parts(name.encode())), key_type)
    return family.id if family is not None else None


@pytest.mark.parametrize("family", OTHER_ECOSYSTEMS, ids=lambda family: family.id)
def test_row_is_well_formed(family: KeyFamily) -> None:
    assert re.fullmatch(r"[a-z0-9_]+\.[a-z0-9_]+", family.id)
    assert family.library and family.versions
    assert family.ecosystem in ECOSYSTEMS
    assert family.shapes and family.examples
    assert family.types <= TYPES
    for shape in family.shapes:
        shape_fields(shape)
    for english, chinese in (family.purpose, family.advice):
        assert english.isascii() and english.strip()
        assert CJK.search(chinese)
    assert family.docs.startswith("https://")
    for advice in family.advice:  # the setting is named in both languages
        assert family.setting in advice


def test_ids_are_unique() -> None:
    ids = [family.id for family in OTHER_ECOSYSTEMS]
    assert len(ids) == len(set(ids))


def test_no_shape_is_in_two_rows() -> None:
    shapes = [shape for family in OTHER_ECOSYSTEMS for shape in family.shapes]
    assert len(shapes) == len(set(shapes))


@pytest.mark.parametrize(
    ("family", "example"),
    [(family, example) for family in OTHER_ECOSYSTEMS for example in family.examples],
    ids=lambda value: value.id if isinstance(value, KeyFamily) else value,
)
def test_example_is_attributed_to_its_row(family: KeyFamily, example: str) -> None:
    """Every example is claimed by its own row, for at least one of the row's Redis types."""
    attributed = {_of(example, key_type) for key_type in family.types or {None}}
    assert family.id in attributed


# Keys a bullmq 6.7 and bull 4.16 workload left on a real redis-server (delayed, prioritized, deduplicated,
# repeatable, rate-limited, paused, failing and running jobs, a flow and a hash-tagged queue), with their types.
BULL_KEYSPACE = {
    "bull:emails:1": "hash",
    "bull:emails:1:logs": "list",
    "bull:emails:448d774a-cd5e-4758-8f9d-dc35c47e97ed": "hash",
    "bull:emails:b3a8c7fc-9819-4bc5-af26-69d1da38b8f5:dependencies": "set",
    "bull:emails:completed": "zset",
    "bull:emails:delayed": "zset",
    "bull:emails:events": "stream",
    "bull:emails:failed": "zset",
    "bull:emails:id": "string",
    "bull:emails:meta": "hash",
    "bull:emails:metrics:completed": "hash",
    "bull:emails:metrics:failed": "hash",
    "bull:emails:repeat": "zset",
    "bull:emails:repeat:every-min": "hash",
    "bull:emails:repeat:every-min:1795790567690": "hash",
    "bull:emails:repeat:every-min:1795790567690:logs": "list",
    "bull:emails:stalled-check": "string",
    "bull:emails:waiting-children": "zset",
    "bull:legacy:repeat:d5a5da4ed4366ca491c9de0296251f7e:1795790640000": "hash",
    "bull:slow:1:lock": "string",
    "bull:slow:active": "list",
    "bull:slow:marker": "zset",
    "bull:slowlegacy:1:lock": "string",
    "bull:{orders}:1": "hash",
    "bull:{orders}:completed": "zset",
    "bull:{orders}:events": "stream",
    "bull:bheld:meta-paused": "string",
    "bull:bheld:paused": "list",
    "bull:bidle:priority": "zset",
    "bull:bidle:wait": "list",
    "bull:blim:limiter": "string",
    "bull:blim:limiter:index": "hash",
    "bull:blim:limiter:limited": "set",
    "bull:idle:de:dd1": "string",
    "bull:idle:pc": "string",
    "bull:idle:prioritized": "zset",
}


@pytest.mark.parametrize(("name", "key_type"), sorted(BULL_KEYSPACE.items()))
def test_bull_keyspace_is_attributed(name: str, key_type: str) -> None:
    family = _of(name, key_type)
    assert family is not None and family.startswith("bullmq.")


# Keys an application writes: no row of another ecosystem may claim them, whatever their type.
APPLICATION_KEYS = [
    "queue:default",
    "queues:default",
    "session:5f1b2c3d-1111-4a2b-9c3d-0123456789ab",
    "cache:user:42",
    "user:42",
    "user:42:profile",
    "orders:2025-02-14",
    "stat:visits",
    "stat:processed:orders",
    "jobs:emails:1",
    "myapp:bull",
    "views:42",
    "web-1:4242:0a1b2c3d4e5f",
    "laravel:cache:users",
    "spring:config",
    "rate:10.0.0.1",
    "schedules",
    "dead_letters",
]


@pytest.mark.parametrize("name", APPLICATION_KEYS)
@pytest.mark.parametrize("key_type", [None, "string", "list", "set", "zset", "hash"])
def test_application_keys_are_not_attributed(name: str, key_type: str | None) -> None:
    assert _of(name, key_type) is None


def test_spring_cache_comes_after_the_sidekiq_histograms() -> None:
    """`h|Foo::BarJob-14-8:43` has Spring Cache's `::`; the Sidekiq row, earlier in the tuple, wins."""
    assert _of("h|Foo::BarJob-14-8:43", "string") == "sidekiq.metrics"
    assert _of("users::42", "string") == "spring_cache.entry"
