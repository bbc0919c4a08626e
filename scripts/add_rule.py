"""Scaffold a new rule: its module, its case file, its generated page and a changelog line, registered in its family.

    python scripts/add_rule.py KEY my-slug --title "English title" --title-zh "中文标题" \\
        --source "004 §2.1 小写命名" [--kind name|fact|command|call|instance] [--severity warning] [--id KEY019]

Writes, under the repository root (`--root`, default: this checkout), exactly these files:

1. `src/rediscipline/rules/<family>/<slug>.py`: the rule, with typed options, the documented sections the
   catalog test requires, and a working check of the chosen kind (a deny-list: words in key names, a length
   limit on probed keys, commands, redis-py methods, or configuration settings that must be set). Replace
   the check, the options and the prose with the rule you mean; the scaffold only gives a shape that passes.
2. `tests/rules/cases/<ID>.toml`: a passing and a failing case of that check (`tests/rules/casefile.py`).
3. `src/rediscipline/rules/<family>/__init__.py`: the import and the entry in the family's `ALL`, in id order.
4. `docs/rules/<ID>-<slug>.md`: the page `scripts/gen_rule_docs.py` generates from the docstring.
5. `CHANGELOG.md`: a line under `## [Unreleased]` / `### Added` (the file is created when missing).

The id is the family's next free number unless `--id` names one. Families are the packages under
`src/rediscipline/rules/` whose `__init__.py` docstring starts with the family code and a colon (`KEY:`).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import textwrap
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = Path("src/rediscipline/rules")
CASES = Path("tests/rules/cases")
DOCS = Path("docs/rules")
CHANGELOG = Path("CHANGELOG.md")
SEVERITIES = ("note", "warning", "error")
PLACES = ("code", "live", "rdb", "config", "keys")

_RULE_DECORATOR = re.compile(r'@rule\(\s*"([A-Z]{3}\d{3})",\s*"([a-z0-9-]+)"')
_SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_FAMILY_DOC = re.compile(r'^"""([A-Z]{3}):')

CHANGELOG_HEAD = """# Changelog

Every change a user of rediscipline can notice, newest first. The format is
[Keep a Changelog](https://keepachangelog.com/en/1.1.0/); versions follow
[Semantic Versioning](https://semver.org/spec/v2.0.0.html).

## [Unreleased]
"""


class ScaffoldError(Exception):
    """An argument the scaffold cannot honour; the message says which and why."""


@dataclass(frozen=True)
class Kind:
    """One kind of rule the scaffold writes: its base class, where it is checked, its option and its cases."""

    base: str
    where: tuple[str, ...]
    stdlib: tuple[str, ...]  # import lines besides `dataclass`
    first_party: tuple[str, ...]  # import lines besides severity, text, base and options
    option: str
    option_doc: str
    what: str
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
        what="Reports key names whose literal text contains one of the words listed in `words`, in any case.",
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
        what="Reports keys whose length (elements of a collection, bytes of a string) is above `max-length`.",
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
        option='commands: tuple[str, ...] = option((), "Commands to report, in any case (none by default).")',
        option_doc="`commands`: the commands to report, in any case (default: none).",
        what="Reports the commands listed in `commands`, seen in code or in a server's command statistics.",
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
        what="Reports calls of the redis-py methods listed in `methods`.",
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
        what="Reports the configuration settings listed in `required` that the server leaves empty or unset.",
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


@dataclass(frozen=True)
class Family:
    code: str
    package: Path  # relative to the root

    @property
    def init(self) -> Path:
        return self.package / "__init__.py"


def families(root: Path) -> dict[str, Family]:
    """The rule families of the checkout at `root`, by code, from their packages' docstrings."""
    found: dict[str, Family] = {}
    for init in sorted((root / RULES).glob("*/__init__.py")):
        match = _FAMILY_DOC.match(init.read_text(encoding="utf-8"))
        if match:
            found[match.group(1)] = Family(match.group(1), init.parent.relative_to(root))
    return found


def declared_rules(root: Path) -> dict[str, str]:
    """Every rule id declared under src/rediscipline/rules, with its slug (read from the `@rule` decorators)."""
    rules: dict[str, str] = {}
    for module in (root / RULES).rglob("*.py"):
        for rule_id, slug in _RULE_DECORATOR.findall(module.read_text(encoding="utf-8")):
            rules[rule_id] = slug
    return rules


def class_name(slug: str) -> str:
    return "".join(word.capitalize() for word in slug.split("-"))


def next_id(family: str, taken: Sequence[str]) -> str:
    numbers = [int(rule_id[3:]) for rule_id in taken if rule_id.startswith(family)]
    return f"{family}{max(numbers, default=0) + 1:03d}"


def _prose(text: str, *, bullet: bool = False) -> str:
    """Text for a docstring section (indented 4) or one of its `- ` bullets, in lines of at most 120 characters."""
    indent = " " * (6 if bullet else 4)
    width = 120 - len(indent)
    return f"\n{indent}".join(textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False))


def _width(line: str) -> int:
    """Columns a line takes, as ruff counts them for E501: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


def module_text(args: argparse.Namespace, rule_id: str, kind: Kind) -> str:
    text = _module_text(args, rule_id, kind, noqa="")
    docstring = text.split('"""', 3)[3].split('"""', 1)[0]  # the class's (the module's comes first); ruff formats code
    if max(_width(line) for line in docstring.splitlines()) > 120:  # text without spaces (Chinese) is not wrapped
        text = _module_text(args, rule_id, kind, noqa="  # noqa: E501 - a sentence without spaces stays on one line")
    return text


def _module_text(args: argparse.Namespace, rule_id: str, kind: Kind, noqa: str) -> str:
    cls = class_name(args.slug)
    options = f"{cls}Options"
    first_party = (
        *kind.first_party,
        "from rediscipline.model.severity import Severity",
        "from rediscipline.model.text import Text",
        f"from rediscipline.rules.base import {kind.base}, RuleContext, rule",
        "from rediscipline.rules.options import RuleOptions, option",
    )
    return MODULE.format(
        id=rule_id,
        slug=args.slug,
        stdlib="\n".join(sorted((*kind.stdlib, "from dataclasses import dataclass"))),
        first_party="\n".join(sorted(first_party)),
        base=kind.base,
        options=options,
        option=kind.option,
        title_en=args.title,
        title_zh=args.title_zh,
        severity_name=args.severity.upper(),
        where=tuple(args.where) if args.where else kind.where,
        source=args.source,
        cls=cls,
        what=_prose(kind.what),
        why=_prose(args.why or f"{args.source} asks for it: {args.quote}"),
        example=kind.example,
        use_instead=kind.use_instead,
        option_doc=_prose(kind.option_doc, bullet=True),
        quote=_prose(f"{args.source}: {args.quote}", bullet=True).split(": ", 1)[1],
        body=kind.body.format(options=options),
        noqa=noqa,
    )


def register(init: Path, package: str, module: str, cls: str, rule_id: str) -> str:
    """The family `__init__.py` with the new rule imported (in module order) and listed in `ALL` (in id order)."""
    lines = init.read_text(encoding="utf-8").splitlines(keepends=True)
    prefix = f"from rediscipline.rules.{package}."
    statement = f"{prefix}{module} import {cls}\n"
    imports = [i for i, line in enumerate(lines) if line.startswith(prefix)]
    if not imports:
        raise ScaffoldError(f"{init}: no `{prefix}...` import to place the new one beside")
    at = next((i for i in imports if lines[i] > statement), imports[-1] + 1)
    lines.insert(at, statement)
    start = next((i for i, line in enumerate(lines) if line.startswith("ALL:")), None)
    if start is None:
        raise ScaffoldError(f"{init}: no `ALL: tuple[...] = (` to list the new rule in")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(")"))
    entry = f"    {cls},  # {rule_id}\n"
    ids = [(i, re.search(r"#\s*([A-Z]{3}\d{3})", lines[i])) for i in range(start + 1, end)]
    later = next((i for i, found in ids if found and found.group(1) > rule_id), end)
    lines.insert(later, entry)
    return "".join(lines)


def changelog_text(current: str | None, line: str) -> str:
    """CHANGELOG.md with `line` at the end of `## [Unreleased]` / `### Added` (both made when missing)."""
    lines = (current if current is not None else CHANGELOG_HEAD).rstrip("\n").split("\n")
    releases = [i for i, text in enumerate(lines) if text.startswith("## [")]
    start = next((i for i in releases if lines[i].startswith("## [Unreleased]")), None)
    if start is None:
        start = releases[0] if releases else len(lines)
        lines[start:start] = ["## [Unreleased]"]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## [")), len(lines))
    preamble: list[str] = []
    sections: dict[str, list[str]] = {}
    current_section: list[str] = preamble
    for text in lines[start + 1 : end]:
        if text.startswith("### "):
            current_section = sections.setdefault(text[4:].strip(), [])
        elif text.strip():
            current_section.append(text)
    sections = {"Added": sections.pop("Added", []), **sections}
    sections["Added"].append(line)
    body = [lines[start], ""]
    if preamble:
        body += [*preamble, ""]
    for name, items in sections.items():
        body += [f"### {name}", "", *items, ""]
    rest = lines[end:]
    return "\n".join(lines[:start] + body + rest).rstrip("\n") + "\n"


def generate_page(root: Path, rule_id: str) -> None:
    """docs/rules/<ID>-<slug>.md, by the checkout's own generator importing the checkout's own package."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [sys.executable, str(root / "scripts" / "gen_rule_docs.py"), rule_id],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise ScaffoldError(f"scripts/gen_rule_docs.py {rule_id} failed:\n{done.stderr.strip()}")


def format_module(path: Path) -> None:
    """ruff's formatting and import order, when ruff is installed (it is in the dev extra)."""
    for command in (("check", "--no-cache", "--quiet", "--select", "I", "--fix"), ("format", "--no-cache", "--quiet")):
        subprocess.run([sys.executable, "-m", "ruff", *command, str(path)], capture_output=True, text=True, check=False)


def scaffold(args: argparse.Namespace) -> list[Path]:
    """Write the rule and return the files written, relative to the root."""
    root: Path = args.root.resolve()
    known = families(root)
    family = known.get(args.family)
    if family is None:
        raise ScaffoldError(
            f"unknown family {args.family!r} (families: {', '.join(sorted(known))}); a new family also needs its "
            "package, a line in src/rediscipline/rules/__init__.py and its entry in rules.base.FAMILIES"
        )
    if not _SLUG.fullmatch(args.slug):
        raise ScaffoldError(f"slug {args.slug!r}: lower-case words joined by `-`, such as `key-length`")
    declared = declared_rules(root)
    if args.slug in declared.values():
        raise ScaffoldError(f"slug {args.slug!r} is taken")
    rule_id = args.id or next_id(family.code, list(declared))
    if not re.fullmatch(rf"{family.code}\d{{3}}", rule_id):
        raise ScaffoldError(f"--id {rule_id!r}: expected {family.code} and three digits")
    if rule_id in declared:
        raise ScaffoldError(f"{rule_id} is taken")
    unknown = set(args.where or ()) - set(PLACES)
    if unknown:
        raise ScaffoldError(f"--where {', '.join(sorted(unknown))}: places are {', '.join(PLACES)}")
    if not re.match(r"\d{3} ", args.source):
        raise ScaffoldError(f"--source {args.source!r}: start with the document's number, e.g. '004 §2.1 小写命名'")
    module_name = args.slug.replace("-", "_")
    module = family.package / f"{module_name}.py"
    cases = CASES / f"{rule_id}.toml"
    page = DOCS / f"{rule_id}-{args.slug}.md"
    for path in (module, cases, page):
        if (root / path).exists():
            raise ScaffoldError(f"{path} exists already")
    kind = KINDS[args.kind]
    init_text = register(root / family.init, family.package.name, module_name, class_name(args.slug), rule_id)
    changelog = root / CHANGELOG
    entry = f"- `{rule_id}` `{args.slug}`: {args.title} (`rediscipline rule {rule_id}`)."
    changelog_new = changelog_text(changelog.read_text(encoding="utf-8") if changelog.exists() else None, entry)

    if args.kind == "command" and "def judged(" in (root / RULES / "base.py").read_text(encoding="utf-8"):
        kind = replace(kind, body=kind.body + JUDGED)  # the engine offers a command rule only what it judges
    (root / module).write_text(module_text(args, rule_id, kind), encoding="utf-8")
    format_module(root / module)
    header = f'rule = "{rule_id}"\n'
    (root / cases).write_text(header + kind.cases.format(severity=args.severity), encoding="utf-8")
    (root / family.init).write_text(init_text, encoding="utf-8")
    changelog.write_text(changelog_new, encoding="utf-8")
    generate_page(root, rule_id)
    return [module, cases, family.init, page, CHANGELOG]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n", 1)[0])
    parser.add_argument("family", help="the family code: KEY, VAL, TTL, CMD, BAT, PUB, CFG, SEC")
    parser.add_argument("slug", help="the rule's slug, lower-case words joined by `-` (also its module's name)")
    parser.add_argument("--title", required=True, help="the one-line title in English")
    parser.add_argument("--title-zh", required=True, help="the one-line title in Chinese")
    parser.add_argument("--source", required=True, help="the citation: document number and section ('004 §2.1 …')")
    parser.add_argument("--quote", default="the sentence of the document this rule enforces.", help="its sentence")
    parser.add_argument("--why", help="the *Why is this bad?* paragraph (default: the citation and its sentence)")
    parser.add_argument("--kind", choices=sorted(KINDS), default="name", help="what the rule judges (default: name)")
    parser.add_argument("--severity", choices=SEVERITIES, default="warning", help="default severity (warning)")
    parser.add_argument("--where", nargs="+", metavar="PLACE", help=f"override the kind's places ({', '.join(PLACES)})")
    parser.add_argument("--id", help="the rule id (default: the family's next free number)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to write into (default: this one)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.family = args.family.upper()
    try:
        written = scaffold(args)
    except ScaffoldError as error:
        print(f"add_rule: error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
