"""The one driver: rules narrowed to where the sources look, the plan each source is given, the notes about
what was not checked, a Ctrl-C while the engine works, and a result that is never changed afterwards."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from rediscipline.api.defaults import settings_for
from rediscipline.api.driver import run
from rediscipline.engine.runner import Engine
from rediscipline.guard.source import RuntimeSource
from rediscipline.model.facts import KeyNames
from rediscipline.model.location import Location
from rediscipline.model.plan import SERVER_ACCESS, SERVER_CONFIG, SUMMARY_FIELDS, ProbePlan
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.render.notes import note_text
from rediscipline.rules import default_registry
from rediscipline.rules.base import WHERE
from rediscipline.settings.loader import Overrides
from rediscipline.sources.code.source import CodeSource
from rediscipline.sources.config.source import ConfigSource
from rediscipline.sources.keylist import KeyListSource, NameSource
from rediscipline.sources.live.source import LiveSource
from rediscipline.sources.rdb.source import RdbSource
from rediscipline.sources.simulation.eviction_source import EvictionSource
from rediscipline.sources.traffic.source import TrafficSource
from tests.support.sources import FactSource

ORIGIN = Location("keys", "keys.txt")


def _names(*names: bytes) -> KeyNames:
    return KeyNames(ORIGIN, [(name, line, None) for line, name in enumerate(names, 1)])


def _plan(place: str, *select: str, summary: bool = False) -> ProbePlan:
    source = FactSource(place, [])
    run([source], settings_for(Overrides(isolated=True, select=select)), command="scan", summary=summary)
    [plan] = source.plans
    return plan


def test_only_rules_a_key_list_can_show_run_and_the_others_are_listed() -> None:
    settings = settings_for(Overrides(isolated=True))
    report = run([FactSource("keys", [_names(b"User Name:1")])], settings, command="keys")
    registry = default_registry()
    runnable = {c.meta.id for c in registry if "keys" in c.meta.where}
    assert report.run.rules_enabled == len(runnable)
    [skipped] = [n for n in report.notes if n.code == "rules-not-checked"]
    assert set(skipped.params["rules"]) == {c.meta.id for c in registry} - runnable  # type: ignore[arg-type]
    assert skipped.params["places"] == ("code", "runtime", "live", "rdb", "config", "traffic", "simulation")
    needed = "rules need code, a running application, a live server"
    assert note_text(skipped, "en").startswith(f"{len(registry) - len(runnable)} {needed}")
    assert {f.rule_id for f in report.findings} == {"KEY001", "KEY006"}


@pytest.mark.parametrize(
    ("select", "summary", "fields", "server", "commands"),
    [
        (("KEY",), False, {"type"}, set(), False),
        (("KEY001",), False, set(), set(), False),
        (("KEY001",), True, set(SUMMARY_FIELDS), set(), False),
        (("VAL001",), False, {"type", "length"}, set(), False),
        (("SEC001",), False, set(), {SERVER_ACCESS}, False),
        (("CFG001",), False, set(), {SERVER_CONFIG}, False),
        (("CMD001",), False, set(), set(), True),
    ],
)
def test_the_plan_a_source_gets(
    select: tuple[str, ...], summary: bool, fields: set[str], server: set[str], commands: bool
) -> None:
    plan = _plan("live", *select, summary=summary)
    assert (set(plan.key_fields), set(plan.server), plan.commands, plan.summary) == (
        fields,
        server,
        commands,
        summary,
    )


class _Interrupting:
    """Names whose reading is stopped by a Ctrl-C after the first: raised in the engine, not in the source."""

    def __iter__(self) -> Iterator[tuple[bytes, int, None]]:
        yield b"User Name:1", 1, None
        raise KeyboardInterrupt


class _Stoppable(FactSource):
    """A source that stops with what it gave when a Ctrl-C is thrown into it, as a live scan does."""

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        try:
            yield KeyNames(ORIGIN, _Interrupting())
            yield _names(b"Never:1")
        except KeyboardInterrupt:
            self.result = SourceOutcome(server=None)
            self.stopped = True


def test_a_ctrl_c_in_the_engine_is_thrown_into_the_source() -> None:
    settings = settings_for(Overrides(isolated=True, select=("KEY",)))
    stoppable = _Stoppable("keys", [])
    report = run([stoppable], settings, command="keys")
    assert getattr(stoppable, "stopped", False)
    assert report.stats.keys == 1
    with pytest.raises(KeyboardInterrupt):  # a source that does not handle it lets it through
        run([FactSource("keys", [KeyNames(ORIGIN, _Interrupting())])], settings, command="keys")


def test_the_engine_result_is_frozen() -> None:
    engine = Engine(settings_for(Overrides(isolated=True, select=("KEY006",))).rules)
    engine.consume([_names(b"User:1")])
    result = engine.finish("keys")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.findings = ()  # type: ignore[misc]
    assert [f.pattern for f in result.findings] == [b"User:*"]


def test_every_place_a_rule_names_is_read_by_a_source() -> None:
    """A rule's `where` names only places some Source reads (the runtime guard's included), the banned-command
    rows included, and every place a source reads is one a rule may name."""
    sources = (
        CodeSource, ConfigSource, KeyListSource, NameSource, LiveSource, RdbSource, RuntimeSource, TrafficSource,
        EvictionSource,
    )  # fmt: skip
    places = {cls.place for cls in sources}
    assert places == set(WHERE) == {"code", "config", "keys", "live", "rdb", "runtime", "traffic", "simulation"}
    named = {place: sorted(cls.meta.id for cls in default_registry() if place in cls.meta.where) for place in WHERE}
    assert all(named.values()), named
    assert {cls.meta.id for cls in default_registry() if not set(cls.meta.where) <= places} == set()
    assert [cls.meta.where for cls in default_registry() if cls.meta.id in ("CMD001", "CMD004")] == [
        ("code", "runtime", "live", "traffic")
    ] * 2
