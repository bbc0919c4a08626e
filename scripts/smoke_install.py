"""Install rediscipline as a user gets it, and run the README's commands against that install.

    python scripts/smoke_install.py [--keep] [--python PYTHON]        (or: make smoke)

1. `python -m build` makes the sdist, then the wheel *from the sdist* (so the sdist holds all the wheel needs);
   the sdist's file list is checked too, and the wheel's: the compiled core (every `src/rediscipline/**/_*.pyx`
   of the checkout as an extension module, a platform wheel), no Cython or C sources.
2. A fresh virtualenv in a temporary folder gets the wheel alone, with its declared dependencies from the
   index and no dev extras: an undeclared runtime import fails here, whatever the development venv holds.
3. From an empty working folder (no convention file, not this checkout), each command runs through the
   installed `rediscipline` and its exit code and key output are asserted: `--version` (which names the
   compiled core), `--help`,
   `python -m rediscipline --help`, `rules`, `rule KEY005` (with a sentence from the packaged citation
   table, and in Chinese from the translations the wheel ships as package data), `keys` on
   examples/demo-keys.txt (text, JSON and the HTML page), `check` on examples/sample-project (exact
   findings), `scan` of a throwaway redis-server filled with a few keys, and
   `scan` of the dump that server writes with SAVE; the local process pool of `rediscipline.api.executors`,
   and the one line that asks for the `dask` extra when a Dask scheduler is named without it.
4. The sdist built again with no working C compiler (`CC=/bin/false`): one warning line, the pure-Python wheel,
   which installs and runs (`--version` says pure Python, `keys` gives the same report); with
   REDISCIPLINE_REQUIRE_COMPILED=1 that build fails instead.

The server (Debian's /usr/bin/redis-server, or the first `redis-server` on PATH) listens on a free loopback
port, saves nothing by itself, and is stopped by its PID. Exit code 0 when every step passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the core check beside this script, shared with cibuildwheel's test command

from scripts.check_core import core_problem, expected_modules  # noqa: E402

DEMO_KEYS = ROOT / "examples" / "demo-keys.txt"
SAMPLE_PROJECT = ROOT / "examples" / "sample-project"
COMMANDS = ("baseline", "check", "config", "diff", "fleet", "keys", "rule", "rules", "scan", "simulate", "traffic")

#: What `rediscipline check sample-project` finds: (file, line, column, rule) of a finding's location and of
#: its related places (one key pattern built at two places of a file is one finding with two places).
#: tests/cli/test_examples.py checks the same against the development install.
SAMPLE_PROJECT_FINDINGS = {
    ("shop/cache.py", 17, 5, "KEY006"),
    ("shop/cache.py", 17, 5, "TTL006"),
    ("shop/cache.py", 21, 12, "CMD005"),
    ("shop/cache.py", 21, 12, "KEY006"),
    ("shop/cache.py", 25, 16, "CMD001"),
}

#: The throwaway server's keys (db 0): 20 clean ones, and two that break a convention.
SERVER_KEYS_SCRIPT = """
import sys, redis
client = redis.Redis(port=int(sys.argv[1]))
for n in range(20):
    client.set(f"user:profile:{n}", "ann", ex=3600)
client.set("Session:abc123", "token", ex=600)
client.set("cache:page:home", "<html>")
client.save()
"""
SERVER_KEYS = 22
#: (rule, pattern) that both scans of that server must report.
SERVER_FINDINGS = {("KEY006", "Session:abc*"), ("TTL001", "cache:page:home")}


class SmokeFailure(Exception):
    """A step whose result is not what a user must get."""


@dataclass
class Smoke:
    """The temporary folder, the fresh virtualenv and the commands run so far."""

    base: Path
    python: str
    steps: list[tuple[str, float]] = field(default_factory=list)

    @property
    def venv(self) -> Path:
        return self.base / "venv"

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    @property
    def work(self) -> Path:
        return self.base / "work"

    def env(self) -> dict[str, str]:
        """The environment of a user's shell: nothing that points Python at this checkout or changes output."""
        drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "NO_COLOR", "REDIS_URL")
        env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("REDISCIPLINE_")}
        env["PATH"] = str(self.bin) + os.pathsep + env.get("PATH", "")
        return env

    def run(
        self,
        argv: Sequence[str],
        *,
        expect: int | None = 0,
        cwd: Path | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        env = {**self.env(), **(extra_env or {})}
        done = subprocess.run(
            list(argv), capture_output=True, text=True, cwd=cwd or self.work, env=env, timeout=600, check=False
        )
        if expect is not None and done.returncode != expect:
            raise SmokeFailure(
                f"`{' '.join(argv)}` exited with {done.returncode}, expected {expect}\n"
                f"--- stdout (end)\n{done.stdout[-2000:]}\n--- stderr (end)\n{done.stderr[-2000:]}"
            )
        return done

    def tool(self, *args: str, expect: int | None = 0) -> subprocess.CompletedProcess[str]:
        """The installed console script, as a user runs it."""
        return self.run([str(self.bin / "rediscipline"), *args], expect=expect)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        print(f"  {name} ...", end="", flush=True)
        started = time.perf_counter()
        try:
            yield
        except SmokeFailure:
            print(" FAILED", flush=True)
            raise
        seconds = time.perf_counter() - started
        self.steps.append((name, seconds))
        print(f" ok ({seconds:.1f} s)", flush=True)


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


# ---- build and install -----------------------------------------------------------------------------------------


def build(smoke: Smoke) -> tuple[Path, Path]:
    """The sdist, and the wheel `build` made from it (with the compiled core: no fallback warning)."""
    dist = smoke.base / "dist"
    done = smoke.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], cwd=ROOT)
    sdists, wheels = sorted(dist.glob("rediscipline-*.tar.gz")), sorted(dist.glob("rediscipline-*.whl"))
    expect(len(sdists) == 1 and len(wheels) == 1, f"expected one sdist and one wheel in {dist}: {os.listdir(dist)}")
    warnings = fallback_warnings(done)
    expect(not warnings, f"the wheel was built without its compiled core: {warnings}")
    return sdists[0], wheels[0]


def fallback_warnings(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The build hook's lines about a module it could not compile (hatch_build.CompileFailure.warning)."""
    return [line for line in (done.stdout + done.stderr).splitlines() if " not compiled (" in line]


def check_wheel(wheel: Path) -> None:
    """A platform wheel with every compiled module of the checkout, and no Cython or C sources; without any
    `.pyx` in the checkout, the pure-Python wheel."""
    modules = expected_modules()
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    sources = [name for name in names if name.endswith((".pyx", ".pxd", ".c"))]
    expect(not sources, f"{wheel.name} holds Cython or C sources: {sources}")
    if not modules:
        expect(wheel.name.endswith("-py3-none-any.whl"), f"{wheel.name}: no compiled module, yet not a pure wheel")
        return
    expect(not wheel.name.endswith("-any.whl"), f"{wheel.name} is a pure-Python wheel: the core was not compiled")
    for module in modules:
        stem = "rediscipline/" + module.replace(".", "/") + "."
        found = [name for name in names if name.startswith(stem) and name.endswith((".so", ".pyd"))]
        expect(len(found) == 1, f"{wheel.name} holds {found} for the compiled module rediscipline.{module}")


def check_sdist(sdist: Path) -> None:
    """The sdist holds the package, its data, the docs and the examples, and no build or venv debris."""
    with tarfile.open(sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    pyx = [f"src/rediscipline/{module.replace('.', '/')}.pyx" for module in expected_modules()]
    for needed in (
        "pyproject.toml",
        "hatch_build.py",
        *pyx,
        "README.md",
        "src/rediscipline/__init__.py",
        "src/rediscipline/cli/entry.py",
        "src/rediscipline/settings/presets/default.toml",
        "src/rediscipline/rules/citations.toml",
        "src/rediscipline/rules/docs_zh/KEY005.md",
        "examples/demo-keys.txt",
    ):
        expect(needed in names, f"{sdist.name} lacks {needed}")
    debris = [n for n in names if re.search(r"(^|/)(\.venv|__pycache__|\.git|dist|build)(/|$)", n)]
    expect(not debris, f"{sdist.name} holds build or environment debris: {debris[:5]}")
    generated = [n for n in names if n.startswith("src/") and n.endswith((".c", ".so", ".pyd", ".html"))]
    expect(not generated, f"{sdist.name} holds compiled or generated files: {generated[:5]}")


def install(smoke: Smoke, wheel: Path) -> None:
    """A bare virtualenv with the wheel and its declared dependencies only."""
    smoke.run([smoke.python, "-m", "venv", str(smoke.venv)], cwd=smoke.base)
    python = str(smoke.bin / "python")
    smoke.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)], cwd=smoke.base)
    listed = smoke.run([python, "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"])
    installed = {row["name"].lower() for row in json.loads(listed.stdout)}
    dev_only = installed & {
        "pytest",
        "hypothesis",
        "mypy",
        "ruff",
        "deptry",
        "import-linter",
        "build",
        "jsonschema",
        "cmarkgfm",
    }
    expect(not dev_only, f"the bare virtualenv holds dev packages: {sorted(dev_only)}")
    extras = installed & {"dask", "distributed"}
    expect(not extras, f"the bare virtualenv holds the optional dask extra: {sorted(extras)}")


# ---- the README's commands ---------------------------------------------------------------------------------------


def check_version(smoke: Smoke, wheel: Path, core: str = "compiled") -> None:
    """`--version`: the version line, then the core line (`core` "compiled", unless the checkout has nothing to
    compile, or "pure")."""
    version = wheel.name.split("-")[1]
    out = smoke.tool("--version").stdout
    pattern = (
        rf"rediscipline {re.escape(version)} \(Python \d+\.\d+\.\d+\S*, redis-py \d\S*, hiredis \d\S*\)\ncore: .+\n"
    )
    expect(re.fullmatch(pattern, out) is not None, f"--version printed {out!r}")
    modules = expected_modules()
    problem = core_problem(core if modules else "pure", out, modules)
    expect(problem is None, f"--version: {problem}")
    module = smoke.run([str(smoke.bin / "python"), "-m", "rediscipline", "--version"]).stdout
    expect(module == out, f"python -m rediscipline --version printed {module!r}, the script {out!r}")


def check_help(smoke: Smoke) -> None:
    out = smoke.tool("--help").stdout
    expect(out.startswith("Usage: rediscipline [OPTIONS] COMMAND [ARGS]..."), f"--help starts with {out[:80]!r}")
    listed = re.findall(r"^  (\w+) ", out.split("Commands:\n", 1)[-1], flags=re.MULTILINE)
    expect(tuple(listed) == COMMANDS, f"--help lists {listed}, expected {list(COMMANDS)}")
    module = smoke.run([str(smoke.bin / "python"), "-m", "rediscipline", "--help"]).stdout
    expect(module == out, "python -m rediscipline --help differs from rediscipline --help")
    error = smoke.tool("scan", "--batch", "0", expect=2)
    line = "rediscipline: error: --batch: 0 is not in the range 10<=x<=1000\n"
    expect(error.stderr == line, f"a usage error printed {error.stderr!r}")


def check_rules(smoke: Smoke) -> None:
    table = smoke.tool("rules").stdout
    expect(re.search(r"^KEY005 +key-length ", table, flags=re.MULTILINE) is not None, "`rules` lacks KEY005")
    rules = json.loads(smoke.tool("rules", "--format", "json").stdout)
    expect(len(rules) >= 50 and any(rule["id"] == "KEY005" for rule in rules), f"`rules` lists {len(rules)} rules")
    page = smoke.tool("rule", "KEY005").stdout
    expect(page.startswith("# KEY005 key-length: "), f"`rule KEY005` starts with {page[:60]!r}")
    expect("## Option reference" in page, "`rule KEY005` has no option reference")
    page_zh = smoke.tool("rule", "KEY005", "--lang", "zh").stdout
    title = "# KEY005 key-length：键名过长\n"
    expect(page_zh.startswith(title), f"`rule KEY005 --lang zh` starts with {page_zh[:60]!r}")
    translated = "\n## 检查什么\n按字节" in page_zh
    expect(translated, "`rule KEY005 --lang zh` lacks its translation (src/rediscipline/rules/docs_zh)")
    # the cited sentences come from the package's data file, which the wheel must hold
    quote = "  - “建议控制在 30 个字节内，尽可能不超过 128 字节，"
    expect(quote in page_zh, "`rule KEY005 --lang zh` lacks its quote")


def check_keys(smoke: Smoke) -> None:
    keys = sum(1 for line in DEMO_KEYS.read_bytes().splitlines() if line.strip())
    report = json.loads(smoke.tool("keys", str(DEMO_KEYS), "--format", "json", "--isolated", expect=1).stdout)
    expect(report["summary"]["keys"] == keys, f"`keys` read {report['summary']['keys']} keys of {keys}")
    rules = {finding["rule"] for finding in report["findings"]}
    expect(bool(rules) and all(rule.startswith("KEY") for rule in rules), f"`keys` found {sorted(rules)}")
    text = smoke.tool("keys", str(DEMO_KEYS), "--isolated", expect=1).stdout
    expect(text.startswith("rediscipline ") and " · keys · " in text.splitlines()[0], f"`keys` printed {text[:80]!r}")
    # the HTML page's templates, style and script are package data the wheel must hold
    page = smoke.tool("keys", str(DEMO_KEYS), "--format", "html", "--isolated", "--lang", "zh", expect=1).stdout
    expect(page.startswith('<!DOCTYPE html>\n<html lang="zh-CN">'), f"`--format html` printed {page[:80]!r}")
    parts = "script-src &#39;sha256-" in page and 'data-chart="keys-by-namespace"' in page
    expect(parts, "the HTML page lacks its policy or its chart")
    expect("<h4>检查什么</h4>" in page, "the HTML page lacks the rules' Chinese documentation")


def check_simulate(smoke: Smoke) -> None:
    """Both simulators from the wheel: a small text trace replayed (the compiled replay where the wheel has it),
    and a dump's TTLs followed (the dump written here by the project's own test writer)."""
    from tests.support.rdbwriter import RdbBuilder

    trace = smoke.work / "accesses.txt"
    trace.write_text("".join(f"{index * 10} user:{index % 50} 100\n" for index in range(2_000)))
    done = smoke.tool("simulate", "eviction", str(trace), "--maxmemory", "1000kb", "--format", "json", "--isolated")
    results = json.loads(done.stdout)["simulation"]["eviction"]["results"]
    policies = [result["policy"] for result in results]
    expect(policies == ["allkeys-lru", "allkeys-lfu", "allkeys-random"], f"`simulate eviction` replayed {policies}")
    expect(all(result["hits"] + result["misses"] == 2_000 for result in results), "a replay lost accesses")
    dump = smoke.work / "ttl.rdb"
    builder = RdbBuilder().aux(b"ctime", b"1795000000").select(0)
    for number in range(100):
        builder.string(b"session:%d" % number, b"v", expire_ms=1_795_000_005_000)
    dump.write_bytes(builder.build())
    done = smoke.tool(
        "simulate", "expiry", str(dump), "--seconds", "30", "--step", "10", "--format", "json", "--isolated"
    )
    series = json.loads(done.stdout)["simulation"]["expiry"]["series"]
    expect(series[-1]["reclaimed"] == 100, f"`simulate expiry` ended with {series[-1]}")


def check_code(smoke: Smoke) -> None:
    project = smoke.work / "sample-project"
    shutil.copytree(SAMPLE_PROJECT, project)
    report = json.loads(smoke.tool("check", "sample-project", "--format", "json", expect=1).stdout)
    found = {
        (where["path"].removeprefix("sample-project/"), where["line"], where["column"], finding["rule"])
        for finding in report["findings"]
        for where in [finding["location"], *finding.get("related", [])]
    }
    expected = SAMPLE_PROJECT_FINDINGS
    expect(found == expected, f"`check` found {sorted(found)}, expected {sorted(expected)}")
    text = smoke.tool("check", "sample-project", expect=1).stdout
    line = "sample-project/shop/cache.py:25:16: CMD001 [error] KEYS scans the whole keyspace"
    expect(line in text, f"`check` printed {text[:300]!r}")


def check_pytest_plugin(smoke: Smoke) -> None:
    """The wheel declares the pytest plugin as pytest finds it: the `pytest11` entry point."""
    probe = "from importlib.metadata import entry_points; print([e.value for e in entry_points(group='pytest11')])"
    out = smoke.run([str(smoke.bin / "python"), "-c", probe]).stdout.strip()
    expect(out == "['rediscipline.pytest_plugin']", f"the pytest11 entry points of the install are {out}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def redis_server_binary() -> str:
    for candidate in ("/usr/bin/redis-server", shutil.which("redis-server")):
        if candidate and Path(candidate).exists():
            return candidate
    raise SmokeFailure("redis-server is not installed (Debian: apt-get install redis-server)")


@contextmanager
def throwaway_server(smoke: Smoke, name: str = "redis") -> Iterator[int]:
    """A redis-server on a free loopback port that saves only when told (into `<base>/<name>`); stopped by
    its PID."""
    folder = smoke.base / name
    folder.mkdir()
    port = free_port()
    command = [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    command += ["--dir", str(folder), "--daemonize", "no", "--logfile", str(folder / "server.log")]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            expect(process.poll() is None, f"redis-server exited with {process.returncode}")
            expect(time.monotonic() < deadline, "redis-server did not answer PING within 30 s")
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def check_scans(smoke: Smoke) -> None:
    with throwaway_server(smoke) as port:
        smoke.run([str(smoke.bin / "python"), "-c", SERVER_KEYS_SCRIPT, str(port)])  # redis-py of the bare venv
        url = f"redis://127.0.0.1:{port}"
        live_text = smoke.tool("scan", url, "--format", "json", expect=1).stdout
        live = json.loads(live_text)
        check_scan_report(live, "live scan")
        report = smoke.work / "live.json"
        report.write_text(live_text)
        same = smoke.tool("diff", str(report), str(report), "--isolated", expect=0).stdout
        expect("Findings: 0 new" in same, f"`diff` of a report with itself printed {same[:300]!r}")
        fleet = json.loads(smoke.tool("scan", url, url, "--format", "json", expect=1).stdout)  # a process pool
        statuses = [target["status"] for target in fleet["targets"]]
        expect(statuses == ["ok", "ok"], f"a fleet of two URLs read {statuses}")
        dump = smoke.base / "redis" / "dump.rdb"
        expect(dump.is_file(), f"SAVE wrote no {dump}")
        offline = json.loads(smoke.tool("scan", str(dump), "--format", "json", expect=1).stdout)
        check_scan_report(offline, "dump scan")
        expect(offline["server"]["address"] == str(dump), f"dump scan names {offline['server']['address']!r}")


#: A script the bare virtualenv runs: a guarded client breaks two rules, one refused before it is sent.
GUARD_SCRIPT = """
import io, json, sys
import redis
from rediscipline.guard import ConventionViolation, guard, guard_report
from rediscipline.render.json_output import render_json
r = guard(redis.Redis(port=int(sys.argv[1])), mode="raise", isolated=True)
r.set("smoke:guard:1", "v")
try:
    r.keys("*")
except ConventionViolation as refused:
    print("refused", refused.rule_id, refused.location.line)
out = io.StringIO()
render_json(guard_report(r), out)
print(out.getvalue())
"""


def check_guard(smoke: Smoke) -> None:
    with throwaway_server(smoke, "redis-guard") as port:
        done = smoke.run([str(smoke.bin / "python"), "-c", GUARD_SCRIPT, str(port)])
        first, _, document = done.stdout.partition("\n")
        expect(first == "refused CMD001 9", f"the guard did not refuse KEYS at line 9: {first!r}")
        found = {(f["rule"], f["location"]["line"]) for f in json.loads(document)["findings"]}
        expect(found == {("TTL006", 7), ("CMD001", 9)}, f"the guard's report holds {sorted(found)}")


def check_scan_report(report: dict[str, Any], what: str) -> None:
    expect(report["summary"]["keys"] == SERVER_KEYS, f"{what}: {report['summary']['keys']} keys, not {SERVER_KEYS}")
    found = {(f["rule"], f.get("pattern")) for f in report["findings"]}
    expect(found >= SERVER_FINDINGS, f"{what}: missing {sorted(SERVER_FINDINGS - found)} among {sorted(found)}")


#: Maps `abs` over three items in a local pool of two workers, then names a Dask scheduler without the extra.
EXECUTORS_SCRIPT = """
from rediscipline.api.executors import ExecutorError, executor_for
with executor_for("local", concurrency=2) as executor:
    print(sorted(executor.map_unordered(abs, [-1, -2, -3])))
try:
    executor_for("dask://127.0.0.1:8786", concurrency=2)
except ExecutorError as error:
    print(error)
"""


def check_executors(smoke: Smoke) -> None:
    out = smoke.run([str(smoke.bin / "python"), "-c", EXECUTORS_SCRIPT]).stdout
    expected = (
        "[(0, 1), (1, 2), (2, 3)]\ntcp://127.0.0.1:8786: Dask is not installed: pip install 'rediscipline[dask]'\n"
    )
    expect(out == expected, f"the executors printed {out!r}, expected {expected!r}")


# ---- without a C compiler ----------------------------------------------------------------------------------------


def check_pure_build(smoke: Smoke, sdist: Path) -> None:
    """The sdist built with no working C compiler: one warning line naming the module, the pure-Python wheel,
    which installs over the compiled one and runs; with REDISCIPLINE_REQUIRE_COMPILED=1 no wheel at all."""
    modules = expected_modules()
    command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(smoke.base / "dist-pure"), str(sdist)]
    done = smoke.run(command, cwd=smoke.base, extra_env={"CC": "/bin/false"})
    wheels = sorted((smoke.base / "dist-pure").glob("rediscipline-*.whl"))
    expect(len(wheels) == 1, f"the build without a compiler made {[wheel.name for wheel in wheels]}")
    wheel = wheels[0]
    expect(wheel.name.endswith("-py3-none-any.whl"), f"the build without a compiler made {wheel.name}")
    warnings = fallback_warnings(done)
    if modules:
        line = (
            f"rediscipline: rediscipline.{modules[0]} not compiled (the C compiler failed: /bin/false exited with "
            "status 1); the pure-Python code runs instead (set REDISCIPLINE_REQUIRE_COMPILED=1 to make this an error)"
        )
        expect(warnings == [line], f"the build without a compiler warned {warnings}, expected [{line!r}]")
    else:
        expect(warnings == [], f"nothing to compile, yet the build warned {warnings}")
    python = str(smoke.bin / "python")
    install = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--force-reinstall"]
    smoke.run([*install, "--no-deps", str(wheel)], cwd=smoke.base)
    check_version(smoke, wheel, core="pure")
    check_keys(smoke)
    if modules:
        env = {"CC": "/bin/false", "REDISCIPLINE_REQUIRE_COMPILED": "1"}
        command[command.index("--outdir") + 1] = str(smoke.base / "dist-required")
        refused = smoke.run(command, cwd=smoke.base, extra_env=env, expect=None)
        said = "REDISCIPLINE_REQUIRE_COMPILED is set: the compiled core is required" in refused.stderr
        expect(refused.returncode != 0 and said, f"REDISCIPLINE_REQUIRE_COMPILED=1 without a compiler: {refused}")


# ---- main --------------------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (printed) for inspection")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the fresh virtualenv")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="rediscipline-smoke-"))
    smoke = Smoke(base, args.python)
    smoke.work.mkdir()
    started = time.perf_counter()
    print(f"smoke test of the built wheel in {base}")
    try:
        with smoke.step("build the sdist, and the wheel from it"):
            sdist, wheel = build(smoke)
        with smoke.step(f"check {sdist.name}"):
            check_sdist(sdist)
        with smoke.step(f"check {wheel.name}: the compiled core"):
            check_wheel(wheel)
        with smoke.step(f"install {wheel.name} alone into a fresh virtualenv"):
            install(smoke, wheel)
        with smoke.step("rediscipline --version / python -m rediscipline --version: the compiled core"):
            check_version(smoke, wheel)
        with smoke.step("rediscipline --help / python -m rediscipline --help / a usage error"):
            check_help(smoke)
        with smoke.step("rediscipline rules / rule KEY005"):
            check_rules(smoke)
        with smoke.step("rediscipline keys examples/demo-keys.txt"):
            check_keys(smoke)
        with smoke.step("rediscipline simulate eviction / simulate expiry"):
            check_simulate(smoke)
        with smoke.step("rediscipline check examples/sample-project"):
            check_code(smoke)
        with smoke.step("the pytest plugin's entry point (pytest11)"):
            check_pytest_plugin(smoke)
        with smoke.step("rediscipline scan redis://…, diff, scan URL URL and scan dump.rdb (a throwaway redis-server)"):
            check_scans(smoke)
        with smoke.step("rediscipline.guard on a redis-py client (a throwaway redis-server)"):
            check_guard(smoke)
        with smoke.step("rediscipline.api.executors: a local pool, and Dask without the extra"):
            check_executors(smoke)
        with smoke.step("the sdist with no working C compiler (CC=/bin/false): the pure-Python wheel"):
            check_pure_build(smoke, sdist)
    except SmokeFailure as failure:
        print(f"smoke test FAILED: {failure}\n(files kept in {base})", file=sys.stderr, flush=True)
        print(f"smoke: {len(smoke.steps)} passed, 1 failed")
        return 1
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    print(f"smoke test of the built wheel passed in {time.perf_counter() - started:.1f} s")
    print(f"smoke: {len(smoke.steps)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
