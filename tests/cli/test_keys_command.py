"""`rediscipline keys`: formats, exit codes, --fail-on, --exit-zero, --output, --lang, config layering."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from tests.cli.conftest import Run

LONG = b"report:" + b"x" * 130 + b":1"


def test_exit_codes_follow_fail_on(run: Run) -> None:
    note_only = b"order:status:order_id_that_is_quite_long_really:98765\n"
    assert run("keys", "-", "--select", "KEY005", stdin=note_only).returncode == 0
    assert run("keys", "-", "--select", "KEY005", "--fail-on", "note", stdin=note_only).returncode == 1
    assert run("keys", "-", "--select", "KEY005", stdin=LONG + b"\n").returncode == 1
    assert run("keys", "-", "--select", "KEY005", "--exit-zero", stdin=LONG + b"\n").returncode == 0
    assert run("keys", "-", "--select", "KEY005", "--fail-on", "error", stdin=note_only).returncode == 0


def test_quoted_input_keeps_binary_keys(run: Run) -> None:
    quoted = b'"user:\\x00\\n:1"\nplain:key:1\n'
    result = run(
        "keys", "-", "--input-format", "redis-cli-quoted", "--format", "json", "--select", "KEY001", stdin=quoted
    )
    report = json.loads(result.stdout)
    assert report["summary"]["keys"] == 2
    example = report["findings"][0]["examples"][0]
    assert example["key"] == "user:\x00\n:1"


def test_jsonl_input_with_base64(run: Run) -> None:
    encoded = base64.b64encode(b"a\xffb:1").decode()
    lines = f'{{"key_b64": "{encoded}"}}\n{{"key": "user:1", "type": "hash"}}\n'.encode()
    result = run("keys", "-", "--input-format", "jsonl", "--format", "json", "--select", "KEY002", stdin=lines)
    report = json.loads(result.stdout)
    assert report["summary"]["keys"] == 2
    assert report["findings"][0]["examples"][0]["key_b64"] == encoded


def test_output_file_and_lang_zh(run: Run, tmp_path: Path) -> None:
    result = run("keys", "-", "--select", "KEY005", "--lang", "zh", "--output", "out.txt", stdin=LONG + b"\n")
    assert result.returncode == 1
    assert result.stdout == b""
    text = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert "键名过长" in text
    assert "键名 139 字节，超过 128 字节的限制" in text


def test_config_file_and_command_line_layering(run: Run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "svc"\n\n[tool.rediscipline]\nselect = ["KEY005"]\nfail-on = "note"\n'
        "[tool.rediscipline.rules.key-length]\nnote-bytes = 10\n"
    )
    key = b"order:status:1\n"
    assert run("keys", "-", stdin=key).returncode == 1
    assert run("keys", "-", "--fail-on", "warning", stdin=key).returncode == 0
    assert run("keys", "-", "--isolated", "--select", "KEY005", "--fail-on", "note", stdin=key).returncode == 0
    shown = run("config", "--show").stdout.decode()
    assert "rules.key-length.note-bytes" in shown and "pyproject.toml [tool.rediscipline]" in shown
    assert "fail-on" in shown


def test_per_key_ignores_and_namespace_policy(run: Run, tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text(
        'select = ["KEY005"]\n[per-key-ignores]\n"legacy:*" = ["key-length"]\n'
        '[namespaces."feed:*"]\nread-by-mget = true\n'
    )
    keys = b"legacy:" + b"y" * 200 + b"\nfeed:item:detail:123456789\n"
    report = json.loads(run("keys", "-", "--format", "json", stdin=keys).stdout)
    assert [(f["code"], f["pattern"], f["namespace"]) for f in report["findings"]] == [
        ("mget-too-long", "feed:item:detail:*", "feed:*")
    ]


def test_rules_and_rule_commands(run: Run) -> None:
    table = run("rules").stdout.decode()
    assert "KEY005" in table and "key-length" in table
    doc = run("rule", "KEY005").stdout.decode()
    for section in (
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## Use instead",
        "## Options",
        "## Source",
    ):
        assert section in doc
    assert run("rule", "key-length", "--format", "json").returncode == 0
    assert run("rule", "NOPE").returncode == 2
