"""The citation table (src/rediscipline/rules/citations.toml): every source of every rule has its sentence, the
table holds nothing no rule cites, and every Chinese quote is the document's own words.

The documents themselves are not part of the repository: the quote checks run where they are at hand
(/work/shared/conventions, or ../shared/conventions beside the checkout) and are skipped elsewhere.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from rediscipline.rules import default_registry
from rediscipline.rules.base import Rule
from rediscipline.rules.citations import OMISSION, Passage, citation_table, passage_for

ROOT = Path(__file__).resolve().parents[2]
RULES = list(default_registry())
CITING = [cls for cls in RULES if cls.meta.sources]
TABLE = citation_table()
#: Reference → the ids of the rules citing it.
CITED_BY: dict[str, set[str]] = defaultdict(set)
for _cls in RULES:
    for _source in _cls.meta.sources:
        CITED_BY[_source].add(_cls.meta.id)
#: Where the convention documents (`NNN_*.txt`) may be: the shared folder, or one beside the checkout.
PLACES = (Path("/work/shared/conventions"), ROOT.parent / "shared" / "conventions")
DOCUMENTS = next((folder for folder in PLACES if folder.is_dir()), None)
_REFERENCE = re.compile(r"(\d{3}) §(.+?)(?: — (.+))?")
_ESCAPED = re.compile(r"\\([\\`*_\[\]<>~|#])")


def comparable(text: str) -> str:
    """`text` without what may differ between a quote and its document: whitespace and Markdown markup
    (`**` emphasis, backticks, backslash escapes such as `2\\~6GB`)."""
    text = _ESCAPED.sub(r"\1", text.replace("**", "").replace("`", ""))
    return re.sub(r"\s+", "", text)


def heading_text(text: str) -> str:
    """A section name as comparable text, also without the punctuation references leave out or add
    (`1. 命名格式` is cited `1 命名格式`, `Value如何设计？` as `Value如何设计`)."""
    return re.sub(r"[.．:：？?]", "", comparable(text))


def _documents() -> dict[str, str]:
    if DOCUMENTS is None:
        pytest.skip("the convention documents are not here (/work/shared/conventions or ../shared/conventions)")
    found = {path.name[:3]: path.read_text(encoding="utf-8") for path in sorted(DOCUMENTS.glob("[0-9][0-9][0-9]_*"))}
    assert found, f"no NNN_*.txt document in {DOCUMENTS}"
    return found


@pytest.mark.parametrize("cls", CITING, ids=[c.meta.id for c in CITING])
def test_every_source_has_its_sentence(cls: type[Rule[Any]]) -> None:
    meta = cls.meta
    missing = [source for source in meta.sources if passage_for(meta.id, source) is None]
    assert not missing, f"{meta.id}: add the sentence of {missing} to src/rediscipline/rules/citations.toml"
    assert [c.source for c in meta.citations] == list(meta.sources)
    for citation in meta.citations:
        assert citation.text.en.strip() and citation.text.zh.strip(), f"{meta.id}: {citation.source}"
        assert citation.text == passage_for(meta.id, citation.source).text  # type: ignore[union-attr]


def test_the_table_holds_only_what_the_rules_cite() -> None:
    assert sorted(set(TABLE) - set(CITED_BY)) == [], "references no rule cites"
    for source, passages in TABLE.items():
        named = [rule_id for passage in passages for rule_id in sorted(passage.rules)]
        assert len(named) == len(set(named)), f"{source}: a rule is named by two passages"
        assert set(named) <= CITED_BY[source], f"{source}: names rules that do not cite it"
        defaults = [passage for passage in passages if not passage.rules]
        assert len(defaults) <= 1, f"{source}: more than one passage without `rules`"
        if defaults:
            assert CITED_BY[source] - set(named), f"{source}: its passage without `rules` is for no rule"


def test_passages_translate_every_piece() -> None:
    """An English passage leaves text out (` … `) where the Chinese one does (`……`)."""
    for source, passages in TABLE.items():
        for passage in passages:
            assert passage.text.zh.count(OMISSION) == passage.text.en.count("…"), f"{source}: {passage.text.en}"
            assert all(piece.strip() for piece in passage.text.zh.split(OMISSION)), f"{source}: an empty piece"


def test_the_table_is_read_once() -> None:
    """The rules are defined with it, and every later look-up is the parsed table itself."""
    assert citation_table.cache_info().misses == 1
    assert citation_table() is TABLE


def test_a_passage_without_rules_is_the_default() -> None:
    passages = TABLE["001 §1.1 命名规范"]
    named = next(p for p in passages if p.rules)
    default = next(p for p in passages if not p.rules)
    assert passage_for("KEY001", "001 §1.1 命名规范") == named == Passage(named.text, frozenset({"KEY001"}))
    assert passage_for("KEY006", "001 §1.1 命名规范") == default
    assert passage_for("KEY006", "999 §no such section") is None


@pytest.mark.parametrize("source", sorted(TABLE))
def test_quotes_are_verbatim(source: str) -> None:
    documents = _documents()
    number = source[:3]
    assert number in documents, f"{source}: no document {number}_*.txt in {DOCUMENTS}"
    text = comparable(documents[number])
    for passage in TABLE[source]:
        for piece in passage.text.zh.split(OMISSION):
            assert comparable(piece) in text, f"{source}: not in document {number}: {piece!r}"


@pytest.mark.parametrize("source", sorted(TABLE))
def test_references_name_sections_of_their_document(source: str) -> None:
    """`NNN §Section — subsection`: both names are in the document, the subsection after the section and
    the first quote after the subsection."""
    documents = _documents()
    match = _REFERENCE.fullmatch(source)
    assert match is not None, f"{source!r} is not `NNN §Section — subsection`"
    number, section, subsection = match.groups()
    text = heading_text(documents[number])
    at = text.find(heading_text(section))
    assert at >= 0, f"{source}: no section {section!r} in document {number}"
    if subsection is not None:
        at = text.find(heading_text(subsection), at)
        assert at >= 0, f"{source}: no {subsection!r} after {section!r} in document {number}"
    for passage in TABLE[source]:
        first_piece = heading_text(passage.text.zh.split(OMISSION)[0])
        assert text.find(first_piece, at) >= 0, f"{source}: {passage.text.zh!r} is not after its section's name"
