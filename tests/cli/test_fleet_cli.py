"""`rediscipline fleet INVENTORY.toml` and `rediscipline scan URL URL...` on real servers and dumps: one fleet
report, worst first, a target that cannot be read as a row with its error, and the exit codes over all."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.conftest import cli_env
from tests.render.gfm import render
from tests.render.html.page_parts import parse as parse_html
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess, refused_port, start_server


@pytest.fixture(scope="module")
def servers() -> Iterator[list[ServerProcess]]:
    require_kind("redis70")
    started = [start_server("redis70") for _ in range(2)]
    try:
        for index, server in enumerate(started):
            pipe = server.client().pipeline(transaction=False)
            for key in range(200 * (index + 1)):
                pipe.set(b"order:%d:status" % key, b"paid", ex=18_000 + key)
            pipe.set(b"BigBlob", b"z" * 50_000)  # upper case, big, no TTL
            pipe.execute()
        yield started
    finally:
        for server in started:
            server.stop()


def _run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rediscipline", *args, "--isolated"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=cli_env(env),
        timeout=300,
        check=False,
    )


def _inventory(tmp_path: Path, servers: list[ServerProcess], *, down: bool) -> Path:
    lines = ['[defaults]\ntags = { env = "test" }\n']
    for index, server in enumerate(servers):
        lines.append(f'[[target]]\nname = "cache-{index}"\nurl = "{server.url}"\ntags = {{ team = "t{index}" }}\n')
    if down:
        lines.append(f'[[target]]\nname = "gone"\nurl = "redis://127.0.0.1:{refused_port()}"\ntimeout = 1\n')
    path = tmp_path / "fleet.toml"
    path.write_text("\n".join(lines))
    return path


def test_fleet_writes_one_report_worst_first_and_fails_on_findings(
    servers: list[ServerProcess], tmp_path: Path
) -> None:
    inventory = _inventory(tmp_path, servers, down=False)
    result = _run("fleet", str(inventory), "--format", "json", "--executor", "inline", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["schema"] == "rediscipline.fleet"
    # worst first: both have an error, the same score and as many findings, so by name
    assert [(t["name"], t["tags"], t["keys"]) for t in data["targets"]] == [
        ("cache-0", {"env": "test", "team": "t0"}, 201),
        ("cache-1", {"env": "test", "team": "t1"}, 401),
    ]
    assert data["targets"][0]["score"] == data["targets"][1]["score"]
    assert data["summary"] == {
        "targets": 2,
        "failed": 0,
        "by_severity": data["summary"]["by_severity"],
        "max_severity": "error",
    }
    for target in data["targets"]:
        rules = {f["rule"] for f in target["report"]["findings"]}
        assert {"VAL001", "TTL001"} <= rules
        assert any(rule.startswith("KEY") for rule in rules)
    text = _run("fleet", str(inventory), "--executor", "inline", cwd=tmp_path)
    assert text.returncode == 1
    assert "Fleet: 2 targets, 0 not read" in text.stdout
    assert text.stdout.index("cache-0") < text.stdout.index("cache-1")


def test_a_target_that_cannot_be_read_is_a_row_and_exit_2(servers: list[ServerProcess], tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, servers, down=True)
    output = tmp_path / "fleet.json"
    result = _run("fleet", str(inventory), "--format", "json", "--output", str(output), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "rediscipline: error: 1 of 3 targets could not be read (their rows in the report say why)\n"
    )
    data = json.loads(output.read_text())
    first = data["targets"][0]
    assert (first["name"], first["status"], first["report"]) == ("gone", "error", None)
    assert first["error"].startswith("cannot connect to redis://127.0.0.1:")
    assert [t["status"] for t in data["targets"][1:]] == ["ok", "ok"]


def test_a_fleet_in_markdown_names_what_it_could_not_read_first(servers: list[ServerProcess], tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, servers, down=True)
    data = json.loads(_run("fleet", str(inventory), "--format", "json", "--executor", "inline", cwd=tmp_path).stdout)
    result = _run("fleet", str(inventory), "--format", "markdown", "--executor", "inline", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    assert lines[:5] == ["### Fleet\\: 3 targets, 1 not read", "", "> [!WARNING]", "> **Targets not read**", ">"]
    page = render(result.stdout)
    assert page.foreign == set() and page.github_links == []
    error = data["targets"][0]["error"]
    assert page.text().splitlines()[2:6] == ["[!WARNING]", "Targets not read", "", f"gone: {error}"]
    (table,) = page.tables
    assert [cell.text for cell in table[0]] == [
        "target", "tags", "status", "score", "keys", "memory", "error", "warning", "note"
    ]  # fmt: skip
    rows = [[cell.text for cell in row] for row in table[1:]]
    assert [row[:5] for row in rows] == [
        ["gone", "env=test", "not read", "–", "–"],
        *([t["name"], f"env=test, team={t['tags']['team']}", "read", str(t["score"]), f"{t['keys']:,}"]
          for t in data["targets"][1:]),
    ]  # fmt: skip
    counts = [[str(t["by_severity"].get(s, 0)) for s in ("error", "warning", "note")] for t in data["targets"][1:]]
    assert [row[6:] for row in rows[1:]] == counts


def test_a_fleet_in_html_ranks_targets_and_keeps_every_target_findings(
    servers: list[ServerProcess], tmp_path: Path
) -> None:
    inventory = _inventory(tmp_path, servers, down=True)
    data = json.loads(_run("fleet", str(inventory), "--format", "json", "--executor", "inline", cwd=tmp_path).stdout)
    result = _run("fleet", str(inventory), "--format", "html", "--executor", "inline", cwd=tmp_path)
    assert result.returncode == 2
    page = parse_html(result.stdout)
    rows = page.all("tr")[1:]  # the targets table, worst first as in the JSON report
    assert [row.attrs["data-target"] for row in rows] == ["0", "1", "2"]
    names = ["".join(e.text) for e in page.all("a") if (e.attrs.get("href") or "").startswith("#target-")]
    assert names == [target["name"] for target in data["targets"]]
    assert page.values("fleet-scores") == [target["score"] for target in data["targets"][1:]]
    shown = {e.attrs["id"]: e for e in page.all("section", **{"class": "target"})}
    assert set(shown) == {"target-1", "target-2"}  # the target not read has no findings
    rules = {finding["rule"] for target in data["targets"][1:] for finding in target["report"]["findings"]}
    assert {e.attrs["id"] for e in page.all("article", **{"class": "rule"})} == {f"rule-{rule}" for rule in rules}
    occurrences = page.all("li", **{"class": "occurrence"})
    assert len(occurrences) == sum(len(target["report"]["findings"]) for target in data["targets"][1:])


def test_several_urls_make_a_fleet(servers: list[ServerProcess], tmp_path: Path) -> None:
    urls = [server.url for server in servers]
    result = _run("scan", *urls, "--format", "json", "--concurrency", "2", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    names = [t["name"] for t in json.loads(result.stdout)["targets"]]
    assert sorted(names) == sorted(urls)
    sarif = _run("scan", *urls, "--format", "sarif", cwd=tmp_path)
    assert sarif.returncode == 2
    assert sarif.stderr.strip().endswith("several servers make a fleet report: --format text, json, html, markdown")


def test_an_unreachable_scheduler_is_one_line_and_nothing_is_written(
    servers: list[ServerProcess], tmp_path: Path
) -> None:
    inventory = _inventory(tmp_path, servers, down=False)
    output = tmp_path / "fleet.json"
    port = refused_port()
    result = _run(
        "fleet", str(inventory), "--format", "json", "--output", str(output), "--executor", f"dask://127.0.0.1:{port}",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"rediscipline: error: Dask scheduler tcp://127.0.0.1:{port} unreachable")
    assert not output.exists()


def test_a_password_variable_that_is_not_set_names_the_entry(tmp_path: Path) -> None:
    inventory = tmp_path / "fleet.toml"
    inventory.write_text('[[target]]\nname = "orders"\nurl = "redis://127.0.0.1:6379"\npassword-env = "NOPE_PW"\n')
    result = _run("fleet", str(inventory), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        f'rediscipline: error: {inventory}: [[target]] #1 "orders": password-env: the environment variable '
        "NOPE_PW is not set\n"
    )
