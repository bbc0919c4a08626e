"""`--format html` from the command line: one file written whole, or nothing and one line."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import Run


def test_keys_writes_one_self_contained_page(run: Run, tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes(b"User:1\nuser:2\n<script>alert(1)</script>:3\n")
    result = run("keys", "keys.txt", "--format", "html", "--output", "out.html", "--isolated", "--lang", "zh")
    assert result.returncode == 1, result.stderr  # findings at or above fail-on
    assert result.stdout == b"" and result.stderr == b""
    page = (tmp_path / "out.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>\n<html lang=\"zh-CN\">")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;:3" in page
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_a_missing_folder_is_one_line_and_nothing_is_written(run: Run, tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes(b"user:1\n")
    result = run("keys", "keys.txt", "--format", "html", "--output", "no/such/out.html", "--isolated")
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        "rediscipline: error: --output: no/such/out.html: the folder no/such does not exist"
    ]
    assert not (tmp_path / "no").exists()


def test_a_failed_run_keeps_the_page_that_was_there(run: Run, tmp_path: Path) -> None:
    (tmp_path / "out.html").write_text("yesterday's report", encoding="utf-8")
    result = run("keys", "missing.txt", "--format", "html", "--output", "out.html", "--isolated")
    assert result.returncode == 2
    assert len(result.stderr.decode().splitlines()) == 1
    assert (tmp_path / "out.html").read_text(encoding="utf-8") == "yesterday's report"
