"""Which naming rules can describe the same bytes of a name, and which one reports them.

One row per pair of naming rules whose violations can be about the same bytes (`Violation.spans`). With a
winner, the more specific rule reports those bytes and the other stays silent for them (it still reports
the bytes only it sees); without one, the two rules say different things about the bytes and both report.
Every naming rule's `@rule` gets this table: its rows set the rule's `defers_to` and are written on its doc
page. tests/rules/test_overlaps.py walks every pair of naming rules over a corpus of names and fails on two
violations about the same bytes whose rules have no row here, and on a row whose rules never meet.
"""

from __future__ import annotations

from rediscipline.model.text import Text
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
_IN_A_LONG_LEVEL = Text(
    "KEY015 says a whole level is too long; a character in it is a fact of its own, and shortening the level "
    "need not remove it.",
    "KEY015 说的是整个层级过长；其中的某个字符是另一个事实，缩短层级也不一定能去掉它。",
)
_IN_A_TIME_VALUE = Text(
    "KEY017 says the whole level after `date` or `ts` is no date or timestamp; a character in it is a fact of its own.",
    "KEY017 说的是 `date` 或 `ts` 之后的整个层级不是日期或时间戳；其中的某个字符是另一个事实。",
)

NAME_OVERLAPS: tuple[Overlap, ...] = (
    Overlap(
        ("KEY006", "KEY007"),
        "KEY007",
        "AID:userId:1",
        Text(
            "A camelCase word is upper case too, and KEY007 says where its words split (`userId` → `user_id`); "
            "KEY006 still reports the other upper-case words (`AID`).",
            "驼峰词同时也含大写字母，而 KEY007 会指出其中的单词在哪里拆分（`userId` → `user_id`）；"
            "其他含大写字母的单词（`AID`）仍由 KEY006 报告。",
        ),
    ),
    Overlap(
        ("KEY009", "KEY017"),
        "KEY017",
        "order:summary:date:",
        Text(
            "An empty level after the `date` or `ts` label is an empty level, and KEY017 says which value is missing.",
            "`date` 或 `ts` 标签之后的空层级固然是空层级，而 KEY017 会指出缺的是哪个值。",
        ),
    ),
    Overlap(
        ("KEY011", "KEY012"),
        "KEY011",
        "a{aa{xxx}bb}b",
        Text(
            "Braces that form a malformed hashtag: KEY011 says how Redis Cluster reads them; whether a hashtag is "
            "needed is a question for a well-formed one.",
            "构成格式错误的 hashtag 的花括号：KEY011 会说明 Redis Cluster 如何读取它们；"
            "是否需要 hashtag，是格式正确的 hashtag 才需要考虑的问题。",
        ),
    ),
    Overlap(
        ("KEY006", "KEY015"),
        None,
        "A:1",
        Text(
            "A word can be upper case and cryptic (`A`), or sit in a level that is too long: lower case does not "
            "make it readable nor the level shorter.",
            "一个单词可能既是大写又难懂（`A`），或者位于一个过长的层级中：改成小写既不会让它变得易读，也不会让层级变短。",
        ),
    ),
    Overlap(
        ("KEY007", "KEY015"),
        None,
        "uA:1",
        Text(
            "A camelCase word can be cryptic (`uA`), or sit in a level that is too long: KEY007 says where its "
            "words split, KEY015 what they mean or how long the level is.",
            "驼峰词可能难懂（`uA`），或者位于一个过长的层级中：KEY007 指出其中的单词在哪里拆分，"
            "KEY015 指出它们的含义或层级有多长。",
        ),
    ),
    Overlap(
        ("KEY006", "KEY016"),
        None,
        "user:Str:1",
        Text(
            "`Str` is upper case and a non-canonical type word (→ `string`): lower case leaves it misspelled.",
            "`Str` 既是大写，又是不规范的类型词（→ `string`）：改成小写后它仍是错误的写法。",
        ),
    ),
    Overlap(
        ("KEY006", "KEY017"),
        None,
        "order:ts:NOW",
        Text(
            "A value after `date` or `ts` that is no date or timestamp can have upper-case letters too: two fixes.",
            "`date` 或 `ts` 之后不是日期或时间戳的值也可能含有大写字母：需要两处修改。",
        ),
    ),
    Overlap(
        ("KEY007", "KEY017"),
        None,
        "order:ts:createdAt",
        Text(
            "A camelCase word after `ts` is no timestamp, and its words are glued: two fixes.",
            "`ts` 之后的驼峰词不是时间戳，而且其中的单词粘在了一起：需要两处修改。",
        ),
    ),
    Overlap(
        ("KEY015", "KEY017"),
        None,
        "order:ts:user_session_authentication_token",
        Text(
            "A level after `ts` can be too long and no timestamp: two facts about the level.",
            "`ts` 之后的层级可能既过长又不是时间戳：这是关于该层级的两个事实。",
        ),
    ),
    Overlap(
        ("KEY016", "KEY017"),
        None,
        "order:ts:str",
        Text(
            "A type word after `ts` is no timestamp and a non-canonical type word: two facts about the level.",
            "`ts` 之后的类型词既不是时间戳，又是不规范的类型词：这是关于该层级的两个事实。",
        ),
    ),
    Overlap(
        ("KEY009", "KEY014"),
        None,
        "a##b",
        Text(
            "Two `#` in a row are an empty part (KEY009) and `#` used where the convention does not want it "
            "(KEY014): filling the part leaves the `#`.",
            "连续两个 `#` 既是空的部分（KEY009），又是在规范不允许的地方使用了 `#`（KEY014）："
            "把空的部分填上，`#` 仍然存在。",
        ),
    ),
    Overlap(
        ("KEY009", "KEY015"),
        None,
        "user:user_session_authentication_token##1",
        Text(
            "An empty `#` part inside a level that is too long: two facts.",
            "过长的层级中有一个空的 `#` 部分：这是两个事实。",
        ),
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
