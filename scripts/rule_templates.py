"""The templates `scripts/add_rule.py` writes a rule from: one per kind of rule, the module around it, and the
Chinese translation of its documentation.

Each kind has a working check (a deny-list that reports nothing by default), the option it reads, the prose
of its documented sections (in English and in Chinese), and cases that pass through `tests/rules/casefile.py`:
a passing one, one with the default options, and failing ones (at a place in code when the kind can be
checked in code).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """One kind of rule the scaffold writes: its base class, where it is checked, its option and its cases."""

    base: str
    where: tuple[str, ...]
    stdlib: tuple[str, ...]  # import lines besides `dataclass`
    first_party: tuple[str, ...]  # import lines besides severity, text, base and options
    option: str
    option_doc: str
    option_doc_zh: str
    what: str
    what_zh: str
    example: str
    use_instead: str
    body: str
    cases: str


KINDS: dict[str, Kind] = {
    "name": Kind(
        base="NameRule",
        where=("code", "live", "rdb", "keys"),
        stdlib=("from collections.abc import Iterator",),
        first_party=(
            "from rediscipline.model.finding import Violation",
            "from rediscipline.model.keyname import KeyTemplate",
        ),
        option='words: tuple[str, ...] = option((), "Words a key name must not contain, in any case (none by '
        'default).")',
        option_doc="`words`: words a key name must not contain, in any case (default: none, so the rule reports "
        "nothing until a convention file lists some).",
        option_doc_zh="`words`：键名中不得包含的单词，不区分大小写（默认：无，所以在规范文件列出单词之前，本规则不报告任何问题）。",
        what="Reports key names whose literal text contains one of the words listed in `words`, in any case.",
        what_zh="报告字面部分包含 `words` 中所列单词（不区分大小写）的键名。",
        example="tmp:user:1001",
        use_instead="user:1001",
        body="""
    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[{options}]) -> Iterator[Violation]:
        text = b"".join(key.literals()).decode("utf-8", errors="replace").lower()
        found = [word for word in ctx.options.words if word.lower() in text]
        if found:
            listed = ", ".join(f"`{{word}}`" for word in found)
            yield Violation(
                "word",
                Text(f"the key name contains {{listed}}", f"键名包含 {{listed}}"),
                value=len(found),
            )
""",
        cases="""
[[case]]
name = "no listed word in the key names"
keys = ["user:profile:1001", "order:status:1"]
options = {{ words = ["tmp"] }}
expect = []

[[case]]
name = "nothing is listed by default"
keys = ["tmp:user:1001"]
expect = []

[[case]]
name = "a listed word, in any case, in every key of a pattern"
keys = ["tmp:user:1001", "TMP:user:1002", "tmp:user:1003"]
options = {{ words = ["tmp"] }}
expect = [
  {{ code = "word", pattern = "tmp:user:*", count = 2, severity = "{severity}" }},
  {{ code = "word", pattern = "TMP:user:*", count = 1, severity = "{severity}" }},
]

[[case]]
name = "a listed word in a key template from code, at its call"
options = {{ words = ["tmp"] }}
expect = [{{ code = "word", line = 2, severity = "{severity}" }}]
calls = [{{ method = "get", keys = ["user:*"] }}, {{ method = "set", keys = ["tmp:user:*"] }}]
""",
    ),
    "fact": Kind(
        base="FactRule",
        where=("live", "rdb"),
        stdlib=(),
        first_party=(
            "from rediscipline.model.facts import KeyFact",
            "from rediscipline.model.finding import Violation",
            "from rediscipline.model.keyname import KeyTemplate",
        ),
        option='max_length: int = option(0, "Report a key longer than this: elements, or bytes of a string (0 = '
        'off).", minimum=0)',
        option_doc="`max-length`: report a key with more elements than this, or a string with more bytes "
        "(default 0: off).",
        option_doc_zh="`max-length`：报告元素个数多于这个值的 Key，或字节数多于这个值的字符串（默认 0：关闭）。",
        what="Reports keys whose length (elements of a collection, bytes of a string) is above `max-length`.",
        what_zh="报告长度（集合的元素个数、字符串的字节数）超过 `max-length` 的 Key。",
        example="HSET cart:1001 <20,000 fields>",
        use_instead="HSET cart:1001:0 <the first 1,000 fields> … one key per slice",
        body="""
    needs = frozenset({{"length"}})

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[{options}]) -> Violation | None:
        limit = ctx.options.max_length
        if not limit or fact.length is None or fact.length <= limit:
            return None
        return Violation(
            "too-long",
            Text(f"length {{fact.length:,}} is above {{limit:,}}", f"长度 {{fact.length:,}}，超过 {{limit:,}}"),
            value=fact.length,
        )
""",
        cases="""
[[case]]
name = "keys within the limit"
options = {{ max-length = 100 }}
expect = []
facts = [
  {{ name = "cart:1001", type = "hash", length = 100 }},
  {{ name = "page:home", type = "string", length = 12 }},
]

[[case]]
name = "off by default"
expect = []
facts = [{{ name = "cart:1001", type = "hash", length = 1000000 }}]

[[case]]
name = "a collection above the limit"
options = {{ max-length = 100 }}
expect = [{{ code = "too-long", pattern = "cart:*", count = 2, severity = "{severity}" }}]
facts = [
  {{ name = "cart:1001", type = "hash", length = 101 }},
  {{ name = "cart:1002", type = "hash", length = 5000 }},
  {{ name = "cart:1003", type = "hash", length = 3 }},
]
""",
    ),
    "command": Kind(
        base="CommandRule",
        where=("code", "live"),
        stdlib=("from collections.abc import Iterator",),
        first_party=(
            "from rediscipline.model.facts import CommandFact",
            "from rediscipline.model.finding import Violation",
        ),
        option='commands: tuple[str, ...] = option(("lolwut",), "Commands to report, as commandstats names them.")',
        option_doc="`commands`: the commands to report, as `INFO commandstats` names them (`config|set`); the "
        "default, `lolwut`, is a placeholder that judges some command and that no application sends.",
        option_doc_zh="`commands`：要报告的命令，按 `INFO commandstats` 中的名称书写（`config|set`）；默认值 `lolwut` "
        "是一个占位符，它让本规则有命令可判断，而没有哪个应用会发送它。",
        what="Reports the commands listed in `commands`, seen in code or in a server's command statistics.",
        what_zh="报告 `commands` 中列出的命令，无论是在代码中还是在实例的命令统计中看到的。",
        example="DEBUG SLEEP 0",
        use_instead="(no such command on production)",
        body="""
    def check(self, fact: CommandFact, ctx: RuleContext[{options}]) -> Iterator[Violation]:
        if fact.name.lower() in {{name.lower() for name in ctx.options.commands}}:
            name = fact.name.upper()
            yield Violation("command", Text(f"{{name}} is a listed command", f"{{name}} 是被列出的命令"))
""",
        cases="""
[[case]]
name = "commands that are not listed"
options = {{ commands = ["debug"] }}
expect = []
commands = [{{ name = "get", calls = 100 }}]

[[case]]
name = "the default list"
expect = [{{ code = "command", subject = "lolwut", severity = "{severity}" }}]
commands = [{{ name = "lolwut", calls = 1 }}, {{ name = "debug", calls = 2 }}]

[[case]]
name = "a listed command in the command statistics"
options = {{ commands = ["DEBUG"] }}
expect = [{{ code = "command", subject = "debug", severity = "{severity}" }}]
commands = [{{ name = "debug", calls = 2 }}, {{ name = "get", calls = 100 }}]

[[case]]
name = "a listed command in code, at its line"
options = {{ commands = ["debug"] }}
expect = [{{ code = "command", line = 7, severity = "{severity}" }}]
commands = [{{ name = "get", args = ["user:1"], line = 3 }}, {{ name = "debug", args = ["sleep", "0"], line = 7 }}]
""",
    ),
    "call": Kind(
        base="CallRule",
        where=("code",),
        stdlib=("from collections.abc import Iterator",),
        first_party=(
            "from rediscipline.model.code import CodeCall",
            "from rediscipline.model.finding import Violation",
        ),
        option='methods: tuple[str, ...] = option((), "redis-py methods to report (none by default).")',
        option_doc="`methods`: the redis-py methods to report (default: none).",
        option_doc_zh="`methods`：要报告的 redis-py 方法（默认：无）。",
        what="Reports calls of the redis-py methods listed in `methods`.",
        what_zh="报告对 `methods` 中所列 redis-py 方法的调用。",
        example="r.hgetall(key)",
        use_instead="r.hscan_iter(key, count=100)",
        body="""
    def check(self, call: CodeCall, ctx: RuleContext[{options}]) -> Iterator[Violation]:
        if call.method in ctx.options.methods:
            method = call.method
            yield Violation("method", Text(f"`{{method}}()` is a listed method", f"`{{method}}()` 是被列出的方法"))
""",
        cases="""
[[case]]
name = "methods that are not listed"
options = {{ methods = ["hgetall"] }}
expect = []
calls = [{{ method = "get", keys = ["user:*"] }}]

[[case]]
name = "a listed method"
options = {{ methods = ["hgetall"] }}
expect = [{{ code = "method", line = 2, severity = "{severity}" }}]
calls = [{{ method = "get", keys = ["user:*"] }}, {{ method = "hgetall", keys = ["user:*:profile"] }}]
""",
    ),
    "instance": Kind(
        base="InstanceRule",
        where=("live", "config"),
        stdlib=("from collections.abc import Iterator",),
        first_party=(
            "from rediscipline.model.finding import Violation",
            "from rediscipline.model.keyspace import KeyspaceStats",
            "from rediscipline.model.server import ServerFact",
        ),
        option='required: tuple[str, ...] = option((), "Settings the server must set to a non-empty value (none by '
        'default).")',
        option_doc="`required`: configuration settings the server must set to a non-empty value (default: none).",
        option_doc_zh="`required`：实例必须设置为非空值的配置项（默认：无）。",
        what="Reports the configuration settings listed in `required` that the server leaves empty or unset.",
        what_zh="报告 `required` 中列出、而实例留空或未设置的配置项。",
        example="requirepass ''",
        use_instead="requirepass <a long random password>",
        body="""
    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[{options}]
    ) -> Iterator[Violation]:
        if server.config is None:
            return
        for name in ctx.options.required:
            if not server.config.get(name):
                yield Violation("unset", Text(f"`{{name}}` is not set", f"未设置 `{{name}}`"), setting=name)
""",
        cases="""
[[case]]
name = "every required setting is set"
options = {{ required = ["maxmemory-policy"] }}
expect = []
server = {{ config = {{ maxmemory-policy = "allkeys-lru" }} }}

[[case]]
name = "a required setting left empty"
options = {{ required = ["maxmemory-policy", "requirepass"] }}
expect = [{{ code = "unset", severity = "{severity}" }}]
server = {{ config = {{ maxmemory-policy = "allkeys-lru", requirepass = "" }} }}
""",
    ),
}

#: A command rule whose commands are an option says which it judges, where the engine indexes command rules
#: by their commands (`CommandRule.judged`).
JUDGED = """
    def judged(self, options: {options}) -> frozenset[str]:
        return frozenset(name.lower() for name in options.commands)
"""

MODULE = '''"""{id} {slug}."""

from __future__ import annotations

{stdlib}

{first_party}


@dataclass(frozen=True)
class {options}(RuleOptions):
    {option}


@rule(
    "{id}",
    "{slug}",
    title=({title_en!r}, {title_zh!r}),
    severity=Severity.{severity_name},
    where={where!r},
    sources=({source!r},),
)
class {cls}({base}[{options}]):
    """{title_en}.

    ## What it does
    {what}

    ## Why is this bad?
    {why}

    ## Example
    ```
    {example}
    ```

    ## Use instead
    ```
    {use_instead}
    ```

    ## Options
    - {option_doc}

    ## Source
    - {source}: {quote}
    """{noqa}

    Options = {options}
{body}'''

#: The Chinese translation of the documentation MODULE writes (src/rediscipline/rules/docs_zh/<ID>.md): the same
#: sections under the Chinese headings, the same code blocks, and the stamp of the English text it translates.
DOC_ZH = """{stamp}
{title_zh}。

## 检查什么
{what}

## 为什么有问题
{why}

## 示例
```
{example}
```

## 正确做法
```
{use_instead}
```

## 选项
- {option_doc}

## 依据
- {source}：{quote}
"""
