"""Bad input ends in one clear line on stderr and exit code 2 (or is linted, for odd but valid keys)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import Run


def _one_error_line(stderr: bytes) -> str:
    text = stderr.decode()
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got: {text!r}"
    assert "Traceback" not in text
    return lines[0]


def test_missing_file(run: Run) -> None:
    result = run("keys", "nope.txt")
    assert result.returncode == 2
    assert _one_error_line(result.stderr) == "rediscipline: error: cannot read nope.txt: No such file or directory"


def test_directory_instead_of_file(run: Run, tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    result = run("keys", "folder")
    assert result.returncode == 2
    assert "folder is a directory" in result.stderr.decode()
    assert "Traceback" not in result.stderr.decode()


def test_empty_file_is_clean_with_a_note(run: Run, tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    result = run("keys", "empty.txt", "--format", "json", "--select", "KEY")  # every rule can run on key lists
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["summary"]["keys"] == 0
    assert report["notes"] == ["no keys were read from the input"]


def test_invalid_utf8_is_linted_as_bytes(run: Run, tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes(b"user:profile:id:1\nuser:\xff\xfename:1\n")
    result = run("keys", "keys.txt", "--format", "json", "--select", "KEY002")
    assert result.returncode == 1, result.stderr
    finding = json.loads(result.stdout)["findings"][0]
    assert finding["code"] == "invalid-utf8"
    assert finding["examples"][0]["key"] == "user:\\xff\\xfename:1"
    assert finding["examples"][0]["key_b64"] == "dXNlcjr//m5hbWU6MQ=="
    assert finding["examples"][0]["line"] == 2


def test_one_megabyte_key(run: Run, tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(b"blob:" + b"a" * (1 << 20) + b"\n")
    result = run("keys", "big.txt", "--select", "key-length")
    assert result.returncode == 1
    out = result.stdout.decode()
    assert f"key name is {(1 << 20) + 5} bytes, above the 128-byte limit" in out
    assert len(out) < 5000, "a 1 MB key must be shown truncated"


def test_unknown_rule_in_select(run: Run) -> None:
    result = run("keys", "-", "--select", "KEY999", stdin=b"a:b\n")
    assert result.returncode == 2
    line = _one_error_line(result.stderr)
    assert "unknown rule selector 'KEY999'" in line


def test_config_unknown_key(run: Run, tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text('preset = "default"\nfial-on = "error"\n')
    result = run("keys", "-", stdin=b"a:b\n")
    assert result.returncode == 2
    line = _one_error_line(result.stderr)
    assert line.startswith(f"rediscipline: error: {tmp_path / 'rediscipline.toml'}: unknown key 'fial-on' (allowed: ")
    assert "fail-on" in line


def test_config_bad_option_value(run: Run, tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text('[rules.key-length]\nerror-bytes = "long"\n')
    result = run("keys", "-", stdin=b"a:b\n")
    assert result.returncode == 2
    line = _one_error_line(result.stderr)
    assert "rediscipline.toml: rules.key-length: option 'error-bytes': expected an integer, got 'long'" in line


def test_config_bad_severity_names_allowed_values(run: Run, tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text('[rules.KEY005]\nseverity = "fatal"\n')
    result = run("keys", "-", stdin=b"a:b\n")
    assert result.returncode == 2
    assert "allowed: note, warning, error" in _one_error_line(result.stderr)


def test_config_invalid_toml(run: Run, tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text("select = [\n")
    result = run("keys", "-", stdin=b"a:b\n")
    assert result.returncode == 2
    assert "rediscipline.toml: invalid TOML" in _one_error_line(result.stderr)


def test_preset_that_extends_itself(run: Run, tmp_path: Path) -> None:
    (tmp_path / "loop.toml").write_text('extends = "./loop2.toml"\n')
    (tmp_path / "loop2.toml").write_text('extends = "./loop.toml"\n')
    result = run("keys", "-", "--preset", "./loop.toml", stdin=b"a:b\n")
    assert result.returncode == 2
    assert "extends itself: ./loop.toml → ./loop2.toml → ./loop.toml" in _one_error_line(result.stderr)


def test_unknown_preset(run: Run) -> None:
    result = run("keys", "-", "--preset", "nosuch", stdin=b"a:b\n")
    assert result.returncode == 2
    assert "unknown preset 'nosuch' (available: " in _one_error_line(result.stderr)


def test_bad_jsonl_line(run: Run) -> None:
    result = run("keys", "-", "--input-format", "jsonl", stdin=b'"a:b"\n{oops\n')
    assert result.returncode == 2
    assert _one_error_line(result.stderr).startswith("rediscipline: error: -:2: invalid JSON")
