"""Which naming rules can describe the same bytes of a name, and which one reports them.

One row per pair of naming rules whose violations can be about the same bytes (`Violation.spans`). With a
winner, the more specific rule reports those bytes and the other stays silent for them (it still reports
the bytes only it sees); without one, the two rules say different things about the bytes and both report.
Every naming rule's `@rule` gets this table: its rows set the rule's `defers_to` and are written on its doc
page. tests/rules/test_overlaps.py walks every pair of naming rules over a corpus of names and fails on two
violations about the same bytes whose rules have no row here, and on a row whose rules never meet.
"""

from __future__ import annotations

from rediscipline.rules.base import Overlap

#: Rules about single characters, with a character each reports in the examples below.
_CHARACTERS = (
    ("KEY001", " "),
    ("KEY002", "é"),
    ("KEY003", "*"),
    ("KEY004", "@"),
    ("KEY010", "-"),
    ("KEY011", "{"),
    ("KEY012", "{x}"),
    ("KEY014", "#x"),
)
_IN_A_LONG_LEVEL = (
    "KEY015 says a whole level is too long; a character in it is a fact of its own, and shortening the level "
    "need not remove it."
)
_IN_A_TIME_VALUE = (
    "KEY017 says the whole level after `date` or `ts` is no date or timestamp; a character in it is a fact of its own."
)

NAME_OVERLAPS: tuple[Overlap, ...] = (
    Overlap(
        ("KEY006", "KEY007"),
        "KEY007",
        "AID:userId:1",
        "A camelCase word is upper case too, and KEY007 says where its words split (`userId` → `user_id`); "
        "KEY006 still reports the other upper-case words (`AID`).",
    ),
    Overlap(
        ("KEY009", "KEY017"),
        "KEY017",
        "order:summary:date:",
        "An empty level after the `date` or `ts` label is an empty level, and KEY017 says which value is missing.",
    ),
    Overlap(
        ("KEY011", "KEY012"),
        "KEY011",
        "a{aa{xxx}bb}b",
        "Braces that form a malformed hashtag: KEY011 says how Redis Cluster reads them; whether a hashtag is "
        "needed is a question for a well-formed one.",
    ),
    Overlap(
        ("KEY006", "KEY015"),
        None,
        "A:1",
        "A word can be upper case and cryptic (`A`), or sit in a level that is too long: lower case does not "
        "make it readable nor the level shorter.",
    ),
    Overlap(
        ("KEY007", "KEY015"),
        None,
        "uA:1",
        "A camelCase word can be cryptic (`uA`), or sit in a level that is too long: KEY007 says where its "
        "words split, KEY015 what they mean or how long the level is.",
    ),
    Overlap(
        ("KEY006", "KEY016"),
        None,
        "user:Str:1",
        "`Str` is upper case and a non-canonical type word (→ `string`): lower case leaves it misspelled.",
    ),
    Overlap(
        ("KEY006", "KEY017"),
        None,
        "order:ts:NOW",
        "A value after `date` or `ts` that is no date or timestamp can have upper-case letters too: two fixes.",
    ),
    Overlap(
        ("KEY007", "KEY017"),
        None,
        "order:ts:createdAt",
        "A camelCase word after `ts` is no timestamp, and its words are glued: two fixes.",
    ),
    Overlap(
        ("KEY015", "KEY017"),
        None,
        "order:ts:user_session_authentication_token",
        "A level after `ts` can be too long and no timestamp: two facts about the level.",
    ),
    Overlap(
        ("KEY016", "KEY017"),
        None,
        "order:ts:str",
        "A type word after `ts` is no timestamp and a non-canonical type word: two facts about the level.",
    ),
    Overlap(
        ("KEY009", "KEY014"),
        None,
        "a##b",
        "Two `#` in a row are an empty part (KEY009) and `#` used where the convention does not want it "
        "(KEY014): filling the part leaves the `#`.",
    ),
    Overlap(
        ("KEY009", "KEY015"),
        None,
        "user:user_session_authentication_token##1",
        "An empty `#` part inside a level that is too long: two facts.",
    ),
    *(
        Overlap((rule_id, "KEY015"), None, f"user:user_session_authentication_token{sample}:1", _IN_A_LONG_LEVEL)
        for rule_id, sample in _CHARACTERS
    ),
    *(
        Overlap((rule_id, "KEY017"), None, f"order:ts:now{sample}later", _IN_A_TIME_VALUE)
        for rule_id, sample in _CHARACTERS
    ),
)
