"""`rediscipline rule ID` and `rules --format json` show the sentence each source of a rule states.

Chinese shows the document's own words; English the translation, then the Chinese original.
"""

from __future__ import annotations

import json

from rediscipline.rules import default_registry
from tests.cli.conftest import Run

KEY001_ZH = """## Cited sentences
- 000 §Key 名字如何设计 — 命名
  - “不使用特殊字符， 比如空格、单引号、转义字符”
- 001 §1.1 命名规范
  - “不能使用的字符：空格、换行、单双引号以及其他转义字符”
- 003 §Key设计原则 — 4. 避免特殊字符
  - “避免使用: - 空格 - 中文 - 特殊符号(@#$%等)”

## Overlaps
"""


def test_rule_in_chinese_quotes_the_documents(run: Run) -> None:
    done = run("rule", "KEY001", "--lang", "zh")
    assert done.returncode == 0, done.stderr
    page = done.stdout.decode()
    assert KEY001_ZH in page
    assert page.index("## Source") < page.index("## Cited sentences") < page.index("## Overlaps")
    assert "Do not use special characters" not in page


def test_rule_in_english_gives_the_translation_and_the_original(run: Run) -> None:
    page = run("rule", "KEY001").stdout.decode()
    assert (
        "- 000 §Key 名字如何设计 — 命名\n"
        "  - “Do not use special characters, such as spaces, single quotes or escape characters.”\n"
        "  - original: “不使用特殊字符， 比如空格、单引号、转义字符”\n"
    ) in page


def test_rule_page_escapes_markdown_in_quotes(run: Run) -> None:
    """004's `<description>:date:<YYYYMMDD>` is text, not an HTML tag, on the page."""
    page = run("rule", "KEY017", "--lang", "zh").stdout.decode()
    assert "日期信息: \\<description\\>:date:\\<YYYYMMDD\\>" in page


def test_json_lists_the_citations_in_the_order_of_the_sources(run: Run) -> None:
    rule = json.loads(run("rule", "TTL001", "--format", "json").stdout)
    meta = default_registry().get("TTL001").meta
    assert [c["source"] for c in rule["citations"]] == rule["sources"] == list(meta.sources)
    assert rule["citations"][3] == {
        "source": "001 §过期时间",
        "sentence": {
            "en": "Strings should have an expiry, not concentrated at one time. … Big lists, hashes, sets and sorted "
            "sets are better without an expiry. … Hot keys are better without an expiry.",
            "zh": "string建议设置过期时间，不要集中过期。……list、hash、set、zset的bigkey建议不设置过期时间。……"
            "热点key建议不设置过期时间。",
        },
    }
    catalog = {r["id"]: r for r in json.loads(run("rules", "--format", "json").stdout)}
    assert catalog["TTL001"]["citations"] == rule["citations"]
    assert catalog["SUP001"]["citations"] == []
