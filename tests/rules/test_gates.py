"""Fact rules' gates (`rules.gate`) are necessary conditions: a key a rule's `check` reports always passes the
rule's gate, whatever the options, the namespace and the server. The compiled core calls `check` only for keys
that pass, so a gate that stops a reportable key would lose a finding there."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rediscipline.model.facts import KeyFact
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.location import Location
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.server import ServerFact
from rediscipline.rules import ALL_RULES
from rediscipline.rules.base import AggregateRule, FactRule, RuleContext
from rediscipline.rules.gate import FACT_FIELDS, NEVER, Gate, above, when
from rediscipline.rules.options import OptionError, build
from rediscipline.rules.value.serialized_value import JAVA_MAGIC

FACT_RULES = [rule for rule in ALL_RULES if issubclass(rule, FactRule)]
GATED = [rule for rule in FACT_RULES if rule.gate is not FactRule.gate]

# Numbers around every default limit of the fact rules, and a few far from them.
EDGES = [0, 1, 255, 256, 511, 512, 1023, 1024, 4096, 5000, 5001, 10240, 10241, 12304, 65536, 1 << 20, (1 << 20) + 1]
NUMBERS = st.one_of(st.sampled_from(EDGES), st.integers(0, 1 << 24), st.sampled_from([e - 1 for e in EDGES if e]))
DAY = 86_400
HEADS = st.one_of(
    st.none(),
    st.sampled_from(
        [
            b"",
            JAVA_MAGIC + b"sr\x00\x10",
            b"\x80\x04\x95\x10\x00",
            b"\x80\x02}q\x00.",
            b'{"id": 1, "name": "' + b"a" * 400 + b'"}',
            b"<?xml version='1.0'?><a>" + b"b" * 300,
            b"HYLL" + b"\x00" * 12,
            b"word " * 200,
        ]
    ),
    st.binary(max_size=300),
)


def facts(numbers: st.SearchStrategy[int]) -> st.SearchStrategy[KeyFact]:
    """Keys whose sizes, TTLs and idle times are drawn from `numbers` or near the defaults' limits."""
    sizes = st.one_of(st.none(), NUMBERS, numbers)
    return st.builds(
        lambda kind, length, ttl, memory, largest, idle, encoding, head: KeyFact(
            b"user:1",
            Location("rdb", "gate.rdb", db=0),
            0,
            kind,
            ttl,
            memory,
            length,
            encoding,
            idle,
            None,
            None,
            largest,
            head,
        ),
        st.sampled_from(["string", "hash", "list", "set", "zset", "stream", None]),
        sizes,
        st.one_of(
            st.none(),
            st.sampled_from([-2, -1, 0, 1000, DAY * 1000, 400 * DAY * 1000]),
            st.integers(-2, 10**12),
            numbers.map(lambda n: n * 1000),
        ),
        sizes,
        sizes,
        st.one_of(
            st.none(), st.sampled_from([0, 30 * DAY, 30 * DAY + 1, 400 * DAY]), numbers.map(lambda n: n * DAY + 1)
        ),
        st.sampled_from(["hashtable", "listpack", "quicklist", "skiplist", "intset", "raw", "embstr", "int", None]),
        HEADS,
    )


NAMESPACES = st.one_of(
    st.none(),
    st.builds(
        lambda low, high, required, elements: NamespacePolicy(
            "user:*", ttl_min_seconds=low, ttl_max_seconds=high, ttl_required=required, max_elements=elements
        ),
        st.sampled_from([None, 60]),
        st.sampled_from([None, 3600, DAY * 30]),
        st.sampled_from([None, True, False]),
        st.sampled_from([None, 100, 5000]),
    ),
)
SERVERS = st.sampled_from(
    [None, ServerFact(Location("live", "redis://gate")), ServerFact(Location("live", "redis://gate"), config={})]
    + [
        ServerFact(Location("live", "redis://gate"), config={"lazyfree-lazy-expire": value})
        for value in ("no", "yes", "NO")
    ]
)


def test_every_fact_rule_that_can_state_its_keys_has_a_gate() -> None:
    """Each fact rule of the catalog declares a gate; the compiled core calls an ungated rule on every key."""
    assert {rule.meta.id for rule in FACT_RULES} - {rule.meta.id for rule in GATED} == set()


@pytest.mark.parametrize("rule", GATED, ids=[rule.meta.id for rule in GATED])
@settings(max_examples=400, deadline=None)
@given(namespace=NAMESPACES, server=SERVERS, data=st.data())
def test_a_reported_key_passes_the_gate(
    rule: type[FactRule[Any]], namespace: NamespacePolicy | None, server: ServerFact | None, data: Any
) -> None:
    options = data.draw(st.sampled_from(_option_variants(rule)))
    limits = [v for v in vars(build(rule.Options, options)).values() if isinstance(v, int) and not isinstance(v, bool)]
    fact = data.draw(
        facts(st.sampled_from([n + step for n in [*limits, 1] for step in (-1, 0, 1, 2) if n + step >= 0]))
    )
    ctx = RuleContext(build(rule.Options, options), rule.meta.severity, namespace, server=server)
    instance = rule()
    gate = instance.gate(ctx)
    assert gate is not None
    found = instance.check(fact, KeyTemplate.literal(b"user:1"), ctx)
    if found is not None:
        assert gate.passes(fact), f"{rule.meta.id} reported {found.code} for a key its gate {gate} stops"


def _option_variants(rule: type[FactRule[Any]]) -> list[dict[str, Any]]:
    """The defaults, and each numeric option at 0 (off) and at small values, where the option allows them."""
    variants: list[dict[str, Any]] = [{}]
    for name, value in vars(build(rule.Options, {})).items():
        if isinstance(value, int) and not isinstance(value, bool):
            for number in (0, 1, 300):
                variant = {name.replace("_", "-"): number}
                try:
                    build(rule.Options, variant)
                except OptionError:
                    continue
                variants.append(variant)
    return variants


def test_gate_building_blocks() -> None:
    fact = KeyFact(b"k", Location("rdb", "x"), 0, "string", -1, 100, 20, "raw", 5, None, None, None, b"\x80\x04")
    assert above("length", (0, None)) == NEVER
    assert above("length", (30, 10)).passes(fact)  # the smaller limit that is on: 20 > 10
    assert not above("length", (30, 0)).passes(fact)
    assert when("ttl_ms", "==", -1, ("idle_seconds", ">", 4)).passes(fact)
    assert not when("ttl_ms", "==", -1, ("idle_seconds", ">", 5)).passes(fact)
    assert when("head", "prefix", (b"\xac\xed", b"\x80")).passes(fact)
    assert when("encoding", "in", frozenset({"raw"})).passes(fact)
    assert not when("largest_element", ">", 0).passes(fact)  # a field the key does not carry fails
    assert (NEVER | when("memory", ">=", 100)).passes(fact)
    assert not NEVER.passes(fact)
    assert Gate((((("length", ">", 1)),),)).compiled() == (((FACT_FIELDS.index("length"), 0, 1),),)
    with pytest.raises(ValueError, match="unknown key field"):
        when("size", ">", 3)
    with pytest.raises(ValueError, match="unknown gate operator"):
        when("length", "<", 3)


AGGREGATES = [rule for rule in ALL_RULES if issubclass(rule, AggregateRule)]
GATED_AGGREGATES = [
    rule for rule in AGGREGATES if rule().accumulator(RuleContext(build(rule.Options, {}), rule.meta.severity)).gate
]
NAMES = st.sampled_from(
    [b"user:%d:%s" % (i, field) for i in range(3) for field in (b"name", b"age")] + [b"{u1}:cart", b"job:1"]
)
#: Options under which a handful of keys can make each aggregate report.
SMALL = {"min-keys": 1, "min-fields": 2, "min-objects": 1}


@pytest.mark.parametrize("rule", GATED_AGGREGATES, ids=[rule.meta.id for rule in GATED_AGGREGATES])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_an_accumulator_is_not_changed_by_keys_its_gate_stops(rule: type[AggregateRule[Any]], data: Any) -> None:
    """Fed every key, or only the keys its gate lets through, an accumulator reports the same."""
    defaults = vars(build(rule.Options, {}))
    options = {key: value for key, value in SMALL.items() if key.replace("-", "_") in defaults}
    ctx = RuleContext(build(rule.Options, options), rule.meta.severity)
    every, gated = rule().accumulator(ctx), rule().accumulator(ctx)
    gate = every.gate
    assert gate is not None
    numbers = st.sampled_from([0, 1, 59_000, 60_000, 3_600_000])
    for drawn in data.draw(st.lists(facts(numbers), max_size=40)):
        fact = dataclasses.replace(drawn, name=data.draw(NAMES), expire_at_ms=_expiry(drawn.ttl_ms))
        pattern = fact.name.rpartition(b":")[0] + b":*"
        every.add(fact, pattern)
        if gate.passes(fact):
            gated.add(fact, pattern)
    assert list(every.finish()) == list(gated.finish())


def _expiry(ttl_ms: int | None) -> int | None:
    """The absolute expiry of a key with this TTL left, as a dump gives both."""
    return None if ttl_ms is None or ttl_ms < 0 else 1_700_000_000_000 + ttl_ms


UNIFORM = [rule for rule in FACT_RULES if rule.uniform]


@pytest.mark.parametrize("rule", UNIFORM, ids=[rule.meta.id for rule in UNIFORM])
@settings(max_examples=300, deadline=None)
@given(namespace=NAMESPACES, server=SERVERS, data=st.data())
def test_a_uniform_rule_gives_one_verdict_to_every_key_past_its_gate(
    rule: type[FactRule[Any]], namespace: NamespacePolicy | None, server: ServerFact | None, data: Any
) -> None:
    """The compiled core calls a `uniform` rule once per template and reuses its verdict for the other keys."""
    ctx = RuleContext(build(rule.Options, data.draw(st.sampled_from(_option_variants(rule)))), rule.meta.severity,
                      namespace, server=server)  # fmt: skip
    instance = rule()
    gate = instance.gate(ctx)
    assert gate is not None
    numbers = st.sampled_from([0, 1, 300, 5000, 10241])
    verdicts = {
        repr(instance.check(fact, KeyTemplate.literal(b"user:1"), ctx))
        for fact in data.draw(st.lists(facts(numbers), min_size=2, max_size=10))
        if gate.passes(fact)
    }
    assert len(verdicts) <= 1


def _server(version: str, flavor: str = "redis", **config: str) -> ServerFact:
    info = {"redis_version": version} | (
        {"server_name": "valkey", "valkey_version": version} if flavor == "valkey" else {}
    )
    return ServerFact(Location("live", "redis://gate"), info=info, config=config or None)


@pytest.mark.parametrize(
    "server",
    [
        None,
        _server("6.2.14"),
        _server("7.0.15"),
        _server("7.2.4"),
        _server("7.2.4", **{"list-max-listpack-size": "8", "hash-max-listpack-entries": "100"}),
        _server("6.2.14", **{"set-max-listpack-entries": "64", "zset-max-ziplist-entries": "33"}),
        _server("9.1.0", "valkey", **{"set-max-listpack-entries": "5"}),
    ],
    ids=["no-server", "6.2", "7.0", "7.2", "7.2-tuned", "6.2-tuned", "valkey-9.1"],
)
@pytest.mark.parametrize("near", [0, 0.2, 1])
def test_the_compact_encoding_gate_lets_every_reportable_length_through(server: ServerFact | None, near: float) -> None:
    """VAL004's gate bounds the length by the server's limits, so every length up to past them is tried: each
    type in its non-compact encoding at each length, on servers with default and tuned limits."""
    from rediscipline.rules.value.compact_encoding_lost import NON_COMPACT, CompactEncodingLost

    rule = CompactEncodingLost()
    ctx = RuleContext(build(rule.Options, {"near": near}), rule.meta.severity, None, server=server)
    gate = rule.gate(ctx)
    reported = 0
    for kind, encoding in NON_COMPACT.items():
        for length in range(1300):
            fact = KeyFact(b"user:1", Location("rdb", "gate.rdb", db=0), 0, kind, -1, 100, length, encoding)
            if rule.check(fact, KeyTemplate.literal(b"user:1"), ctx) is not None:
                reported += 1
                assert gate.passes(fact), (kind, length)
    assert reported  # the loop reached reportable keys on every server
