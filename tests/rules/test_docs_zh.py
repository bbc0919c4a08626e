"""Every rule's documentation has a Chinese translation that follows the English one.

The translation (src/rediscipline/rules/docs_zh/<ID>.md, `rules.translation`) has the same sections under the
fixed Chinese headings (`HEADINGS_ZH`), the same paragraphs and bullets, the same code blocks, every option
name and number of the English text, its citations, and no English sentence left; its first line records the
English text it translates, so a docstring changed without its translation fails here.
`RuleMeta.doc_in("zh")` serves it, with the `Overlaps` section of naming rules written in Chinese from their
overlap rows.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rediscipline.rules import default_registry
from rediscipline.rules.base import Rule, doc_sections
from rediscipline.rules.translation import FOLDER, HEADINGS_ZH, STAMP, english_stamp, read_translation

RULES = list(default_registry())
IDS = [cls.meta.id for cls in RULES]
_FENCED = re.compile(r"^```.*?^```$", re.M | re.S)
_INLINE = re.compile(r"`[^`\n]*`")
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: Five Latin words in a row, outside code: an English sentence (or most of one) left untranslated.
_ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'-]*(?:[ ,]+[A-Za-z][A-Za-z'-]*){4,}")
#: Names and phrases written in English in Chinese text too.
_KEPT_ENGLISH = ("CLUSTERDOWN Hash slot not served",)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _doc(cls: type[Rule[Any]]) -> str:
    return cls.meta.doc


def _doc_zh(cls: type[Rule[Any]]) -> str:
    return cls.meta.doc_in("zh")


def _lead(doc: str) -> str:
    return doc.split("\n## ", 1)[0].strip()


def _bullets(body: str) -> list[str]:
    return [line for line in body.splitlines() if line.startswith("- ")]


def _prose(body: str) -> str:
    return _FENCED.sub("", body)


def _paragraphs(body: str) -> int:
    """Blocks between blank lines, a code block counted as one."""
    return len(re.split(r"\n\s*\n", _FENCED.sub("```", body).strip()))


@pytest.mark.parametrize("cls", RULES, ids=IDS)
def test_every_rule_has_a_current_translation(cls: type[Rule[Any]]) -> None:
    rule_id = cls.meta.id
    found = read_translation(rule_id)
    path = f"src/rediscipline/rules/{FOLDER}/{rule_id}.md"
    assert found is not None, (
        f"{rule_id} has no Chinese documentation: write {path}, the translation of its docstring "
        "(CONTRIBUTING.md, Adding a rule)"
    )
    stamp = STAMP.format(english_stamp(cls.doc()))
    assert found[0] == english_stamp(cls.doc()), (
        f"{path} does not translate the current English documentation of {rule_id}: bring it up to date, then "
        f"make its first line {stamp}"
    )
    assert cls.meta.doc_in("zh") != cls.meta.doc


@pytest.mark.parametrize("cls", RULES, ids=IDS)
def test_sections_and_bullets_match(cls: type[Rule[Any]]) -> None:
    english, chinese = doc_sections(_doc(cls)), doc_sections(_doc_zh(cls))
    assert list(chinese) == [HEADINGS_ZH[name] for name in english], cls.meta.id
    lead = _lead(_doc_zh(cls))
    assert _CJK.search(lead), f"{cls.meta.id}: no translated first line"
    assert _paragraphs(lead) == _paragraphs(_lead(_doc(cls))), f"{cls.meta.id}: paragraphs before the sections"
    for name, body in english.items():
        zh = chinese[HEADINGS_ZH[name]]
        assert zh.strip(), f"{cls.meta.id}: section {HEADINGS_ZH[name]} is empty"
        assert len(_bullets(zh)) == len(_bullets(body)), f"{cls.meta.id}: bullets of {HEADINGS_ZH[name]}"
        assert _paragraphs(zh) == _paragraphs(body), f"{cls.meta.id}: paragraphs of {HEADINGS_ZH[name]}"


@pytest.mark.parametrize("cls", RULES, ids=IDS)
def test_code_blocks_are_the_english_ones(cls: type[Rule[Any]]) -> None:
    assert _FENCED.findall(_doc_zh(cls)) == _FENCED.findall(_doc(cls)), cls.meta.id


@pytest.mark.parametrize("cls", RULES, ids=IDS)
def test_options_name_what_the_english_names(cls: type[Rule[Any]]) -> None:
    english = doc_sections(_doc(cls))["Options"]
    chinese = doc_sections(_doc_zh(cls))[HEADINGS_ZH["Options"]]
    missing = set(_INLINE.findall(english)) - set(_INLINE.findall(chinese))
    assert not missing, f"{cls.meta.id}: the Chinese options section lacks {sorted(missing)}"


@pytest.mark.parametrize("cls", RULES, ids=IDS)
def test_numbers_and_citations_are_kept(cls: type[Rule[Any]]) -> None:
    english, chinese = doc_sections(_doc(cls)), doc_sections(_doc_zh(cls))
    for name, body in english.items():
        zh = _prose(chinese[HEADINGS_ZH[name]])
        missing = [n for n in _NUMBER.findall(_prose(body)) if n not in zh and n.replace(",", " ") not in zh]
        assert not missing, f"{cls.meta.id}: {HEADINGS_ZH[name]} lacks the numbers {missing}"
    cited = [re.match(r"- (\d{3} §[^\s:：]+)", bullet) for bullet in _bullets(english["Source"])]
    for match, bullet in zip(cited, _bullets(chinese[HEADINGS_ZH["Source"]]), strict=True):
        assert match is None or bullet.startswith(f"- {match.group(1)}"), f"{cls.meta.id}: {bullet}"


@pytest.mark.parametrize("cls", RULES, ids=IDS)
def test_no_english_prose_is_left(cls: type[Rule[Any]]) -> None:
    """Every prose line has Chinese in it, unless it only lists names; no English sentence is left in one."""
    for line in _prose(_doc_zh(cls)).splitlines():
        text = _INLINE.sub("", line)
        for kept in _KEPT_ENGLISH:
            text = text.replace(kept, "")
        if not text.strip() or line.startswith("#"):
            continue
        assert _CJK.search(text) or not re.search(r"[A-Za-z]{3}", text), f"{cls.meta.id}: English line {line!r}"
        left = _ENGLISH_RUN.search(text)
        assert left is None, f"{cls.meta.id}: English words left: {left.group(0)!r} in {line!r}"
