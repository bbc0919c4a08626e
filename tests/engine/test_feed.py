"""`Engine.feed` (facts from sources other than key lists): concrete names and code templates alike."""

from __future__ import annotations

from rediscipline.api import settings_for
from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyname import SLOT_ANY, KeyTemplate, Placeholder
from rediscipline.model.location import Location
from rediscipline.settings.loader import Overrides


def test_feed_concrete_and_template_facts() -> None:
    settings = settings_for(Overrides(isolated=True, select=("KEY006",)))
    engine = Engine(settings.rules)
    engine.begin_input(Location("keys", "list.txt"))
    engine.feed(KeyFact(b"User:1", Location("live", "redis://127.0.0.1:6379", db=0)))
    template = KeyTemplate((b"Order:", Placeholder(SLOT_ANY, label="oid")))
    engine.feed(KeyFact(template, Location("code", "app.py", line=7)))
    findings = {
        (f.pattern, f.location.source, f.location.path, f.location.line) for f in engine.finish("live").findings
    }
    assert findings == {
        (b"User:*", "live", "redis://127.0.0.1:6379", None),
        (b"Order:*", "code", "app.py", 7),
    }
    assert engine._origin == Location("keys", "list.txt")  # feeding facts does not move the current input
