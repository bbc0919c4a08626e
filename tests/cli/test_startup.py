"""`--version` and `--help` start without the heavy modules, and say what they should.

A behaviour test, not a timing one: `python -X importtime` lists every module the run imported, and
`--version`, `--help` and a usage error must not import rich, redis-py, the rules, the engine or any source.
`--version` loads the compiled modules it names (rediscipline.compiled.core) from their files, without their
packages' `__init__` (`rediscipline.rules` imports every rule).
Likewise an audit hook lists the files a run opens: the rules' Chinese documentation is read only by a run
that shows it, and then only the page it shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import click
import pytest

from rediscipline import __version__
from rediscipline.cli.main import COMMANDS, cli
from rediscipline.cli.version import NOT_INSTALLED, distribution_version
from rediscipline.compiled import PURE_VARIABLE, core, extension_modules

#: Imported by a subcommand when it runs, never by the group itself.
HEAVY = (
    "rich",
    "redis",
    "hiredis",
    "pathspec",
    "lz4",
    "anycrc",
    "tomllib",
    "tomli",
    "rediscipline.api",
    "rediscipline.engine",
    "rediscipline.rules",
    "rediscipline.sources",
    "rediscipline.render",
    "rediscipline.settings",
    "rediscipline.suppress",
    "rediscipline.model",
)


def imported_modules(*args: str, cwd: Path, pure: bool = False) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run `python -X importtime -m rediscipline ARGS`; the modules it imported, from importtime's lines."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPROFILEIMPORTTIME", PURE_VARIABLE)}
    if pure:
        env[PURE_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "rediscipline", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
    )
    modules = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "rediscipline.cli.main" in modules, done.stderr[-2000:]
    return done, modules


#: Runs `python -m rediscipline ARGS` with an audit hook, then prints the translations it opened on stderr.
_OPENS_PROBE = """
import runpy, sys
opened = []
def hook(event, args):
    if event == "open" and isinstance(args[0], str) and "/rules/docs_zh/" in args[0]:
        opened.append(args[0].rsplit("/", 1)[1])
sys.addaudithook(hook)
sys.argv = ["rediscipline", *sys.argv[1:]]
try:
    runpy.run_module("rediscipline", run_name="__main__", alter_sys=True)
finally:
    sys.stderr.write("OPENED " + " ".join(opened) + "\\n")
"""


def opened_translations(*args: str, cwd: Path) -> list[str]:
    """The files of `rules/docs_zh/` that `rediscipline ARGS` opened."""
    done = subprocess.run(
        [sys.executable, "-c", _OPENS_PROBE, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )
    assert done.returncode in (0, 2), done.stderr[-2000:]
    line = done.stderr.splitlines()[-1]
    assert line.startswith("OPENED"), done.stderr[-2000:]
    return line.split()[1:]


def heavy_among(modules: list[str]) -> list[str]:
    return sorted({m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)})


@pytest.mark.parametrize("args", [("--help",), ("-h",), ("rulez",), ()], ids=repr)
def test_group_level_runs_import_nothing_heavy(args: tuple[str, ...], tmp_path: Path) -> None:
    done, modules = imported_modules(*args, cwd=tmp_path)
    assert done.returncode in (0, 2)
    assert heavy_among(modules) == []


def test_version_imports_the_compiled_modules_and_nothing_else_heavy(tmp_path: Path) -> None:
    done, modules = imported_modules("--version", cwd=tmp_path)
    assert done.returncode == 0
    # an extension module may have no importtime line: that `--version` loaded each is in the line it prints
    # (test_version_names_python_redis_py_hiredis_and_the_core)
    assert set(heavy_among(modules)) <= set(extension_modules())


def test_version_with_the_pure_core_imports_nothing_heavy(tmp_path: Path) -> None:
    done, modules = imported_modules("--version", cwd=tmp_path, pure=True)
    assert done.returncode == 0
    assert heavy_among(modules) == []


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--version",), []),
        (("--help",), []),
        (("rules", "--lang", "zh"), []),
        (("rule", "TTL001"), []),
        (("rule", "TTL001", "--lang", "zh"), ["TTL001.md"]),
    ],
    ids=repr,
)
def test_only_a_run_that_shows_a_translation_reads_it(
    args: tuple[str, ...], expected: list[str], tmp_path: Path
) -> None:
    assert opened_translations(*args, cwd=tmp_path) == expected


def test_a_subcommand_imports_what_it_needs(tmp_path: Path) -> None:
    """The probe can see heavy imports: `rules` loads the rules and rich."""
    done, modules = imported_modules("rules", cwd=tmp_path)
    assert done.returncode == 0
    assert {"rediscipline.rules", "rich.console"} <= set(heavy_among(modules))


def test_version_names_python_redis_py_hiredis_and_the_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_VARIABLE, raising=False)
    expected = (
        f"rediscipline {__version__} (Python {sys.version.split()[0]}, redis-py {version('redis')}, "
        f"hiredis {version('hiredis')})\n{core()}\n"
    )
    module = subprocess.run(
        [sys.executable, "-m", "rediscipline", "--version"], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert (module.returncode, module.stdout, module.stderr) == (0, expected, "")
    script = Path(sys.executable).with_name("rediscipline")
    if script.exists():  # the console script of this virtualenv, as users run it
        done = subprocess.run([str(script), "--version"], capture_output=True, text=True, cwd=tmp_path, check=False)
        assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_version_says_when_the_pure_core_is_asked_for(tmp_path: Path) -> None:
    env = {**os.environ, PURE_VARIABLE: "yes"}
    done = subprocess.run(
        [sys.executable, "-m", "rediscipline", "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[1:] == ["core: pure Python (REDISCIPLINE_PURE=yes)"]


def test_a_missing_distribution_is_not_installed() -> None:
    assert distribution_version("rediscipline-no-such-distribution") == NOT_INSTALLED


def test_help_lists_every_command_with_its_own_one_line_help() -> None:
    """`COMMANDS` (read by `--help` without importing the commands) says what each command says of itself."""
    ctx = click.Context(cli)
    for name, entry in COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None
        assert command.name == name
        assert command.get_short_help_str(limit=1000) == entry.short_help, name
    text = cli.get_help(ctx)
    listed = text.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted(COMMANDS)
