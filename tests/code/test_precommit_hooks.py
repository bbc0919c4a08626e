"""`.pre-commit-hooks.yaml` describes hooks pre-commit can install and run, and they run our real command.

pre-commit reads the file with a YAML parser, rejects unknown keys, picks the staged files with
`re.search(files)` / `re.search(exclude)` plus the `types` tags, and runs `entry` with the file names
appended. These tests do the same with the real parser and the real CLI, so a typo in a key, an entry that is
not a command, or a file pattern that hands `check` a file it refuses is caught here instead of in every
team's commit.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from rediscipline.cli.main import cli
from rediscipline.sources.config.detect import config_kind

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the project depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
#: The keys pre-commit's manifest schema accepts (pre_commit/clientlib.py, MANIFEST_HOOK_DICT).
MANIFEST_KEYS = {
    "id", "name", "entry", "language", "alias", "files", "exclude", "types", "types_or", "exclude_types",
    "additional_dependencies", "args", "always_run", "fail_fast", "pass_filenames", "description",
    "language_version", "log_file", "minimum_pre_commit_version", "require_serial", "stages", "verbose",
}  # fmt: skip


def hooks() -> dict[str, dict[str, Any]]:
    loaded = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, list), "a manifest is a list of hooks"
    return {hook["id"]: hook for hook in loaded}


def selected(hook: dict[str, Any], path: str) -> bool:
    """Whether pre-commit hands `path` to the hook, as far as the name decides (types aside)."""
    if not re.search(hook.get("files", ""), path):
        return False
    return not re.search(hook.get("exclude", "^$"), path)


def run_hook(hook: dict[str, Any], *files: str) -> Result:
    """Run the hook's entry as pre-commit does: the entry's words, its args, then the staged file names."""
    program, *words = shlex.split(hook["entry"])
    assert program == "rediscipline"
    return CliRunner().invoke(cli, [*words, *hook.get("args", []), *files], catch_exceptions=False)


def test_the_manifest_has_the_two_hooks_with_known_keys() -> None:
    found = hooks()
    assert list(found) == ["rediscipline", "rediscipline-config"]
    for hook in found.values():
        assert set(hook) <= MANIFEST_KEYS, f"{hook['id']}: unknown keys {set(hook) - MANIFEST_KEYS}"
        assert hook["language"] == "python"
        assert hook["entry"] == "rediscipline check"
        assert hook["require_serial"] is True  # one process: one baseline, per-file ignores, unused suppressions
        assert isinstance(hook["name"], str) and hook["name"]
    assert found["rediscipline"]["types"] == ["python"]
    assert found["rediscipline-config"]["types"] == ["text"]


def test_the_entry_is_the_installed_console_script() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["rediscipline"] == "rediscipline.cli.entry:main"
    result = run_hook(hooks()["rediscipline"], "--help")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].endswith(" check [OPTIONS] [PATH]...")


@pytest.mark.parametrize(
    ("path", "wanted"),
    [
        ("app.py", True),
        ("src/shop/cache.py", True),
        ("stubs/redis_helpers.pyi", True),
        ("scripts/flush-sessions", False),  # a script found by its shebang: `check` reads only *.py/*.pyi
        ("README.md", False),
    ],
)
def test_code_hook_files(path: str, wanted: bool) -> None:
    assert selected(hooks()["rediscipline"], path) is wanted


@pytest.mark.parametrize(
    ("path", "wanted"),
    [
        ("redis.conf", True),
        ("deploy/redis-6380.conf", True),
        ("deploy/prod/valkey.conf", True),
        ("deploy/users.acl", True),
        ("redis/nginx.conf", False),  # a folder named redis does not make its files redis.conf
        ("deploy/sentinel.conf", False),
        ("deploy/redis-sentinel.conf", False),
        ("redis.conf.bak", False),
        ("app/redis_config.py", False),
    ],
)
def test_config_hook_files(path: str, wanted: bool) -> None:
    assert selected(hooks()["rediscipline-config"], path) is wanted
    if wanted:  # `check` recognises every file the hook hands it by its name alone (else: exit 2)
        assert config_kind(path, b"") is not None


def test_code_hook_fails_the_commit_on_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("clean.py").write_text("import redis\n\nr = redis.Redis()\nr.set('user:1:name', 'x', ex=60)\n")
    Path("sweep.py").write_text("import redis\n\nr = redis.Redis()\nfor key in r.keys('session:*'):\n    pass\n")
    hook = hooks()["rediscipline"]
    clean = run_hook(hook, "clean.py")
    assert clean.exit_code == 0, clean.output
    dirty = run_hook(hook, "clean.py", "sweep.py")
    assert dirty.exit_code == 1, dirty.output
    assert "sweep.py:4:" in dirty.output
    assert "CMD001" in dirty.output
    assert "clean.py:" not in dirty.output


def test_config_hook_audits_a_redis_conf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("redis.conf").write_text("port 6379\nmaxmemory 4gb\nmaxmemory-policy allkeys-lru\n")
    Path("users.acl").write_text("user default on nopass ~* &* +@all\n")
    result = run_hook(hooks()["rediscipline-config"], "redis.conf", "users.acl")
    assert result.exit_code == 1, result.output  # findings, not "cannot check" (2)
    assert "rediscipline: error" not in result.output
    assert re.search(r"^users\.acl(:\d+)*: SEC002 \[error\] user `default` has no password", result.output, re.M)
    assert "2 config file(s) checked" in result.output
