"""scripts/add_rule.py scaffolds a rule of each kind into a copy of the checkout, touching exactly seven files.

The copy holds what a rule involves: the package, the scripts, docs/rules, the rule tests, the code corpus test
and the changelog. For each kind the test compares every file of the copy before and after the scaffold: the
module, its cases, its family list, its Chinese documentation, its two generated pages and CHANGELOG.md
changed, nothing else. Then the copy's own catalog, case, translation, docs and code-coverage tests run on the
new rules (a subprocess importing the copy's package), and `rediscipline rule ID` prints each new rule's page
in both languages. A rule whose English documentation is rewritten, or that has no translation, fails the
translation tests.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: What a rule involves, copied from this checkout.
LAYOUT = (
    "src",
    "scripts",
    "docs/rules",
    "tests/__init__.py",
    "tests/support/__init__.py",
    "tests/support/places.py",
    "tests/rules",
    "tests/test_docs.py",
    "tests/code/__init__.py",
    "tests/code/conftest.py",
    "tests/code/test_fixtures.py",
    "tests/code/fixtures",
    "pyproject.toml",
    "CHANGELOG.md",
)
#: kind → (family, module path under src/rediscipline/rules).
TOYS = {
    "name": ("KEY", "key/toy_name.py"),
    "fact": ("VAL", "value/toy_fact.py"),
    "command": ("CMD", "command/toy_command.py"),
    "call": ("BAT", "batch/toy_call.py"),
    "instance": ("CFG", "config/toy_instance.py"),
}


def _copy(target: Path) -> None:
    for name in LAYOUT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _files(root: Path) -> dict[str, str]:
    """Every file under `root` (no bytecode) → the SHA-256 of its content."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def _env(copy: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REDISCIPLINE_")}
    env["PYTHONPATH"] = os.pathsep.join([str(copy / "src"), str(copy)])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _scaffold(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(copy / "scripts" / "add_rule.py"), *args, "--root", str(copy)],
        capture_output=True,
        text=True,
        env=_env(copy),
        timeout=120,
        check=False,
    )


def _declared_ids() -> set[str]:
    from rediscipline.rules import default_registry

    return set(default_registry().ids())


def _next_id(family: str) -> str:
    numbers = [int(rule_id[3:]) for rule_id in _declared_ids() if rule_id.startswith(family)]
    return f"{family}{max(numbers) + 1:03d}"


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, set[str]], dict[str, str]]:
    """The copy with one toy rule of each kind; the files each scaffold changed and the id it gave."""
    copy = tmp_path_factory.mktemp("checkout")
    _copy(copy)
    touched: dict[str, set[str]] = {}
    ids: dict[str, str] = {}
    for kind, (family, _module) in TOYS.items():
        before = _files(copy)
        done = _scaffold(
            copy,
            family,
            f"toy-{kind}",
            "--kind",
            kind,
            "--title",
            f"Toy {kind} rule",
            "--title-zh",
            "示例规则",
            "--source",
            "004 §2.1 小写命名",
            "--quote",
            "Redis 键名必须使用小写字母，避免大小写混淆问题。",
        )
        assert done.returncode == 0, done.stderr
        after = _files(copy)
        touched[kind] = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
        assert set(done.stdout.split()) == touched[kind], done.stdout
        ids[kind] = re.findall(r"tests/rules/cases/([A-Z]{3}\d{3})\.toml", done.stdout)[0]
    return copy, touched, ids


@pytest.mark.parametrize("kind", sorted(TOYS))
def test_a_new_rule_touches_seven_files(
    kind: str, scaffolded: tuple[Path, dict[str, set[str]], dict[str, str]]
) -> None:
    _copy_root, touched, ids = scaffolded
    family, module = TOYS[kind]
    rule_id = ids[kind]
    assert rule_id == _next_id(family)
    package = module.split("/")[0]
    assert touched[kind] == {
        f"src/rediscipline/rules/{module}",
        f"src/rediscipline/rules/{package}/__init__.py",
        f"tests/rules/cases/{rule_id}.toml",
        f"src/rediscipline/rules/docs_zh/{rule_id}.md",
        f"docs/rules/{rule_id}-toy-{kind}.md",
        f"docs/rules/zh/{rule_id}-toy-{kind}.md",
        "CHANGELOG.md",
    }


def test_new_rules_are_discovered_documented_and_their_cases_run(
    scaffolded: tuple[Path, dict[str, set[str]], dict[str, str]],
) -> None:
    copy, _touched, ids = scaffolded
    whole = ["test_rule_docs_are_current", "test_the_index_names_every_family", "test_corpus_covers_every_code_rule"]
    selected = " or ".join([*ids.values(), *whole])
    tests = [
        "tests/rules/test_catalog.py",
        "tests/rules/test_cases.py",
        "tests/rules/test_docs_zh.py",
        "tests/test_docs.py",
        "tests/code/test_fixtures.py",
    ]
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", selected, *tests]
    listed = subprocess.run(
        [*pytest, "--collect-only"], capture_output=True, text=True, cwd=copy, env=_env(copy), timeout=300, check=False
    )
    assert listed.returncode == 0, listed.stdout[-3000:] + listed.stderr[-2000:]
    collected = [line for line in listed.stdout.splitlines() if "::" in line]
    for rule_id in ids.values():
        # the catalog's checks of the rule (doc sections, documented options, cited sources, cases)...
        assert len([n for n in collected if "test_catalog.py" in n and f"[{rule_id}]" in n]) >= 4, rule_id
        # ...its translation's checks (it exists and is current, sections, code, options, numbers, prose)...
        assert len([n for n in collected if "test_docs_zh.py" in n and f"[{rule_id}]" in n]) == 6, rule_id
        # ...and every case of its case file
        cases = (copy / "tests" / "rules" / "cases" / f"{rule_id}.toml").read_text(encoding="utf-8").count("[[case]]")
        assert len([n for n in collected if "test_cases.py" in n and f"[{rule_id}-" in n]) == cases, rule_id
    for name in whole:
        assert any(f"::{name}" in node for node in collected), name
    done = subprocess.run(pytest, capture_output=True, text=True, cwd=copy, env=_env(copy), timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(rf"\b{len(collected)} passed\b", done.stdout), done.stdout[-2000:]
    assert "failed" not in done.stdout

    for kind, rule_id in ids.items():
        for lang, folder, title in (("en", "", f": Toy {kind} rule"), ("zh", "zh", "：示例规则")):
            page = subprocess.run(
                [sys.executable, "-m", "rediscipline", "rule", rule_id, "--lang", lang],
                capture_output=True,
                text=True,
                cwd=copy,
                env=_env(copy),
                timeout=60,
                check=False,
            )
            assert page.returncode == 0, page.stderr
            generated = (copy / "docs" / "rules" / folder / f"{rule_id}-toy-{kind}.md").read_text(encoding="utf-8")
            assert page.stdout == generated
            assert generated.startswith(f"# {rule_id} toy-{kind}{title}\n")
        assert "\n## 检查什么\n" in generated and "\n## What it does\n" not in generated


def test_new_modules_pass_ruff(scaffolded: tuple[Path, dict[str, set[str]], dict[str, str]]) -> None:
    copy, _touched, _ids = scaffolded
    modules = [str(copy / "src" / "rediscipline" / "rules" / module) for _family, module in TOYS.values()]
    config = str(ROOT / "pyproject.toml")
    for command in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--no-cache", "--config", config, *modules],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_changelog_lists_each_new_rule_once(scaffolded: tuple[Path, dict[str, set[str]], dict[str, str]]) -> None:
    copy, _touched, ids = scaffolded
    changelog = (copy / "CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = changelog.split("## [Unreleased]\n", 1)[1].split("\n## [", 1)[0]
    added = unreleased.split("### Added\n", 1)[1].split("\n### ", 1)[0]
    for kind, rule_id in ids.items():
        line = f"- `{rule_id}` `toy-{kind}`: Toy {kind} rule (`rediscipline rule {rule_id}`)."
        assert added.count(line) == 1, added


def test_the_changelog_is_made_when_missing_and_short_lines_need_no_noqa(tmp_path: Path) -> None:
    _copy(tmp_path)
    (tmp_path / "CHANGELOG.md").unlink()
    done = _scaffold(tmp_path, "KEY", "toy-words", "--title", "Toy", "--title-zh", "示例", "--source", "004 §2.1")
    assert done.returncode == 0, done.stderr
    rule_id = _next_id("KEY")
    module = tmp_path / "src" / "rediscipline" / "rules" / "key" / "toy_words.py"
    assert "noqa" not in module.read_text(encoding="utf-8")  # no line of its docstring is too long for E501
    checked = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(module)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout
    assert (
        (tmp_path / "CHANGELOG.md")
        .read_text(encoding="utf-8")
        .endswith(f"## [Unreleased]\n\n### Added\n\n- `{rule_id}` `toy-words`: Toy (`rediscipline rule {rule_id}`).\n")
    )


#: The arguments every call below passes unless it names them again (argparse keeps the last one).
NAMED = ("--title", "T", "--title-zh", "标题", "--source", "004 §2.1")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("ZZZ", "expiry-storm"), "unknown family 'ZZZ'"),
        (("KEY", "key-length"), "slug 'key-length' is taken"),
        (("KEY", "Bad_Slug"), "slug 'Bad_Slug': lower-case words joined by `-`"),
        (("KEY", "fresh-slug", "--id", "KEY005"), "KEY005 is taken"),
        (("CMD", "keys-command"), "slug 'keys-command' is taken"),  # a row of the banned-command table
        (("CMD", "fresh-slug", "--id", "CMD001"), "CMD001 is taken"),
        (("KEY", "fresh-slug", "--id", "VAL100"), "--id 'VAL100': expected KEY and three digits"),
        (("KEY", "fresh-slug", "--source", "a document"), "start with the document's number"),
        (("KEY", "fresh-slug", "--why", "It breaks things."), "--why needs --why-zh"),
    ],
)
def test_bad_arguments_are_one_line_and_write_nothing(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    _copy(tmp_path)
    before = _files(tmp_path)
    done = _scaffold(tmp_path, *NAMED, *args)
    assert done.returncode == 2
    assert done.stderr.startswith("add_rule: error: ") and message in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1
    assert _files(tmp_path) == before


def test_a_command_rule_says_which_commands_it_judges_where_the_engine_asks(tmp_path: Path) -> None:
    """Where `CommandRule.judged` exists (the engine indexes command rules by their commands), the scaffold's
    command rule names the commands of its option; the copy's base class is given one when it has none."""
    _copy(tmp_path)
    base = tmp_path / "src" / "rediscipline" / "rules" / "base.py"
    text = base.read_text(encoding="utf-8")
    if "def judged(" not in text:
        anchor = "class CommandRule(Rule[OptionsT]):\n"
        method = (
            "    commands: ClassVar[frozenset[str]] = frozenset()\n\n"
            "    def judged(self, options: OptionsT) -> frozenset[str]:\n"
            "        return self.commands\n\n"
        )
        head, _, rest = text.partition(anchor)
        docstring_end = rest.index('"""\n', rest.index('"""') + 3) + 4
        base.write_text(head + anchor + rest[:docstring_end] + "\n" + method + rest[docstring_end:], encoding="utf-8")
    done = _scaffold(tmp_path, "CMD", "toy-judged", "--kind", "command", *NAMED)
    assert done.returncode == 0, done.stderr
    probe = (
        "from rediscipline.rules.command.toy_judged import ToyJudged, ToyJudgedOptions\n"
        "print(sorted(ToyJudged().judged(ToyJudgedOptions(commands=('DEBUG', 'Flushall')))))\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=_env(tmp_path), timeout=60, check=False
    )
    assert (shown.returncode, shown.stdout) == (0, "['debug', 'flushall']\n"), shown.stderr


def _translation_tests(copy: Path, rule_id: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/rules/test_docs_zh.py", "-k", rule_id],
        capture_output=True,
        text=True,
        cwd=copy,
        env=_env(copy),
        timeout=300,
        check=False,
    )


def test_a_rule_documented_without_its_translation_fails(tmp_path: Path) -> None:
    """The scaffold's translation passes; rewriting the English documentation fails until the translation (and
    its stamp) follows, and so does a rule with no translation at all."""
    _copy(tmp_path)
    done = _scaffold(tmp_path, "KEY", "toy-untranslated", *NAMED, "--quote", "键名必须使用小写字母。")
    assert done.returncode == 0, done.stderr
    rule_id = _next_id("KEY")
    assert _translation_tests(tmp_path, rule_id).returncode == 0

    module = tmp_path / "src" / "rediscipline" / "rules" / "key" / "toy_untranslated.py"
    text = module.read_text(encoding="utf-8")
    module.write_text(text.replace("## Why is this bad?\n", "## Why is this bad?\n    A rewritten reason.\n"), "utf-8")
    stale = _translation_tests(tmp_path, rule_id)
    assert stale.returncode == 1
    assert f"src/rediscipline/rules/docs_zh/{rule_id}.md does not translate the current English" in stale.stdout

    (tmp_path / "src" / "rediscipline" / "rules" / "docs_zh" / f"{rule_id}.md").unlink()
    missing = _translation_tests(tmp_path, rule_id)
    assert missing.returncode == 1
    assert (
        f"{rule_id} has no Chinese documentation: write src/rediscipline/rules/docs_zh/{rule_id}.md" in missing.stdout
    )
