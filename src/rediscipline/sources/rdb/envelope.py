"""Valkey's whole-file compression envelope ("VCS", valkey PR #3531): an LZ4 frame around a plain RDB.

Layout: `VCS`, a version byte (1), a codec byte (1 = LZ4), a reserved zero byte, a stream-kind byte
(1 = RDB), then one standard LZ4 frame whose content is the complete RDB (magic through CRC-64). The frame
is decompressed in pieces into a temporary file, which is then memory-mapped like any dump, so a big file
never sits in memory whole. Offsets in errors then count bytes of the decompressed RDB.
"""

from __future__ import annotations

import mmap
import tempfile
from typing import IO

from rediscipline.sources.rdb.errors import RdbError

MAGIC = b"VCS"
_HEADER = 7
_CODEC_LZ4 = 1
_KIND_RDB = 1
_PIECE = 4 * 1024 * 1024


class Envelope:
    """The decompressed RDB of an enveloped file, memory-mapped from a temporary file."""

    def __init__(self, spool: IO[bytes]) -> None:
        self._spool = spool
        self.data = mmap.mmap(spool.fileno(), 0, access=mmap.ACCESS_READ)

    def close(self) -> None:
        self.data.close()
        self._spool.close()  # a TemporaryFile disappears when closed


def unwrap(buf: mmap.mmap, path: str) -> Envelope | None:
    """The inner RDB when `buf` is an enveloped file; None for a plain dump."""
    if buf[:3] != MAGIC:
        return None
    if len(buf) < _HEADER:
        raise RdbError("compressed-file header is truncated", 0, path)
    version, codec, _reserved, kind = buf[3], buf[4], buf[5], buf[6]
    if version != 1 or kind != _KIND_RDB:
        raise RdbError(f"unsupported compressed-file envelope (version {version}, stream kind {kind})", 3, path)
    if codec != _CODEC_LZ4:
        raise RdbError(f"unsupported envelope codec {codec} (only LZ4 is known)", 4, path)
    try:
        import lz4.frame
    except ImportError:
        raise RdbError("file is LZ4-compressed (Valkey rdbcompression lz4): pip install lz4", 0, path) from None
    decompressor = lz4.frame.LZ4FrameDecompressor()
    spool = tempfile.TemporaryFile(prefix="rediscipline-rdb-")  # noqa: SIM115 - owned by the Envelope
    pos = _HEADER
    try:
        while pos < len(buf) and not decompressor.eof:
            piece = buf[pos : pos + _PIECE]
            pos += len(piece)
            spool.write(decompressor.decompress(piece))
            while decompressor.needs_input is False and not decompressor.eof:
                spool.write(decompressor.decompress(b""))
        if not decompressor.eof:
            raise RdbError("LZ4 frame ends early (truncated file)", len(buf), path)
        spool.flush()
        if spool.tell() == 0:
            raise RdbError("LZ4 frame holds no data", _HEADER, path)
        return Envelope(spool)
    except RuntimeError as error:
        spool.close()
        raise RdbError(f"corrupt LZ4 frame: {error}", pos, path) from None
    except BaseException:
        spool.close()
        raise
