"""Reading configuration files and finding the files they name, as the server would find them.

Redis opens an `include`d file or the `aclfile` by the path as written: an absolute path, or one relative
to its working directory at that moment. That is the directory it was started from until a `dir` line,
which changes directory on the spot, so an `include` after `dir /var/lib/redis` is looked up there. When
a file is audited away from its server (in a repository, in CI) that directory usually does not hold
the file, so a relative path is also looked up next to the file that names it, which is where a
repository keeps a `conf.d/` or a `users.acl`. The first that exists is used.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path

from rediscipline.sources.errors import SourceError

#: Largest configuration file read (a stock redis.conf is about 100 KB).
MAX_BYTES = 16 * 1024 * 1024
_GLOB_CHARS = frozenset("*?[")


def read_bytes(path: Path, shown: str) -> bytes:
    """The whole file, or a one-line SourceError naming it."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise SourceError(f"{shown}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_BYTES:
        raise SourceError(f"{shown}: larger than {MAX_BYTES // (1024 * 1024)} MB: not a configuration file")
    return data


@dataclass(frozen=True, slots=True)
class Named:
    """A file as it is opened (`path`) and as findings and messages show it (`shown`, often relative)."""

    path: str
    shown: str


@dataclass(frozen=True, slots=True)
class _Place:
    """A directory to look in, opened and shown; "" is the current directory."""

    path: str
    shown: str

    def join(self, written: str) -> Named:
        return Named(os.path.join(self.path, written), os.path.join(self.shown, written))

    def shown_for(self, match: str) -> str:
        return os.path.join(self.shown, os.path.relpath(match, self.path or "."))


def _places(written: str, workdir: str, naming: Named) -> list[_Place]:
    """Where `written` may be: itself when absolute, else under `workdir` ("" = the current directory),
    then next to the file that names it, when that is another place."""
    if os.path.isabs(written):
        return [_Place("", "")]
    places = [_Place(workdir, workdir)]
    beside = _Place(os.path.dirname(naming.path), os.path.dirname(naming.shown))
    if os.path.normpath(beside.join(written).path) != os.path.normpath(places[0].join(written).path):
        places.append(beside)
    return places


def find_file(written: str, workdir: str, naming: Named) -> Named | None:
    """The first existing file `written` can mean (see the module docstring), or None."""
    for place in _places(written, workdir, naming):
        found = place.join(written)
        if os.path.isfile(found.path):
            return found
    return None


def include_targets(written: str, workdir: str, naming: Named) -> list[Named] | None:
    """The files an `include` reads, in order: the glob's matches sorted (none is fine, as for the server,
    so that an empty `conf.d/` can be included), or the one file; None when a plain path is not found."""
    if not _GLOB_CHARS.intersection(written):
        found = find_file(written, workdir, naming)
        return None if found is None else [found]
    for place in _places(written, workdir, naming):
        matches = sorted(match for match in glob.glob(place.join(written).path) if os.path.isfile(match))
        if matches:
            absolute = os.path.isabs(written)
            return [Named(match, match if absolute else place.shown_for(match)) for match in matches]
    return []
