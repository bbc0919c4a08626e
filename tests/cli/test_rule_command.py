"""`rediscipline rule ID --lang zh`: the rule's page in Chinese, as docs/rules/zh/ holds it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import Run

ROOT = Path(__file__).resolve().parents[2]


def test_rule_in_chinese_prints_the_translated_page(run: Run) -> None:
    done = run("rule", "TTL001", "--lang", "zh")
    assert done.returncode == 0, done.stderr
    page = done.stdout.decode()
    assert page == (ROOT / "docs" / "rules" / "zh" / "TTL001-missing-ttl.md").read_text(encoding="utf-8")
    assert page.startswith(
        "# TTL001 missing-ttl：Key 未设置过期时间\n\n- 类别：TTL（过期时间）\n- 默认严重级别：warning\n"
        "- 检查位置：在线实例、RDB 文件\n\n检查每个 Key 是否都设置了过期时间。\n\n## 检查什么\n"
        "报告 TTL 为 -1 的 Key，即永不过期的 Key。"
    )
    for heading in ("## 为什么有问题\n", "## 示例\n", "## 正确做法\n", "## 选项\n", "## 依据\n"):
        assert heading in page
    assert "| `required` | 布尔值 | `true` |\n" in page
    assert page.endswith(
        '\n在 `rediscipline.toml` 中配置：`[rules.missing-ttl]`（加上 `severity = "error"` 可覆盖默认严重级别）。\n'
    )
    assert "## What it does" not in page


def test_rule_in_english_is_unchanged_by_the_translation(run: Run) -> None:
    page = run("rule", "TTL001").stdout.decode()
    assert page == (ROOT / "docs" / "rules" / "TTL001-missing-ttl.md").read_text(encoding="utf-8")
    assert "## What it does\nReports keys whose TTL is -1" in page


def test_rule_json_carries_the_documentation_in_the_language_asked(run: Run) -> None:
    chinese = json.loads(run("rule", "KEY006", "--format", "json", "--lang", "zh").stdout)
    english = json.loads(run("rule", "KEY006", "--format", "json").stdout)
    assert chinese["doc"].startswith("报告键名中含大写字母的单词。\n\n## 检查什么\n")
    assert chinese["doc"].endswith("`date` 或 `ts` 之后不是日期或时间戳的值也可能含有大写字母：需要两处修改。")
    assert english["doc"].startswith("Reports words with upper-case letters in key names.\n\n## What it does\n")
    assert (chinese["title"], english["title"]) == ("键名包含大写字母", "Upper-case letters in a key name")
