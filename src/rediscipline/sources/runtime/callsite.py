"""The application's call site of a command: the first frame outside redis-py, its forks and rediscipline.

A finding at run time is reported where the application called the client (`orders/cart.py:42`), as `check`
reports a call in code. Frames are walked from the guard's hook outwards; whether a code object belongs to
a library is decided once per code object, and the location of a (code, line) pair is built once, so a
walk costs a few attribute reads per frame.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import CodeType, FrameType

from rediscipline.model.location import SOURCE_RUNTIME, Location

#: Packages whose frames are never the application's: the clients, the event loop, this package.
_LIBRARY_PACKAGES = ("redis", "valkey", "asyncio", "rediscipline")
_CACHE_LIMIT = 65_536
UNKNOWN = Location(SOURCE_RUNTIME, "<unknown>")


def _library_roots() -> tuple[str, ...]:
    roots: list[str] = []
    for name in _LIBRARY_PACKAGES:
        module = sys.modules.get(name)
        if module is None:
            try:
                module = __import__(name)
            except ImportError:
                continue
        for entry in getattr(module, "__path__", ()):
            roots.append(os.path.join(os.path.realpath(entry), ""))
    roots.append(os.path.join(os.path.dirname(os.path.realpath(__file__)), ""))
    return tuple(dict.fromkeys(roots))


class CallSites:
    """Finds and names call sites; `root` is the folder paths are shown relative to (default: the cwd)."""

    def __init__(self, root: Path | None = None) -> None:
        self._roots = _library_roots()
        self.root = os.path.realpath(root or Path.cwd())
        self._root = os.path.join(self.root, "")
        self._library: dict[CodeType, bool] = {}
        self._locations: dict[tuple[CodeType, int], Location] = {}

    def here(self) -> Location:
        """The application's call site of what is being judged: walking out from the caller, the first frame
        that is not library code (UNKNOWN when there is none: a command sent by a library thread of its own).
        The location of a (code, line) pair is built once."""
        frame: FrameType | None = sys._getframe(1)
        library = self._library
        while frame is not None:
            code = frame.f_code
            inside = library.get(code)
            if inside is None:
                inside = library[code] = self._is_library(code.co_filename)
            if not inside:
                break
            frame = frame.f_back
        if frame is None:
            return UNKNOWN
        key = (frame.f_code, frame.f_lineno)
        found = self._locations.get(key)
        if found is None:
            code = frame.f_code
            found = Location(
                SOURCE_RUNTIME,
                self._shown(code.co_filename),
                frame.f_lineno,
                context=getattr(code, "co_qualname", code.co_name),
            )
            if len(self._locations) >= _CACHE_LIMIT:
                self._locations.clear()
            self._locations[key] = found
        return found

    def _is_library(self, filename: str) -> bool:
        if filename.startswith("<"):
            return filename.startswith("<frozen")
        real = os.path.realpath(filename)
        return real.startswith(self._roots)

    def _shown(self, filename: str) -> str:
        if filename.startswith("<"):
            return filename
        real = os.path.realpath(filename)
        if real.startswith(self._root):
            return real[len(self._root) :]
        return real
