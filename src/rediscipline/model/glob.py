"""Redis glob patterns (`*`, `?`, `[a-z]`, `[^x]`, `\\x`) compiled to one regex over bytes.

Used to match keys against declared namespaces and per-key ignores: one `match` call per key, however many
patterns are declared, returning the index of the most specific pattern that matches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def glob_to_regex(pattern: bytes) -> bytes:
    """Translate one Redis glob into regex source (anchored by the caller)."""
    out: list[bytes] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i : i + 1]
        if ch == b"*":
            out.append(b".*")
        elif ch == b"?":
            out.append(b".")
        elif ch == b"\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i : i + 1]))
        elif ch == b"[":
            end = pattern.find(b"]", i + 2 if pattern[i + 1 : i + 2] in (b"^", b"]") else i + 1)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = pattern[i + 1 : end]
                negate = body.startswith(b"^")
                if negate:
                    body = body[1:]
                escaped = re.escape(body).replace(b"\\-", b"-")
                out.append(b"[" + (b"^" if negate else b"") + escaped + b"]")
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return b"".join(out)


def specificity(pattern: str) -> tuple[int, int]:
    """More literal characters first, then fewer wildcards: `session:web:*` beats `session:*`."""
    wildcards = sum(pattern.count(c) for c in "*?[")
    return (len(pattern) - wildcards, -wildcards)


class GlobMatcher:
    """Match a name against many globs at once; `match` returns the index (in the given order) or None.

    Patterns are str; bytes that are not UTF-8 (a `--match` glob from the command line) arrive as surrogate
    escapes and become those bytes again, so a glob can name any key."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = tuple(patterns)
        order = sorted(range(len(patterns)), key=lambda i: specificity(patterns[i]), reverse=True)
        self._order = order
        if not patterns:
            self._regex = None
            return
        alternatives = b"|".join(
            b"(?P<g%d>%s)" % (index, glob_to_regex(patterns[index].encode("utf-8", "surrogateescape")))
            for index in order
        )
        self._regex = re.compile(b"(?:" + alternatives + b")\\Z", re.DOTALL)

    def match(self, name: bytes) -> int | None:
        if self._regex is None:
            return None
        found = self._regex.match(name)
        if found is None:
            return None
        group = found.lastgroup
        return int(group[1:]) if group else None
