"""GitHub annotations (`--format github`): the workflow-command syntax, GitHub's escaping, no `file` for
findings that have no place in source. Exact lines, since the runner parses them character by character."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rediscipline.render import RENDERERS
from rediscipline.render.github import annotation, escape_data, escape_property
from tests.render.site_reports import CWD, clean_check_report, code_report, config_report, live_report


def test_escaping_follows_the_runner() -> None:
    assert escape_data("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d"
    assert escape_property("100% a\r\nb: c, d") == "100%25 a%0D%0Ab%3A c%2C d"


def test_code_findings() -> None:
    report = code_report()
    lines = [annotation(f, report, "en", CWD) for f in report.findings]
    assert lines == [
        "::error file=/opt/vendor/redis_helpers.py,line=40,col=5,endLine=40,endColumn=19,title=CMD001 keys-command::"
        "KEYS scans the whole keyspace and blocks the server: use SCAN with MATCH and COUNT "
        "(scan_iter(match=…, count=…)) or keep the keys in a set",
        "::error file=src/app/cache.py,line=12,col=9,endLine=12,endColumn=33,title=CMD001 keys-command::"
        "KEYS scans the whole keyspace and blocks the server: use SCAN with MATCH and COUNT "
        "(scan_iter(match=…, count=…)) or keep the keys in a set",
        "::error file=tests/test_cache.py,line=9,col=5,endLine=9,endColumn=19,title=CMD001 keys-command::"
        "KEYS scans the whole keyspace and blocks the server: use SCAN with MATCH and COUNT "
        "(scan_iter(match=…, count=…)) or keep the keys in a set",
        # one key pattern built at three places of the file: one annotation that names the other two
        "::warning file=src/app/cache.py,line=30,col=17,endLine=30,endColumn=38,title=KEY006 uppercase::"
        "upper-case letters in the key name: `Profile` (→ `profile`); use lower case "
        "(and 2 more in this file (line 41, 57))",
        "::warning file=src/app/cart.py,line=7,col=12,endLine=8,endColumn=5,title=CMD005 full-scan-command::"
        "HGETALL reads the whole collection: O(N) on the server's only thread; read only what you need, "
        "or iterate with HSCAN",
        # the message's `%` and newline are escaped, its escape character is shown as text; the path's
        # undecodable byte is shown as \xff
        "::notice file=src/legacy dir/\\xffold.py,line=3,col=1,endLine=3,endColumn=20,title=KEY015 abbreviation::"
        "cryptic abbreviations `usr`, `prf`: 100%25 clearer\\nas user:profile \\x1b[31m",
    ]


def test_chinese_messages() -> None:
    report = code_report()
    line = annotation(report.findings[3], report, "zh", CWD)
    assert line == (
        "::warning file=src/app/cache.py,line=30,col=17,endLine=30,endColumn=38,title=KEY006 uppercase::"
        "键名包含大写字母：`Profile`（→ `profile`）；请使用小写 (本文件另有 2 处（第 41、57 行）)"
    )


def test_findings_without_a_file_have_no_file_property() -> None:
    report = live_report()
    lines = [annotation(f, report, "en", CWD) for f in report.findings]
    assert lines == [
        "::warning title=KEY002 non-ascii::redis://10.0.0.5:6379 db0 · bin:\\xff\\xfe:* (1,234): "
        "bytes that are not valid UTF-8 in the key name: `\\xff\\xfe` at offset 4",
        "::error title=CMD001 keys-command::redis://10.0.0.5:6379 db0: "
        "KEYS was called 2 times (INFO commandstats): use SCAN with MATCH and COUNT",
        "::warning title=KEY006 uppercase::backups/dump.rdb db2 · AID:*:player (12): "
        "upper-case letters in the key name: `AID` (→ `aid`); use lower case",
        "::notice title=KEY015 abbreviation::keys.txt · usr:* (1): cryptic abbreviations `usr`: spell the words out",
        "::notice title=KEY015 abbreviation::- · prf:* (1): cryptic abbreviations `prf`: spell the words out",
    ]


def test_config_findings() -> None:
    report = config_report()
    lines = [annotation(f, report, "en", CWD) for f in report.findings]
    assert [line.split("::")[1] for line in lines] == [
        "error file=deploy/redis.conf,line=4,title=CFG001 maxmemory",
        "warning file=deploy/redis.conf,title=CFG003 lazyfree",  # a default: the file, no line
        "error file=deploy/users.acl,line=1,col=1,title=SEC002 nopass-user",
    ]


def test_renderer_writes_one_line_per_finding(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    RENDERERS["github"](config_report(), out, "en", False)
    report = config_report()
    assert out.getvalue() == "".join(annotation(f, report, "en", str(tmp_path)) + "\n" for f in report.findings)
    assert out.getvalue().count("\n") == 3
    empty = io.StringIO()
    RENDERERS["github"](clean_check_report(), empty, "en", False)
    assert empty.getvalue() == ""
