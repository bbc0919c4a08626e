"""What a run imports and builds: what its command, input and format use, and nothing else.

Behaviour, not timing: each run is the `rediscipline` executable's own entry point (`cli.entry.main`) in a
fresh interpreter, which then reports every module in `sys.modules`, how many rows of the library catalog
were compiled (`engine.libraries`: a row is compiled when a key is first tried against it) and whether the
cyclic garbage collector is on again (the entry point pauses it while the command's modules load).
A dump scan writing JSON loads every rule, the engine and the JSON renderer, never the HTML page, the other
renderers, rich, the fleet report or the process pools; a scan writing text loads rich; a check of one file
never loads pathspec (globs and .gitignore files only) or the RDB parser.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rediscipline.engine.libraries import LibraryCatalog
from rediscipline.render import RENDERERS
from rediscipline.rules import ALL_RULES
from tests.support.rdbwriter import RdbBuilder, listpack

#: Runs the executable's entry point on sys.argv[1:], then prints what the run left in the process as JSON.
_PROBE = """
import gc, json, sys
from rediscipline.cli.entry import main
sys.argv = ["rediscipline", *sys.argv[1:]]
try:
    main()
except SystemExit as done:
    code = done.code
libraries = sys.modules.get("rediscipline.engine.libraries")
compiled = None
if libraries is not None and libraries.default_catalog.cache_info().currsize:  # the dumps' catalog was built
    compiled = sum(row.compiled for row in libraries.default_catalog(None).rows())
found = {"code": code, "modules": sorted(sys.modules), "compiled": compiled, "gc": gc.isenabled()}
sys.stderr.write("\\nPROBE " + json.dumps(found) + "\\n")
"""

#: Modules no dump scan writing JSON imports (a name stands for its submodules too).
NOT_FOR_A_JSON_SCAN = (
    "rich",
    "redis",
    "pathspec",
    "markupsafe",
    "multiprocessing",
    "concurrent.futures",
    "importlib.resources",
    "rediscipline.render.html",
    "rediscipline.render.text",
    "rediscipline.render.sarif",
    "rediscipline.render.markdown",
    "rediscipline.render.github",
    "rediscipline.render.fleet",
    "rediscipline.cli.fleet",
    "rediscipline.cli.progress_bar",
    "rediscipline.model.fleet",
    "rediscipline.api.executors",
    "rediscipline.api.keys",
    "rediscipline.api.live",
    "rediscipline.sources.keylist",
    "rediscipline.sources.code",
)
#: Modules a dump scan writing text does not import: a cluster's section, the HTML page, the bar (no terminal).
NOT_FOR_A_TEXT_SCAN = (
    "markupsafe",
    "rich.progress",
    "rediscipline.render.html",
    "rediscipline.render.text_cluster",
    "rediscipline.cli.fleet",
    "rediscipline.api.executors",
)
#: Modules a check of one named file does not import: no glob and no .gitignore to match, no dump to read.
NOT_FOR_A_FILE_CHECK = (
    "pathspec",
    "multiprocessing",
    "rediscipline.sources.rdb",
    "rediscipline.render.html",
    "rediscipline.cli.fleet",
)
CTIME = 1_790_000_000
HASH_LISTPACK = 16  # the RDB type of a hash stored as a listpack


def probe(*args: str, cwd: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )
    line = done.stderr.rstrip().splitlines()[-1] if done.stderr.strip() else ""
    assert line.startswith("PROBE "), done.stderr[-2000:]
    result: dict[str, Any] = json.loads(line.removeprefix("PROBE "))
    return result


def among(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == name or m.startswith(name + ".") for name in names))


def rule_modules() -> set[str]:
    return {cls.__module__ for cls in ALL_RULES}


def dump(path: Path, *keys: bytes, hashes: tuple[bytes, ...] = ()) -> Path:
    """A dump of string keys and small hashes, each with a TTL."""
    b = RdbBuilder(version=10).aux(b"redis-ver", b"7.0.15").aux(b"ctime", str(CTIME).encode()).select(0)
    for name in keys:
        b.string(name, b"v", expire_ms=(CTIME + 3600) * 1000)
    for name in hashes:
        b.blob(HASH_LISTPACK, name, listpack([b"status", b"queued"]), expire_ms=(CTIME + 3600) * 1000)
    path.write_bytes(b.build())
    return path


def app_dump(tmp_path: Path) -> Path:
    return dump(tmp_path / "app.rdb", *(b"user:profile:%d" % n for n in range(20)), b"Bad Key")


def test_a_json_scan_of_a_dump_loads_every_rule_and_nothing_it_does_not_write(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    found = probe(
        "scan",
        str(app_dump(tmp_path)),
        "--isolated",
        "--select",
        "ALL",
        "--format",
        "json",
        "--output",
        str(out),
        "--exit-zero",
        "--no-progress",
        cwd=tmp_path,
    )
    assert found["code"] == 0
    modules = found["modules"]
    assert among(modules, NOT_FOR_A_JSON_SCAN) == []
    assert rule_modules() <= set(modules)  # every rule registered, whatever the input can show
    assert {"rediscipline.render.json_output", "rediscipline.sources.rdb.parser"} <= set(modules)
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["run"]["rules_enabled"] > 0
    assert {(f["rule"], f.get("pattern")) for f in report["findings"]} >= {("KEY001", "Bad Key")}
    # only the few rows whose literal text (`:`, or none) these keys hold were tried, and compiled
    assert found["compiled"] < sum(1 for _ in LibraryCatalog().rows()) // 10
    assert found["gc"] is True


def test_a_text_scan_loads_rich_and_its_renderer_only(tmp_path: Path) -> None:
    found = probe("scan", str(app_dump(tmp_path)), "--isolated", "--format", "text", "--exit-zero", cwd=tmp_path)
    assert found["code"] == 0
    modules = found["modules"]
    assert {"rediscipline.render.text", "rich.console"} <= set(modules)
    assert among(modules, NOT_FOR_A_TEXT_SCAN) == []


def test_a_dump_of_library_keys_compiles_only_the_rows_its_keys_can_match(tmp_path: Path) -> None:
    rq_job = b"rq:job:f86f2e4a-c120-4a2e-bc16-cf668f2d9f06"
    path = dump(tmp_path / "rq.rdb", b"user:profile:1", hashes=(rq_job,))
    out = tmp_path / "report.json"
    found = probe(
        "scan", str(path), "--isolated", "--format", "json", "--output", str(out), "--exit-zero", cwd=tmp_path
    )
    assert found["code"] == 0
    rows = sum(1 for _ in LibraryCatalog().rows())
    assert 0 < found["compiled"] < rows
    patterns = json.loads(out.read_text(encoding="utf-8"))["patterns"]["items"]
    libraries = {row["pattern"]: (row["library"] or {}).get("family") for row in patterns}
    assert libraries == {"rq:job:*": "rq.job", "user:profile:*": None}


def test_a_check_of_one_file_loads_neither_pathspec_nor_the_dump_reader(tmp_path: Path) -> None:
    code = tmp_path / "app.py"
    code.write_text("import redis\nr = redis.Redis()\nr.set('user:profile:1', 'v')\n", encoding="utf-8")
    found = probe("check", str(code), "--isolated", "--exit-zero", cwd=tmp_path)
    assert found["code"] == 0
    modules = found["modules"]
    assert "rediscipline.sources.code.source" in modules
    assert among(modules, NOT_FOR_A_FILE_CHECK) == []


@pytest.mark.parametrize("name", list(RENDERERS))
def test_every_format_names_its_renderer(name: str) -> None:
    renderer = RENDERERS[name]
    assert renderer.__name__ == f"render_{name}"
    assert renderer.__module__.startswith("rediscipline.render.")


def test_the_formats_are_listed_without_importing_a_renderer() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from rediscipline.render import RENDERERS; print(list(RENDERERS));"
            "print(sorted(m for m in sys.modules if m.startswith('rediscipline.render.')))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.splitlines() == ["['text', 'json', 'sarif', 'github', 'html', 'markdown']", "[]"]
