"""Gitignore-style path globs for `per-file-ignores`, matched against paths relative to the project root.

* `*` matches within one path segment, `?` one character of a segment, `[abc]` / `[!abc]` a set;
* `**` matches any number of segments: `tests/**`, `**/migrations/*.py`;
* a glob without a `/` (other than a trailing one) matches at any depth, like `.gitignore`: `conftest.py`,
  `*_test.py`; with a `/` it is anchored at the root (a leading `/` or `./` is allowed and means the same);
* a glob that matches a folder matches everything under it: `scripts` and `scripts/` cover `scripts/a.py`.

Paths are compared with `/` separators; an absolute path under the root is made relative to it first.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath


def glob_regex(glob: str) -> str:
    """Regex source (for `fullmatch`) of one gitignore-style glob."""
    text = glob.replace("\\", "/").strip()
    while text.startswith("./"):
        text = text[2:]
    anchored = "/" in text.rstrip("/")
    text = text.strip("/")
    out: list[str] = [] if anchored else ["(?:.*/)?"]
    i, n = 0, len(text)
    while i < n:
        if text.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if text.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        ch = text[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            close = text.find("]", i + 2)
            if close == -1 or "/" in text[i:close]:
                out.append(re.escape(ch))
            else:
                body = text[i + 1 : close]
                negate = body[:1] in ("!", "^")
                body = body[1:] if negate else body
                out.append("[" + ("^/" if negate else "") + re.escape(body).replace("\\-", "-") + "]")
                i = close
        else:
            out.append(re.escape(ch))
        i += 1
    out.append("(?:/.*)?")
    return "".join(out)


def relative_path(path: str, root: str | None) -> str:
    """`path` with `/` separators, relative to `root` when it is an absolute path under it."""
    pure = PurePosixPath(path.replace("\\", "/"))
    if root is not None and pure.is_absolute():
        with contextlib.suppress(ValueError):
            pure = pure.relative_to(PurePosixPath(root.replace("\\", "/")))
    return pure.as_posix()


class PathIgnores:
    """The rule ids `per-file-ignores` drops for each path; memoised, since a file has many findings."""

    def __init__(self, file_ignores: Mapping[str, Iterable[str]], root: str | None = None) -> None:
        self.root = root
        self._globs = [(re.compile(glob_regex(glob), re.DOTALL), frozenset(ids)) for glob, ids in file_ignores.items()]
        self._memo: dict[str, frozenset[str]] = {}

    def __bool__(self) -> bool:
        return bool(self._globs)

    def ids(self, path: str) -> frozenset[str]:
        found = self._memo.get(path)
        if found is None:
            relative = relative_path(path, self.root)
            found = frozenset().union(*(ids for regex, ids in self._globs if regex.fullmatch(relative)))
            self._memo[path] = found
        return found


__all__ = ["PathIgnores", "glob_regex", "relative_path"]
