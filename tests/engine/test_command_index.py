"""The engine offers a command fact only to the rules that declared its command (or any command)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from rediscipline.engine.runner import Engine
from rediscipline.model.facts import EVIDENCE_CODE, EVIDENCE_COMMANDSTATS, CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.location import Location
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import ANY_COMMAND, CommandRule, ConfiguredRule, RuleContext, rule
from rediscipline.rules.command.banned_commands import AdminCommand, AdminCommandOptions
from rediscipline.rules.options import RuleOptions

SERVER = Location("live", "redis://127.0.0.1:6379")
SEEN: list[tuple[str, str]] = []


class _Recording(CommandRule[RuleOptions]):
    """Records every fact it is offered and reports each one."""

    label: ClassVar[str] = ""

    def check(self, fact: CommandFact, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        SEEN.append((self.label, fact.name))
        yield Violation("seen", Text(fact.name, fact.name))


@rule("CMD901", "toy-keys", title=("toy", "toy"), severity=Severity.WARNING, where=("live",), sources=("000",))
class _Keys(_Recording):
    label = "keys"
    commands = frozenset({"keys"})


@rule("CMD902", "toy-config", title=("toy", "toy"), severity=Severity.WARNING, where=("live",), sources=("000",))
class _Config(_Recording):
    label = "config|set"
    commands = frozenset({"config|set"})


@rule("CMD903", "toy-any", title=("toy", "toy"), severity=Severity.WARNING, where=("live",), sources=("000",))
class _Any(_Recording):
    label = "any"
    commands = ANY_COMMAND


@rule("CMD904", "toy-none", title=("toy", "toy"), severity=Severity.WARNING, where=("live",), sources=("000",))
class _Undeclared(_Recording):
    label = "none"


def _engine(*classes: type[CommandRule[Any]]) -> Engine:
    return Engine([ConfiguredRule(cls(), RuleOptions(), cls.meta.severity) for cls in classes])


def test_each_fact_goes_to_the_rules_of_its_command_in_rule_order() -> None:
    SEEN.clear()
    engine = _engine(_Keys, _Any, _Config, _Undeclared)
    for name in ("keys", "get", "config|set", "config|get", "keys"):
        engine.feed_command(CommandFact(name, SERVER, EVIDENCE_COMMANDSTATS, None, 3))
    assert SEEN == [
        ("keys", "keys"),
        ("any", "keys"),
        ("any", "get"),
        ("any", "config|set"),
        ("config|set", "config|set"),
        ("any", "config|get"),
        ("config|set", "config|get"),  # indexed by command: the rule tells its subcommands apart itself
        ("keys", "keys"),
        ("any", "keys"),
    ]
    findings = engine.finish("live").findings
    assert sorted((f.rule_id, f.subject, f.count) for f in findings if f.rule_id == "CMD901") == [("CMD901", "keys", 6)]


def test_a_command_with_its_subcommand_as_argument_reaches_the_subcommand_rules() -> None:
    SEEN.clear()
    engine = _engine(_Config)
    engine.feed_command(CommandFact("CONFIG", Location("code", "app.py", line=3), EVIDENCE_CODE, (b"SET", b"x")))
    assert SEEN == [("config|set", "CONFIG")]


def test_rules_whose_commands_are_options_are_indexed_by_their_options() -> None:
    options = AdminCommandOptions(commands=("lastsave",), application_commands=())
    engine = Engine([ConfiguredRule(AdminCommand(), options, Severity.WARNING)])
    for name in ("debug", "lastsave"):
        engine.feed_command(CommandFact(name, SERVER, EVIDENCE_COMMANDSTATS, None, 1))
    assert [(f.rule_id, f.code) for f in engine.finish("live").findings] == [("CMD004", "lastsave")]
