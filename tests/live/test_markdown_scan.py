"""`rediscipline scan URL --format markdown` on a real server: the summary and keyspace block say what the JSON
report of the same scan says, and a scan stopped part way says it is partial before anything else."""

from __future__ import annotations

import re
from pathlib import Path

from rediscipline.api import LiveScanOptions, scan_live, settings_for
from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, display_bytes, inert
from rediscipline.render.json_output import report_to_dict
from rediscipline.render.markdown import markdown_document
from rediscipline.render.numbers import share
from rediscipline.settings.loader import Overrides
from tests.live.conftest import scan_dataset
from tests.live.test_resilience import _when
from tests.render.gfm import render
from tests.support.dataset import Manifest, reset_idle
from tests.support.servers import ServerProcess


def test_summary_and_keyspace_say_what_the_json_report_says(redis70: ServerProcess, redis70_dataset: Manifest) -> None:
    with redis70.client() as client:
        reset_idle(client, redis70_dataset)
    report = scan_live(LiveScanOptions(redis70.url), settings_for(Overrides(isolated=True)), summary=True)
    data = report_to_dict(report)
    page = render(markdown_document(report, "en"))
    assert page.foreign == set() and page.github_links == []
    lines = page.text().splitlines()
    summary, keyspace = data["summary"], data["keyspace"]
    assert f"Keys: {summary['keys']:,} keys in {summary['patterns']:,} patterns" in lines
    assert f"Score: {summary['score']}/100 · {summary['keys_flagged']:,} keys with a warning or error" in lines
    line = lines[lines.index("Keyspace") + 1]
    assert line.startswith(f"{keyspace['keys']:,} keys · ")
    ttl = f"TTL coverage: {share(keyspace['ttl_coverage'])} of keys, {share(keyspace['memory_ttl_coverage'])} of memory"
    assert line.endswith(ttl)
    namespaces = next(table for table in page.tables if table[0][0].text == "namespace")
    shown = [(row[0].codes[0], row[1].text) for row in namespaces[1:]]
    expected = [(inert(n["namespace"], QUOTE_LIMIT), f"{n['keys']:,}") for n in keyspace["namespaces"][:5]]
    assert len(shown) == 5 and shown == expected
    findings = next(table for table in page.tables if table[0][0].text == "severity")
    assert [row[1].text.split()[0] for row in findings[1:]] == [f["rule"] for f in data["findings"][:50]]
    places = [row[2].codes[0] for row in findings[1:]]
    shown_as = [display_bytes(f.pattern, NAME_LIMIT) if f.pattern is not None else f.subject for f in report.findings]
    assert places == shown_as[:50]


def test_the_cli_writes_markdown(redis70: ServerProcess, redis70_dataset: Manifest, tmp_path: Path) -> None:
    result = scan_dataset(redis70, redis70_dataset, cwd=tmp_path, fmt="markdown")
    assert result.returncode == 1, result.describe()  # the seeded mistakes
    assert result.stderr == b""
    page = render(result.stdout.decode("utf-8"))
    assert page.foreign == set() and page.github_links == []
    total = re.search(r"^Findings: error \d+ · warning \d+ · note \d+ · ([\d,]+) findings", page.text(), re.MULTILINE)
    assert total is not None
    count = int(total.group(1).replace(",", ""))
    findings = next(table for table in page.tables if table[0][0].text == "severity")
    assert len(findings) == 1 + min(count, 50) and all(len(row) == 6 for row in findings)
    more = f"{count - 50:,} more findings: see the JSON report (--format json), which lists every one"
    assert (more in page.text()) == (count > 50)


def test_an_interrupted_scan_says_it_is_partial_first(redis70: ServerProcess, redis70_dataset: Manifest) -> None:
    def interrupt() -> None:
        raise KeyboardInterrupt

    options = LiveScanOptions(redis70.url, db=0, batch=20)
    report = scan_live(options, settings_for(Overrides(isolated=True)), progress=_when(1000, interrupt))
    server = report.stats.server
    assert server is not None and server.resume_cursor is not None
    lines = markdown_document(report, "en").splitlines()
    assert lines[:4] == [
        "### rediscipline scan",
        "",
        "> [!WARNING]",
        "> **PARTIAL\\: interrupted \\(see Notes\\)**",
    ]
    page = render("\n".join(lines))
    warning = page.text().split("Server:")[0]
    assert f"resume with: --resume {server.resume_cursor}" in warning
