"""One rule implementation for every banned command: a row of `banned_commands.BANNED` becomes a rule.

A row names its commands, its severity, its message and its documentation; the implementation is the same
for all of them (as bandit judges every row of its blacklist with one test). Each row still is a rule of its
own: its id, slug, options and documentation are the row's, so selecting, configuring and documenting it
works as for any rule.

A row's message is a `Text` template with `{command}` (the command as written: `CONFIG SET`), `{seen}` (how
it was observed: " (3 calls in INFO commandstats)", empty for code and at run time), `{sender}` (" from the
application" when only the application's use is banned, else empty) and `{target}` (the row's `targets`
entry for the command). Options, when a row has them, change the judgement by name:

- `commands`: the commands reported wherever they are seen, instead of the row's own;
- `application-commands`: commands reported only when the application sends them (in code or at run
  time);
- `allow-async`: a call whose known arguments include ASYNC passes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from rediscipline.model.facts import EVIDENCE_CODE, EVIDENCE_RUNTIME, CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.evidence import COMMAND_CHECKS, call_of, code_of, listed, measured, seen, shown
from rediscipline.rules.options import RuleOptions

#: Evidence that the application itself sends the command (as opposed to an operator or Sentinel).
APPLICATION = (EVIDENCE_CODE, EVIDENCE_RUNTIME)
_FROM_APPLICATION = Text(" from the application", "（由应用发出）")
_NOWHERE = Text("", "")


@dataclass(frozen=True)
class BannedCommand:
    """One row of the banned-command table (see the module docstring)."""

    id: str
    slug: str
    title: tuple[str, str]
    severity: Severity
    sources: tuple[str, ...]
    message: Text
    doc: str
    commands: tuple[str, ...] = ()
    targets: Mapping[str, Text] = field(default_factory=dict)
    options: type[RuleOptions] = RuleOptions
    where: tuple[str, ...] = COMMAND_CHECKS


class BannedCommandRule(CommandRule[RuleOptions]):
    """The rule of one `BannedCommand` row; `banned_rule` makes one subclass per row."""

    row: BannedCommand

    def judged(self, options: RuleOptions) -> frozenset[str]:
        everywhere: tuple[str, ...] = getattr(options, "commands", self.row.commands)
        application: tuple[str, ...] = getattr(options, "application_commands", ())
        return frozenset(everywhere) | frozenset(application)

    def check(self, fact: CommandFact, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        row, options = self.row, ctx.options
        call = call_of(fact)
        if listed(call.name, getattr(options, "commands", row.commands)):
            sender = _NOWHERE
        elif fact.evidence in APPLICATION and listed(call.name, getattr(options, "application_commands", ())):
            sender = _FROM_APPLICATION
        else:
            return
        exempt = getattr(options, "allow_async", False) and call.operands is not None
        if exempt and any(operand.lower() == b"async" for operand in call.operands or ()):
            return
        how, target = seen(fact), row.targets.get(call.name, _NOWHERE)
        en = row.message.en.format(command=shown(call.name), seen=how.en, sender=sender.en, target=target.en)
        zh = row.message.zh.format(command=shown(call.name), seen=how.zh, sender=sender.zh, target=target.zh)
        yield Violation(code_of(call.name), Text(en, zh), value=measured(fact))


def banned_rule(row: BannedCommand, class_name: str, module: str) -> type[BannedCommandRule]:
    """The rule class of a row, registered under the row's id and slug like any rule.

    `module` is the module that binds the class to `class_name`, so that pickle finds it by name (a run's
    settings travel to worker processes).
    """
    namespace: dict[str, Any] = {"__doc__": row.doc, "__module__": module, "__qualname__": class_name}
    namespace.update(row=row, Options=row.options)
    namespace["commands"] = frozenset(row.commands)
    cls = type(class_name, (BannedCommandRule,), namespace)
    decorate = rule(row.id, row.slug, title=row.title, severity=row.severity, where=row.where, sources=row.sources)
    return decorate(cls)
