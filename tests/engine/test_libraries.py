"""Library attribution: shapes over inferred templates, and what the engine does with a library's keys."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rediscipline.api import settings_for
from rediscipline.engine.libraries import (
    LibraryCatalog,
    LibraryPolicy,
    ShapeError,
    compile_shape,
    default_catalog,
    shape_literals,
    typed,
)
from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyname import SLOT_ANY, KeyTemplate, Placeholder
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import Location
from rediscipline.redis_meta.libraries import FAMILIES, KeyFamily
from rediscipline.settings.loader import Overrides


def _family(
    family_id: str,
    *shapes: str,
    types: frozenset[str] = frozenset(),
    persists: bool = False,
    type_required: bool = False,
) -> KeyFamily:
    library = family_id.split(".", maxsplit=1)[0]
    return KeyFamily(
        id=family_id,
        library=library,
        ecosystem="python",
        versions=">=1",
        shapes=shapes,
        types=types,
        purpose=("p", "p"),
        persists=persists,
        setting="result_ttl",
        advice=(f"set {library}'s result_ttl", f"设置 {library} 的 result_ttl"),
        examples=(),
        docs="https://example.invalid",
        type_required=type_required,
    )


CATALOG = LibraryCatalog(
    (
        _family("jobs.job", "jobs:job:{var}", types=frozenset({"hash"})),
        _family("jobs.queue", "jobs:queue:{name}", types=frozenset({"list"}), persists=True),
        _family("jobs.result", "jobs-result-{uuid}"),
        _family("cache.entry", ":1:{rest}"),
        _family("spring.cache", "{name}::{rest}", types=frozenset({"string"}), type_required=True),
        _family("kombu.priority", "celery\x06\x16{int}"),
    )
)


def _of(name: bytes, key_type: str | None = None) -> str | None:
    family = CATALOG.family_of(KeyTemplate(infer_parts(name)), key_type)
    return family.id if family is not None else None


@pytest.mark.parametrize(
    ("name", "key_type", "family"),
    [
        (b"jobs:job:7d4c8f1e-2860-4f1c-9d3b-6e1a2b3c4d5e", "hash", "jobs.job"),
        (b"jobs:job:7d4c8f1e-2860-4f1c-9d3b-6e1a2b3c4d5e", None, "jobs.job"),  # type unknown: admitted
        (b"jobs:job:7d4c8f1e-2860-4f1c-9d3b-6e1a2b3c4d5e", "string", None),  # another type: not the library's
        (b"jobs:job:custom", "hash", None),  # {var} is a generated id, never a word
        (b"jobs:job:1:extra", "hash", None),  # the shape matches the whole key
        (b"jobs:queue:high", "list", "jobs.queue"),
        (b"jobs:queue:reports2", "list", "jobs.queue"),  # {name}: words and variable parts
        (b"jobs:queue:a:b", "list", None),  # {name} stops at `:`
        (b"jobs-result-fddbbaed-2860-4f1c-9d3b-6e1a2b3c4d5e", None, "jobs.result"),
        (b"jobs-result-12345", None, None),  # {uuid}: a UUID only
        (b":1:views.decorators.cache.cache_page.x", None, "cache.entry"),
        (b":1:", None, None),  # {rest} is one byte or more
        (b"users::42", "string", "spring.cache"),
        (b"users::42", None, None),  # a shape an application's key can take: only with its type
        (b"users::42", "hash", None),
        (b"user:42", None, None),
        (b"celery\x06\x163", "list", "kombu.priority"),
        (b"user:profile:1001", None, None),
    ],
)
def test_attribution(name: bytes, key_type: str | None, family: str | None) -> None:
    assert _of(name, key_type) == family


def test_code_templates_are_attributed_like_keys() -> None:
    template = KeyTemplate((b"jobs:job:", Placeholder(SLOT_ANY, label="job_id")))
    family = CATALOG.family_of(template, None)
    assert family is not None and family.id == "jobs.job"


def test_a_nul_in_a_key_is_not_a_placeholder() -> None:
    assert _of(b"jobs:job:\x00int\x00", "hash") is None


@pytest.mark.parametrize("shape", ["a:{bogus}", "a:{var", "a:}b"])
def test_malformed_shapes_are_refused(shape: str) -> None:
    with pytest.raises(ShapeError):
        compile_shape(shape)


def test_every_shape_of_the_catalog_compiles() -> None:
    """The catalog compiles a row when a key is first tried against it: its syntax is checked here."""
    rows = list(LibraryCatalog().rows())
    assert len(rows) == sum(len(family.shapes) for family in FAMILIES)
    for row in rows:
        assert compile_shape(row.shape).pattern


@pytest.mark.parametrize(
    ("shape", "literals"),
    [
        ("jobs:job:{var}", (b"jobs:job:",)),
        (":1:{rest}", (b":", b":")),  # a number may be an inferred placeholder
        ("LIMITS:{{LIMITER/{rest}}}", (b"LIMITS:{LIMITER/", b"}")),
        ("{prefix}:job:{name}:dependents", (b":job:", b":dependents")),
        ("celery\x06\x16{int}", (b"celery\x06\x16",)),
        ("{prefix}{name}", ()),
    ],
)
def test_a_shape_literals_are_its_text_between_fields_and_numbers(shape: str, literals: tuple[bytes, ...]) -> None:
    assert shape_literals(shape) == literals


def test_a_row_is_compiled_when_a_template_holding_its_literal_text_is_first_tried() -> None:
    catalog = LibraryCatalog(
        (_family("jobs.job", "jobs:job:{var}"), _family("cache.entry", ":1:{rest}"), _family("x.y", "{name}::{rest}"))
    )

    def compiled() -> set[str]:
        return {row.shape for row in catalog.rows() if row.compiled}

    assert compiled() == set()
    assert catalog.family_of(KeyTemplate(infer_parts(b"user:profile:1"))) is None
    assert compiled() == {":1:{rest}"}  # `jobs:job:` is not in the name; nor is `::`
    family = catalog.family_of(KeyTemplate(infer_parts(b"users::42")))
    assert family is not None and family.id == "x.y"
    assert compiled() == {":1:{rest}", "{name}::{rest}"}
    family = catalog.family_of(KeyTemplate(infer_parts(b"jobs:job:7d4c8f1e-2860-4f1c-9d3b-6e1a2b3c4d5e")))
    assert family is not None and family.id == "jobs.job"
    assert compiled() == {":1:{rest}", "{name}::{rest}", "jobs:job:{var}"}


def test_the_literal_text_never_keeps_a_row_from_a_template_it_matches() -> None:
    """Every example of the catalog against every row: a row skipped for its literal text never matches."""
    rows = list(LibraryCatalog().rows())
    patterns = [compile_shape(row.shape) for row in rows]
    examples = {example for family in FAMILIES for example in family.examples}
    for example in sorted(examples):
        rendered = typed(KeyTemplate(infer_parts(example.encode())))
        for row, pattern in zip(rows, patterns, strict=True):
            assert (row.fullmatch(rendered) is None) == (pattern.fullmatch(rendered) is None), (example, row.shape)


def _engine(mode: str = "skip", modes: dict[str, str] | None = None) -> Engine:
    settings = settings_for(Overrides(isolated=True, select=("KEY006", "KEY008", "TTL001")))
    return Engine(settings.rules, libraries=LibraryPolicy(CATALOG, mode, modes or {}))


def _feed(engine: Engine, name: bytes, key_type: str, ttl_ms: int = -1) -> None:
    engine.feed(KeyFact(name, Location("live", "redis://127.0.0.1:6379", db=0), 0, key_type, ttl_ms=ttl_ms))


def _findings(engine: Engine) -> set[tuple[str, bytes | None, int, str | None]]:
    return {(f.rule_id, f.pattern, f.count, f.library) for f in engine.finish("live").findings}


def test_library_keys_skip_naming_and_persisting_families_skip_missing_ttl() -> None:
    engine = _engine()
    for index in range(3):
        _feed(engine, f"jobs:job:{index:08x}-2860-4f1c-9d3b-6e1a2b3c4d5e".encode(), "hash")
    _feed(engine, b"jobs:queue:High", "list")
    _feed(engine, b"App:Thing", "string")
    assert _findings(engine) == {
        ("TTL001", b"jobs:job:*", 3, "jobs.job"),  # expiring family: missing TTL, with the library's setting
        ("KEY006", b"App:Thing", 1, None),  # the team's own key: judged
        ("TTL001", b"App:Thing", 1, None),
    }  # the queue persists by design and its name is the library's format: nothing


def test_judged_libraries_get_naming_findings() -> None:
    engine = _engine(modes={"jobs": "judge"})
    _feed(engine, b"jobs:queue:High", "list")
    assert _findings(engine) == {("KEY006", b"jobs:queue:High", 1, "jobs.queue")}


def test_pattern_rows_name_the_family_and_measure_the_keys() -> None:
    engine = _engine()
    _feed(engine, b"jobs:job:7d4c8f1e-2860-4f1c-9d3b-6e1a2b3c4d5e", "hash", ttl_ms=5000)
    _feed(engine, b"jobs:job:8d4c8f1e-2860-4f1c-9d3b-6e1a2b3c4d5e", "hash")
    _feed(engine, b"app:thing", "string")
    rows = {row.pattern: row for row in engine.finish("live").stats.pattern_stats}
    job = rows[b"jobs:job:*"]
    assert (job.count, job.types, job.with_ttl, job.library) == (2, (("hash", 2),), 1, "jobs.job")
    assert rows[b"app:thing"].library is None


PREFIXED = LibraryCatalog(
    (
        replace(_family("site.page", "{prefix}:{int}:views.page.{rest}"), proves_prefix=True),
        _family("site.cache", "{prefix}:{int}:{rest}"),
    )
)


def _prefixed_engine(part: int = 0) -> Engine:
    settings = settings_for(Overrides(isolated=True, select=("KEY006", "TTL001")))
    return Engine(settings.rules, libraries=LibraryPolicy(PREFIXED), part=part)


def test_a_prefix_proved_by_one_key_claims_the_generic_keys_under_it_whenever_they_came() -> None:
    engine = _prefixed_engine()
    _feed(engine, b"shop:3:User_Profile_1", "string")  # before the key that proves `shop` is the library's
    _feed(engine, b"shop:3:views.page.home", "string")
    _feed(engine, b"other:1:User_Profile_1", "string")  # `other` is proved by no key: the team's own
    assert _findings(engine) == {
        ("TTL001", b"shop:*:User_Profile_*", 1, "site.cache"),  # KEY006 left the library's format alone
        ("TTL001", b"shop:*:views.page.home", 1, "site.page"),
        ("KEY006", b"other:*:User_Profile_*", 1, None),
        ("TTL001", b"other:*:User_Profile_*", 1, None),
    }


def test_a_prefix_proved_in_another_part_settles_after_the_merge() -> None:
    first, second = _prefixed_engine(0), _prefixed_engine(1)
    _feed(first, b"shop:3:User_Profile_1", "string")
    _feed(second, b"shop:3:views.page.home", "string")
    first.merge(second.partial())
    assert ("KEY006", b"shop:*:User_Profile_*", 1, None) not in _findings(first)


def test_prefix_only_at_the_start_of_a_shape() -> None:
    with pytest.raises(ShapeError, match="only at the start"):
        compile_shape("a:{prefix}")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.id)
def test_every_example_of_the_catalog_is_attributed_to_its_row(family: KeyFamily) -> None:
    """The catalog's examples, inferred as stored keys are, land on their own row with any of its types."""
    catalog = default_catalog()
    for example in family.examples:
        name = example.encode("utf-8") if any(ord(c) > 255 for c in example) else example.encode("latin-1")
        template = KeyTemplate(infer_parts(name))
        found = {catalog.family_of(template, key_type) for key_type in sorted(family.types)}
        found |= {f for key_type in family.types for f, _prefix in catalog.waiting(template, key_type)}
        assert family in found, (example, sorted(f.id for f in found))


def test_names_longer_than_any_library_writes_are_not_attributed() -> None:
    """A megabyte-long name is the application's (shapes with several `{rest}` would backtrack over it)."""
    name = b":1:views.decorators.cache.cache_page." + b"(" * 1_048_576
    assert default_catalog().match(KeyTemplate(infer_parts(name)), "string") is None
    assert default_catalog().waiting(KeyTemplate(infer_parts(b"shop:3:" + b"x" * 2000)), "string") == []
