"""Compress large values before they are written, and read back compressed and plain values alike.

002 §规范三：使用高效序列化方法和压缩方法: XML and JSON take much memory, "使用压缩工具（例如snappy 或
gzip），把数据压缩后再写入Redis"; 000 §大文本 stores novels and articles compressed ("使用 Snappy 或 GZIP
压缩"); 003 §Value设计原则 — 3. 数据压缩 stores a product's 10 KB JSON gzip-compressed. A smaller value
takes less memory, less network and less of the server's time per read (000 §Value如何设计 gives 78,000 QPS
for 1 KB values and 42,000 for 100 KB).

`ValueCodec(algorithm, threshold=4096)`:
- `encode(value)` compresses a value of at least `threshold` bytes (4 KB by default, the size from which
  000 wants values kept out of MGET and pipelines, and VAL007 compressible-value's `min-bytes`) and prefixes
  it with an 8-byte header: `b"\\xffRZ"`, one byte naming the algorithm, and the original length (4 bytes,
  big-endian). A smaller value, or one that does not shrink, is written as it is.
- `decode(data)` reads the header and decompresses with the algorithm it names, whichever the codec was
  made with; data without the header (small values, values written before the codec was used, anything
  else) comes back unchanged, and so does data whose header does not hold up (a payload that does not
  decompress to the length announced). None (a missing key) stays None. 0xFF never starts UTF-8 text, JSON
  or protobuf, so plain values are not mistaken for encoded ones; a plain value that does start with the
  header's three bytes is written with a "stored" header, so it too reads back exactly.

Algorithms: "zlib" (the standard library, always there); "zstd" with the `zstandard` package; "snappy" with
`cramjam` (raw snappy, the format python-snappy's `compress` writes; python-snappy ≥ 0.7 installs cramjam).
`pip install 'rediscipline[compression]'` installs both. They are imported only when a codec uses them:
`available_algorithms()` says which can be imported; making a codec of, or decoding a value written with, an
algorithm whose package is missing raises CodecUnavailable, which names the package.
"""

from __future__ import annotations

import importlib
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import overload

#: Values from this size (bytes) on are compressed by default (VAL007 compressible-value's `min-bytes`).
THRESHOLD = 4096

MAGIC = b"\xffRZ"
_HEADER = struct.Struct(">3scI")  # magic, algorithm id, original length
HEADER_SIZE = _HEADER.size

_STORED = b"\x00"


class CodecUnavailable(RuntimeError):
    """An algorithm whose package is not installed was asked for (to make a codec, or to decode a value)."""


@dataclass(frozen=True)
class _Algorithm:
    name: str
    ident: bytes
    package: str  # the module to import, "" for the standard library
    install: str  # what to pip install


_ALGORITHMS = {
    "zlib": _Algorithm("zlib", b"\x01", "", ""),
    "zstd": _Algorithm("zstd", b"\x02", "zstandard", "zstandard"),
    "snappy": _Algorithm("snappy", b"\x03", "cramjam", "cramjam"),
}
_BY_IDENT = {algorithm.ident: algorithm for algorithm in _ALGORITHMS.values()}


def _installed(algorithm: _Algorithm) -> bool:
    """Whether the algorithm's package imports here (imported on the first call, never at import time)."""
    if not algorithm.package:
        return True
    try:
        importlib.import_module(algorithm.package)
    except ImportError:
        return False
    return True


def available_algorithms() -> tuple[str, ...]:
    """The algorithms whose package can be imported here ("zlib" always)."""
    return tuple(name for name, algorithm in _ALGORITHMS.items() if _installed(algorithm))


def _require(algorithm: _Algorithm) -> None:
    if not _installed(algorithm):
        raise CodecUnavailable(
            f"the {algorithm.name} codec needs the {algorithm.install!r} package: "
            f"pip install {algorithm.install} (or pip install 'rediscipline[compression]')"
        )


def _compressor(name: str, level: int | None) -> Callable[[bytes], bytes]:
    if name == "zlib":
        zlib_level = -1 if level is None else level
        return lambda data: zlib.compress(data, zlib_level)
    if name == "zstd":
        import zstandard

        compressor = zstandard.ZstdCompressor(level=3 if level is None else level)
        return compressor.compress
    import cramjam

    return lambda data: bytes(cramjam.snappy.compress_raw(data))


def _decompress(name: str, payload: bytes, length: int) -> bytes | None:
    """`payload` decompressed, or None when it is not a valid stream of `length` bytes."""
    if name == "zlib":
        inflater = zlib.decompressobj()
        try:
            out = inflater.decompress(payload, length + 1)
        except zlib.error:
            return None
        return out if inflater.eof and not inflater.unused_data else None
    if name == "zstd":
        import zstandard

        try:
            if zstandard.frame_content_size(payload) != length:  # checked before anything is allocated
                return None
            return zstandard.ZstdDecompressor().decompress(payload)
        except zstandard.ZstdError:
            return None
    import cramjam

    try:
        if cramjam.snappy.decompress_raw_len(payload) != length:
            return None
        return bytes(cramjam.snappy.decompress_raw(payload))
    except cramjam.DecompressionError:
        return None


class ValueCodec:
    """Compresses values of `threshold` bytes or more with `algorithm`; decodes any value (module's doc).

    `algorithm` is "zlib" (default), "zstd" or "snappy"; `level` the compression level (zlib 0–9, default
    6; zstd 1–22, default 3; snappy has none and refuses one). Raises CodecUnavailable at once when the
    algorithm's package is missing, ValueError for an unknown algorithm, a negative threshold or a level
    snappy cannot take.

    Serves 002 §规范三：使用高效序列化方法和压缩方法, 000 §大文本 and 003 §Value设计原则 — 3. 数据压缩.
    """

    def __init__(self, algorithm: str = "zlib", *, threshold: int = THRESHOLD, level: int | None = None) -> None:
        chosen = _ALGORITHMS.get(algorithm)
        if chosen is None:
            raise ValueError(f"unknown algorithm {algorithm!r}: one of {', '.join(_ALGORITHMS)}")
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be a whole number of bytes >= 0, not {threshold!r}")
        if algorithm == "snappy" and level is not None:
            raise ValueError("snappy has no compression level")
        _require(chosen)
        self.algorithm = algorithm
        self.threshold = threshold
        self._ident = chosen.ident
        self._compress = _compressor(algorithm, level)

    def encode(self, value: bytes | bytearray | memoryview) -> bytes:
        """The bytes to write for `value`: compressed with a header, or `value` itself (module's doc)."""
        if not isinstance(value, bytes | bytearray | memoryview):
            raise TypeError(f"ValueCodec encodes bytes, not {type(value).__name__}: encode text to bytes first")
        data = bytes(value)
        if len(data) >= self.threshold and data:
            packed = self._compress(data)
            if len(packed) + HEADER_SIZE < len(data):
                return _HEADER.pack(MAGIC, self._ident, len(data)) + packed
        if data.startswith(MAGIC):
            return _HEADER.pack(MAGIC, _STORED, len(data)) + data
        return data

    @overload
    def decode(self, data: None) -> None: ...
    @overload
    def decode(self, data: bytes | bytearray | memoryview) -> bytes: ...
    def decode(self, data: bytes | bytearray | memoryview | None) -> bytes | None:
        """The value `encode` was given, for data it wrote; any other data unchanged; None for None."""
        if data is None:
            return None
        raw = bytes(data)
        if len(raw) < HEADER_SIZE or not raw.startswith(MAGIC):
            return raw
        _magic, ident, length = _HEADER.unpack_from(raw)
        payload = raw[HEADER_SIZE:]
        if ident == _STORED:
            return payload if len(payload) == length else raw
        algorithm = _BY_IDENT.get(ident)
        if algorithm is None:
            return raw
        _require(algorithm)
        out = _decompress(algorithm.name, payload, length)
        return out if out is not None and len(out) == length else raw
