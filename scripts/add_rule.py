"""Scaffold a new rule: its module, its case file, its Chinese documentation, its generated pages and a changelog
line, registered in its family.

    python scripts/add_rule.py KEY my-slug --title "English title" --title-zh "中文标题" \\
        --source "004 §2.1 小写命名" [--kind name|fact|command|call|instance] [--severity warning] [--id KEY019]

Writes, under the repository root (`--root`, default: this checkout), exactly these files:

1. `src/rediscipline/rules/<family>/<slug>.py`: the rule, with typed options, the documented sections the
   catalog test requires, and a working check of the chosen kind (a deny-list: words in key names, a length
   limit on probed keys, commands, redis-py methods, or configuration settings that must be set). Replace
   the check, the options and the prose with the rule you mean; the scaffold only gives a shape that passes.
2. `tests/rules/cases/<ID>.toml`: a passing and a failing case of that check (`tests/rules/casefile.py`).
3. `src/rediscipline/rules/<family>/__init__.py`: the import and the entry in the family's `ALL`, in id order.
4. `src/rediscipline/rules/docs_zh/<ID>.md`: the Chinese translation of the docstring, stamped with the English
   text it translates (`rules.translation`): when the docstring is rewritten, tests/rules/test_docs_zh.py fails
   until the translation follows and its stamp is renewed.
5. `docs/rules/<ID>-<slug>.md` and `docs/rules/zh/<ID>-<slug>.md`: the pages `scripts/gen_rule_docs.py`
   generates from the docstring and from its translation.
6. `CHANGELOG.md`: a line under `## [Unreleased]` / `### Added` (the file is created when missing).

The templates of each kind are in `scripts/rule_templates.py`. The id is the family's next free number unless
`--id` names one. Families are the packages under `src/rediscipline/rules/` whose `__init__.py` docstring
starts with the family code and a colon (`KEY:`).
"""

from __future__ import annotations

import argparse
import json
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
sys.path.insert(0, str(ROOT))  # the templates beside this script, in this checkout (which may be a copy)

from scripts.rule_templates import DOC_ZH, JUDGED, KINDS, MODULE, Kind  # noqa: E402

RULES = Path("src/rediscipline/rules")
CASES = Path("tests/rules/cases")
DOCS = Path("docs/rules")
DOCS_ZH = RULES / "docs_zh"
#: `--quote` when none is given, and its Chinese placeholder in the translation.
QUOTE = "the sentence of the document this rule enforces."
QUOTE_ZH = "本规则所执行的文档原句。"
CHANGELOG = Path("CHANGELOG.md")
SEVERITIES = ("note", "warning", "error")
PLACES = ("code", "live", "rdb", "config", "keys")

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
    """Every rule the checkout's registry holds (modules and table rows alike): id → slug."""
    probe = (
        "import json\n"
        "from rediscipline.rules import default_registry\n"
        "print(json.dumps({cls.meta.id: cls.meta.slug for cls in default_registry()}))\n"
    )
    done = _checkout_python(root, "-c", probe)
    if done.returncode != 0:
        raise ScaffoldError(f"the rules of {root} do not import:\n{done.stderr.strip()}")
    rules: dict[str, str] = json.loads(done.stdout)
    return rules


def _checkout_python(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """This interpreter on the checkout's own package (`root/src` first on the path), writing no bytecode."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, check=False)


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


def doc_zh_text(args: argparse.Namespace, kind: Kind, stamp: str) -> str:
    """The Chinese translation of the module's docstring, stamped with the English text it translates."""
    quote = QUOTE_ZH if args.quote == QUOTE else args.quote
    return DOC_ZH.format(
        stamp=f"<!-- en: {stamp} -->",
        title_zh=args.title_zh,
        what=kind.what_zh,
        why=args.why_zh or f"{args.source} 要求这样做：{quote}",
        example=kind.example,
        use_instead=kind.use_instead,
        option_doc=kind.option_doc_zh,
        source=args.source,
        quote=quote,
    )


def english_stamp(root: Path, rule_id: str) -> str:
    """The stamp of the rule's English docstring, as the checkout's own package computes it."""
    probe = (
        "from rediscipline.rules import default_registry\n"
        "from rediscipline.rules.translation import english_stamp\n"
        f"print(english_stamp(default_registry().get({rule_id!r}).doc()))\n"
    )
    done = _checkout_python(root, "-c", probe)
    if done.returncode != 0:
        raise ScaffoldError(f"the new rule {rule_id} does not import:\n{done.stderr.strip()}")
    return done.stdout.strip()


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
    """docs/rules/<ID>-<slug>.md and docs/rules/zh/<ID>-<slug>.md, by the checkout's own generator importing the
    checkout's own package."""
    done = _checkout_python(root, str(root / "scripts" / "gen_rule_docs.py"), rule_id)
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
    if args.why and not args.why_zh:
        raise ScaffoldError(f"--why needs --why-zh: the same paragraph in Chinese, for {DOCS_ZH}/{rule_id}.md")
    if not re.match(r"\d{3} ", args.source):
        raise ScaffoldError(f"--source {args.source!r}: start with the document's number, e.g. '004 §2.1 小写命名'")
    module_name = args.slug.replace("-", "_")
    module = family.package / f"{module_name}.py"
    cases = CASES / f"{rule_id}.toml"
    page = DOCS / f"{rule_id}-{args.slug}.md"
    page_zh = DOCS / "zh" / f"{rule_id}-{args.slug}.md"
    doc_zh = DOCS_ZH / f"{rule_id}.md"
    for path in (module, cases, page, page_zh, doc_zh):
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
    (root / doc_zh).write_text(doc_zh_text(args, kind, english_stamp(root, rule_id)), encoding="utf-8")
    generate_page(root, rule_id)
    return [module, cases, family.init, doc_zh, page, page_zh, CHANGELOG]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n", 1)[0])
    parser.add_argument("family", help="the family code: KEY, VAL, TTL, CMD, BAT, PUB, CFG, SEC")
    parser.add_argument("slug", help="the rule's slug, lower-case words joined by `-` (also its module's name)")
    parser.add_argument("--title", required=True, help="the one-line title in English")
    parser.add_argument("--title-zh", required=True, help="the one-line title in Chinese")
    parser.add_argument("--source", required=True, help="the citation: document number and section ('004 §2.1 …')")
    parser.add_argument("--quote", default=QUOTE, help="its sentence")
    parser.add_argument("--why", help="the *Why is this bad?* paragraph (default: the citation and its sentence)")
    parser.add_argument("--why-zh", help="the same paragraph in Chinese (required with --why)")
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
