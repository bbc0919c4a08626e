"""The one error the RDB parser raises: what is wrong, in which file, at which byte."""

from __future__ import annotations

from rediscipline.sources.errors import SourceError


class RdbError(SourceError):
    """Malformed, truncated or unsupported RDB data.

    `offset` is the byte offset in the file where the bad record starts (or, for a checksum mismatch, where
    the checksum is). RDB opcodes carry no lengths, so nothing after an unknown byte can be trusted: the
    parser stops at the first error instead of guessing.
    """

    def __init__(self, message: str, offset: int, path: str | None = None) -> None:
        self.reason = message
        self.offset = offset
        self.path = path
        where = f"{path}: " if path else ""
        super().__init__(f"{where}{message} at byte offset {offset}")

    def in_file(self, path: str) -> RdbError:
        """The same error, naming the file it came from."""
        return RdbError(self.reason, self.offset, path)
