"""Stable finding identity, shared by baselines, SARIF `partialFingerprints` and de-duplication.

A key finding is identified by what it is about (rule, sub-code, source kind, key pattern), never by a
count, an example or a line number, so the same problem keeps its fingerprint across runs: a pattern found
again on the next scan of the same kind of source (`live`, `rdb`, `keys`) matches its baseline entry, whichever
server or file it came from. A finding about a command or a server (no pattern) is identified by its subject
and evidence instead (`keys` seen in commandstats); one at a place in a file by `site_fingerprint`, and a key
pattern found at places in one file by `file_pattern_fingerprint`.
"""

from __future__ import annotations

import hashlib

from rediscipline.model.location import Location


def key_fingerprint(rule_id: str, code: str, source: str, pattern: bytes) -> str:
    digest = hashlib.blake2b(digest_size=10)
    for piece in (rule_id.encode(), code.encode(), source.encode(), pattern):
        digest.update(len(piece).to_bytes(4, "big"))
        digest.update(piece)
    return digest.hexdigest()


def site_fingerprint(rule_id: str, code: str, source: str, location: Location) -> str:
    """The identity of a finding at a place in a file: rule, sub-code, path and the place's `context`.

    The source puts in `context` what identifies the place without its line number (the enclosing function
    and the statement's normalised text), so adding or removing lines above a finding keeps its fingerprint
    and a baseline still matches it. Without a context the line number stands in. The engine numbers
    repeated fingerprints in file order (`….2`), so two identical statements in one function stay distinct.
    """
    where = location.context if location.context is not None else f"line {location.line}"
    return key_fingerprint(rule_id, code, source, f"{location.path}\0{where}".encode("utf-8", "surrogateescape"))


def file_pattern_fingerprint(rule_id: str, code: str, source: str, path: str, pattern: bytes) -> str:
    """The identity of a key-name fact in one file: rule, sub-code, path and key pattern, with no line or
    statement, so a baseline entry holds while the places that build the key move, multiply or shrink."""
    return key_fingerprint(rule_id, code, source, path.encode("utf-8", "surrogateescape") + b"\0" + pattern)
