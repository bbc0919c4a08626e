"""LZF decompression (the format of `lzf_d.c`), whole or only as far as a prefix is needed.

The skim parser reads compact blobs from their first few bytes, so a compressed blob usually needs only its
first token decoded; `decompress(..., limit=n)` stops once `n` bytes are out. This loop decodes at about
30–60 MB/s; the compiled core's twin (`_walk.lzf_decompress`) runs instead when it is there.
"""

from __future__ import annotations

from rediscipline import compiled

#: The compiled module that holds the twin of `decompress` (the dump walk's, which decodes heads with it).
TWIN = "rediscipline.sources.rdb._walk"


class LzfError(ValueError):
    """The compressed data is not a valid LZF stream of the announced length."""


def decompress(data: bytes, size: int, limit: int | None = None) -> bytes:
    """Decode `data` that the RDB says inflates to `size` bytes; stop after `limit` bytes when given.

    Raises LzfError when a back-reference points before the start, the input ends early, or the output
    would overrun `size`; the output is never allowed to grow past `size`, whatever the input claims.
    """
    fast = compiled.load(TWIN)
    if fast is not None:
        result: bytes = fast.lzf_decompress(data, size, limit)
        return result
    want = size if limit is None else min(size, limit)
    out = bytearray()
    ip, end = 0, len(data)
    while len(out) < want:
        if ip >= end:
            raise LzfError("compressed data ends before its announced length")
        ctrl = data[ip]
        ip += 1
        if ctrl < 32:
            run = ctrl + 1
            if ip + run > end:
                raise LzfError("literal run past the end of the compressed data")
            out += data[ip : ip + run]
            ip += run
        else:
            run = ctrl >> 5
            if run == 7:
                if ip >= end:
                    raise LzfError("truncated back-reference")
                run += data[ip]
                ip += 1
            if ip >= end:
                raise LzfError("truncated back-reference")
            back = ((ctrl & 0x1F) << 8) + data[ip] + 1
            ip += 1
            start = len(out) - back
            if start < 0:
                raise LzfError("back-reference before the start of the output")
            run += 2
            if back >= run:
                out += out[start : start + run]
            else:  # overlapping copy: the pattern repeats every `back` bytes
                pattern = bytes(out[start:])
                out += (pattern * (run // back + 1))[:run]
        if len(out) > size:
            raise LzfError("decompressed data is longer than announced")
    if limit is None and (len(out) != size or ip != end):
        raise LzfError("decompressed length differs from the announced one")
    return bytes(out[:want])
