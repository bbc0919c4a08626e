"""One finding per key-name fact in a file: the places in code that build one key pattern, folded.

A key template written at ten places of one file (a test key in ten asserts, a cache key built in each
method) breaks a naming rule once: renaming it is one change. The engine records name violations per place
(so a suppression comment silences one place), and `fold_key_sites` then turns the places left of each
(rule, sub-code, file, key pattern) into one finding at the first place, with the others as `related`
locations (the first `RELATED_LIMIT`; `count` says how many places in all) and a fingerprint of the fact,
not of a line (`engine.fingerprint.file_pattern_fingerprint`).

Findings about a call (commands, expiry, batches) are left one per place: each call is a change of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rediscipline.engine.fingerprint import file_pattern_fingerprint
from rediscipline.model.finding import Finding
from rediscipline.model.location import FILE_SOURCES

#: Most related locations one folded finding lists (its `count` keeps the whole number of places): with its
#: own location, the 1,000 locations per result GitHub code scanning accepts. Every place stays reported
#: in all but pathological files (the largest fact of the evaluation corpora had 458 places).
RELATED_LIMIT = 999

FactKey = tuple[str, str, str, str, bytes]  # rule id, code, source, path, pattern


def fact_key(finding: Finding) -> FactKey | None:
    """The fact a finding at a place in a file is one place of, or None for a finding that is its own fact
    (a call, a setting, a key pattern of a key list, a server or a dump)."""
    location = finding.location
    if finding.pattern is None or finding.subject is not None or location.path is None:
        return None
    if location.source not in FILE_SOURCES or location.line is None:
        return None
    return finding.rule_id, finding.code, location.source, location.path, finding.pattern


def _place(finding: Finding) -> tuple[int, int]:
    return finding.location.line or 0, finding.location.column or 0


def fold_key_sites(findings: Iterable[Finding]) -> list[Finding]:
    """`findings` with the places of each key-name fact folded into one finding (see the module docstring);
    the others unchanged. Order: each folded finding where its first place was, the rest as given."""
    places: dict[FactKey, list[Finding]] = {}
    out: list[Finding | FactKey] = []
    for finding in findings:
        key = fact_key(finding)
        if key is None:
            out.append(finding)
            continue
        same = places.get(key)
        if same is None:
            places[key] = [finding]
            out.append(key)
        else:
            same.append(finding)
    return [item if isinstance(item, Finding) else _fold(item, places[item]) for item in out]


def _fold(key: FactKey, same: list[Finding]) -> Finding:
    same.sort(key=_place)
    first = same[0]
    rule_id, code, source, path, pattern = key
    worst = max((f.worst for f in same if f.worst is not None), default=None)
    return replace(
        first,
        count=len(same),
        related=tuple(f.location for f in same[1 : RELATED_LIMIT + 1]),
        fingerprint=file_pattern_fingerprint(rule_id, code, source, path, pattern),
        worst=worst,
    )


__all__ = ["RELATED_LIMIT", "fact_key", "fold_key_sites"]
