"""Compact blobs: listpack, ziplist, intset and zipmap, read from their headers or walked entry by entry.

A header gives the element count in O(1) (that is the skim path). Walking is for deep mode, for counts a
header cannot hold (a listpack of 65 535 or more entries stores 65 535 and must be walked), and for the TTLs
of a listpack-ex hash. Every read is bounds-checked: a blob that lies about its size raises BlobError, never
IndexError, and no walk allocates more than the blob itself.
"""

from __future__ import annotations

from collections.abc import Iterator

LISTPACK_HEADER = 6
ZIPLIST_HEADER = 10
UNKNOWN_COUNT = 0xFFFF


class BlobError(ValueError):
    """A compact blob whose header or entries do not add up."""


def _digits(value: int) -> int:
    """Bytes of an integer element as the server returns it (HSTRLEN of an int-encoded field)."""
    return len(str(value))


# -- listpack -----------------------------------------------------------------------------------------


def listpack_count(blob: bytes) -> int:
    if len(blob) < LISTPACK_HEADER + 1:
        raise BlobError("listpack shorter than its header")
    count = blob[4] | blob[5] << 8
    if count == UNKNOWN_COUNT:
        return sum(1 for _ in listpack_items(blob))
    return count


def listpack_items(blob: bytes) -> Iterator[bytes | int]:
    """Every entry of a listpack: bytes for strings, int for integers."""
    end = len(blob)
    if end < LISTPACK_HEADER + 1 or int.from_bytes(blob[0:4], "little") != end:
        raise BlobError("listpack total-bytes header differs from its length")
    pos = LISTPACK_HEADER
    while True:
        if pos >= end:
            raise BlobError("listpack without its end byte")
        b = blob[pos]
        if b == 0xFF:
            return
        if b < 0x80:  # 7-bit unsigned int
            value: bytes | int = b
            size = 1
        elif b < 0xC0:  # 6-bit string length
            n = b & 0x3F
            value = blob[pos + 1 : pos + 1 + n]
            size = 1 + n
        elif b < 0xE0:  # 13-bit signed int
            raw = ((b & 0x1F) << 8) | _at(blob, pos + 1)
            value = raw - 8192 if raw >= 4096 else raw
            size = 2
        elif b < 0xF0:  # 12-bit string length
            n = ((b & 0x0F) << 8) | _at(blob, pos + 1)
            value = blob[pos + 2 : pos + 2 + n]
            size = 2 + n
        elif b == 0xF0:  # 32-bit string length
            n = int.from_bytes(blob[pos + 1 : pos + 5], "little")
            value = blob[pos + 5 : pos + 5 + n]
            size = 5 + n
        else:
            width = _LP_INT_WIDTH.get(b)
            if width is None:
                raise BlobError(f"unknown listpack entry encoding 0x{b:02x}")
            value = int.from_bytes(blob[pos + 1 : pos + 1 + width], "little", signed=True)
            size = 1 + width
        if pos + size > end:
            raise BlobError("listpack entry runs past the blob")
        pos += size + _backlen_size(size)
        yield value


_LP_INT_WIDTH = {0xF1: 2, 0xF2: 3, 0xF3: 4, 0xF4: 8}


def _backlen_size(size: int) -> int:
    if size < 128:
        return 1
    if size < 16384:
        return 2
    if size < 2097152:
        return 3
    if size < 268435456:
        return 4
    return 5


def _at(blob: bytes, pos: int) -> int:
    if pos >= len(blob):
        raise BlobError("entry runs past the blob")
    return blob[pos]


# -- ziplist ------------------------------------------------------------------------------------------


def ziplist_count(blob: bytes) -> int:
    if len(blob) < ZIPLIST_HEADER + 1:
        raise BlobError("ziplist shorter than its header")
    count = blob[8] | blob[9] << 8
    if count == UNKNOWN_COUNT:
        return sum(1 for _ in ziplist_items(blob))
    return count


def ziplist_items(blob: bytes) -> Iterator[bytes | int]:
    end = len(blob)
    if end < ZIPLIST_HEADER + 1 or int.from_bytes(blob[0:4], "little") != end:
        raise BlobError("ziplist total-bytes header differs from its length")
    pos = ZIPLIST_HEADER
    while True:
        if pos >= end:
            raise BlobError("ziplist without its end byte")
        if blob[pos] == 0xFF:
            return
        pos += 5 if blob[pos] == 0xFE else 1  # previous entry length
        b = _at(blob, pos)
        kind = b >> 6
        value: bytes | int
        if kind == 0:
            n, pos = b & 0x3F, pos + 1
        elif kind == 1:
            n, pos = ((b & 0x3F) << 8) | _at(blob, pos + 1), pos + 2
        elif kind == 2:
            n, pos = int.from_bytes(blob[pos + 1 : pos + 5], "big"), pos + 5
        else:
            n = -1
            width = _ZL_INT_WIDTH.get(b)
            if width is not None:
                value = int.from_bytes(blob[pos + 1 : pos + 1 + width], "little", signed=True)
                pos += 1 + width
            elif 0xF1 <= b <= 0xFD:
                value, pos = (b & 0x0F) - 1, pos + 1
            else:
                raise BlobError(f"unknown ziplist entry encoding 0x{b:02x}")
        if n >= 0:
            value = blob[pos : pos + n]
            pos += n
        if pos > end:
            raise BlobError("ziplist entry runs past the blob")
        yield value


_ZL_INT_WIDTH = {0xC0: 2, 0xD0: 4, 0xE0: 8, 0xF0: 3, 0xFE: 1}


# -- intset -------------------------------------------------------------------------------------------


def intset_largest(blob: bytes) -> int:
    """Digits of the widest member: the set is sorted, so it is the first or the last one."""
    width, count = _intset_header(blob)
    if count == 0:
        return 0
    first = int.from_bytes(blob[8 : 8 + width], "little", signed=True)
    last = int.from_bytes(blob[8 + (count - 1) * width : 8 + count * width], "little", signed=True)
    return max(_digits(first), _digits(last))


def _intset_header(blob: bytes) -> tuple[int, int]:
    if len(blob) < 8:
        raise BlobError("intset shorter than its header")
    width = int.from_bytes(blob[0:4], "little")
    count = int.from_bytes(blob[4:8], "little")
    if width not in (2, 4, 8) or 8 + width * count != len(blob):
        raise BlobError("intset header does not match its length")
    return width, count


# -- zipmap (RDB ≤ 3 hashes) ---------------------------------------------------------------------------


def zipmap_count(blob: bytes) -> int:
    if not blob:
        raise BlobError("empty zipmap")
    if blob[0] < 254:
        return blob[0]
    return sum(1 for _ in zipmap_items(blob)) // 2


def zipmap_items(blob: bytes) -> Iterator[bytes]:
    end, pos, is_value = len(blob), 1, False
    while True:
        b = _at(blob, pos)
        if b == 0xFF:
            return
        if b == 0xFE:
            n, pos = int.from_bytes(blob[pos + 1 : pos + 5], "little"), pos + 5
        elif b < 0xFE:
            n, pos = b, pos + 1
        else:
            raise BlobError("bad zipmap length byte")
        free = 0
        if is_value:
            free = _at(blob, pos)
            pos += 1
        if pos + n + free > end:
            raise BlobError("zipmap entry runs past the blob")
        yield blob[pos : pos + n]
        pos += n + free
        is_value = not is_value


def largest(items: Iterator[bytes | int]) -> int:
    """Byte length of the largest element (integers count their decimal digits)."""
    best = 0
    for item in items:
        size = _digits(item) if isinstance(item, int) else len(item)
        best = max(best, size)
    return best
