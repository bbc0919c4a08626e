"""`Engine.feed` (facts from sources other than key lists): concrete names and code templates alike."""

from __future__ import annotations

from rediscipline.api import settings_for
from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyname import SLOT_ANY, KeyTemplate, Placeholder
from rediscipline.model.keypattern import infer_parts
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


def test_memoised_skeletons_give_the_template_inference_gives() -> None:
    """Keys that share a skeleton (digits → 0, or hex digits → 0) get the verdict of their own template: an
    8-hex id that is all digits is a number, eight digits may be a date, a dashed date is not three numbers."""
    settings = settings_for(Overrides(isolated=True, select=("KEY008",)))
    engine = Engine(settings.rules)
    keys = [
        b"obj:1a2b3c4d", b"obj:12345678", b"obj:20240101", b"obj:deadbeef", b"obj:abcdef12",
        b"bad:1234abcd", b"fed:1234abcd", b"fed:20241301",
        b"x:2024-13-45", b"x:2024-11-05", b"x:2024-11-45",
        b"ip:10.0.0.1:1", b"ip:999.0.0.1:1",
        b"job:6f1c0a2b-1111-2222-3333-444455556666", b"job:12345678-1111-2222-3333-444455556666",
        b"job:abcdefab-cdef-abcd-efab-cdefabcdefab:deps", b"job:abcdefab-cdef-abcd-efab-cdefabcdefab:1",
        b"view:ab12cd34ef56ab78cd90ef12ab34cd56", b"view:12345678901234567890123456789012",
    ]  # fmt: skip
    for key in keys * 2:
        assert engine.feed_name(key) == KeyTemplate(infer_parts(key)).pattern, key
