"""What a server's allocations cost: the allocators' size classes and the sizes of the structures every model
of a server's memory is built from, named once for the dump's memory estimate (`sources.rdb.memory`) and the
eviction simulator's memory accounting (`simulate.memory`).

The allocator is a build choice the server does not expose through what a dump or a trace holds: official
builds and Docker images use the bundled jemalloc with an 8-byte quantum (`jemalloc`); Debian/Ubuntu packages
link the system jemalloc with a 16-byte quantum (`jemalloc16`); builds with `MALLOC=libc` use glibc (`libc`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache


def _jemalloc(quantum: int) -> Callable[[int], int]:
    """jemalloc's usable size: `quantum` steps up to 64 B (quantum 8) or 128 B (quantum 16), 16 B steps up to
    128 B, then four size classes per power of two."""
    small = 64 if quantum == 8 else 128

    def usable(size: int) -> int:
        if size <= 8:
            return 8
        if size <= small:
            return (size + quantum - 1) // quantum * quantum
        if size <= 128:
            return (size + 15) & ~15
        spacing = 1 << ((size - 1).bit_length() - 3)
        return (size + spacing - 1) // spacing * spacing

    return usable


def _glibc(size: int) -> int:
    """glibc's malloc_usable_size on 64-bit: 16-byte chunks with an 8-byte header, 32-byte minimum chunk."""
    return max(24, ((size + 23) & ~15) - 8)


#: Each allocator's usable size for a request of `size` bytes (what `used_memory` counts).
ALLOCATORS: dict[str, Callable[[int], int]] = {
    "jemalloc": _jemalloc(8),
    "jemalloc16": _jemalloc(16),
    "libc": _glibc,
}


def sds_size(length: int) -> int:
    """Bytes of an exact-size sds (header + payload + NUL) with the header type Redis >= 7.0 / Valkey pick."""
    if length < 32:
        return length + 2
    if length <= 252:
        return length + 4
    if length <= 65_530:
        return length + 6
    if length <= 4_294_967_286:
        return length + 10
    return length + 18


def sds_size_v6(length: int) -> int:
    """The same for Redis <= 6.2, whose header choice ignores the header's own size."""
    if length < 32:
        return length + 2
    if length < 256:
        return length + 4
    if length < 65_536:
        return length + 6
    if length < 4_294_967_296:
        return length + 10
    return length + 18


#: Keys a bucket of Valkey's hashtable holds (`ENTRIES_PER_BUCKET`, 64-bit), and its bytes (a cache line).
VALKEY_BUCKET_KEYS = 7
VALKEY_BUCKET_BYTES = 64


@lru_cache(maxsize=4096)
def child_buckets(count: int, buckets: int) -> float:
    """Expected chained child buckets of a Valkey hashtable: `count` entries hashed into `buckets` buckets of 7.

    A bucket that overflows keeps 6 entries and a pointer; each child holds 6 (7 if it is the last one).
    """
    mean = count / buckets
    total = 0.0
    p = math.exp(-mean)  # Poisson P(k = 0)
    for k in range(1, 64):
        p *= mean / k
        if k > VALKEY_BUCKET_KEYS:
            total += p * math.ceil((k - VALKEY_BUCKET_KEYS) / (VALKEY_BUCKET_KEYS - 1))
    return buckets * total
