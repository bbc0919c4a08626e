"""Stable finding identity, shared by baselines, SARIF `partialFingerprints` and de-duplication.

A key finding is identified by what it is about (rule, sub-code, source kind, key pattern), never by a
count, an example or a line number, so the same problem keeps its fingerprint across runs.
"""

from __future__ import annotations

import hashlib


def key_fingerprint(rule_id: str, code: str, source: str, pattern: bytes) -> str:
    digest = hashlib.blake2b(digest_size=10)
    for piece in (rule_id.encode(), code.encode(), source.encode(), pattern):
        digest.update(len(piece).to_bytes(4, "big"))
        digest.update(piece)
    return digest.hexdigest()
