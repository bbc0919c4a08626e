"""The LFU access counter as the server keeps it (`evict.c`, Redis 4.0 on): 8 bits of a logarithmic counter
and 16 bits of minutes, in the object's `lru` field.

On an access the counter first decays (one step per `lfu-decay-time` minutes since it was last stored; 0: it
never decays), then grows by one with probability 1 / ((counter − LFU_INIT_VAL) · lfu-log-factor + 1), and
is stored with the current minute. A new key starts at LFU_INIT_VAL. Sampling for eviction reads the decayed
counter without storing it. The decay subtracts; the "halved" of old comments and of `utils/lru` is not what
the code does.
"""

from __future__ import annotations

from collections.abc import Callable

#: Where a new key's counter starts, and its ceiling.
LFU_INIT_VAL = 5
LFU_MAX = 255

#: The minutes field wraps at 16 bits.
MINUTES_MASK = 65535


def minutes(ms: int) -> int:
    """The LFU clock at `ms` (Unix milliseconds): whole minutes, 16 bits (`LFUGetTimeInMinutes`)."""
    return (ms // 60_000) & MINUTES_MASK


def elapsed_minutes(stored: int, now: int) -> int:
    """Minutes from `stored` to `now` on the 16-bit clock (`LFUTimeElapsed`, which wraps once)."""
    return now - stored if now >= stored else MINUTES_MASK - stored + now


def decayed(counter: int, stored: int, now: int, decay_time: int) -> int:
    """The counter as `LFUDecrAndReturn` reads it at minute `now`: one less per `decay_time` minutes since
    `stored`, never below 0; unchanged when `decay_time` is 0."""
    if decay_time <= 0:
        return counter
    periods = elapsed_minutes(stored, now) // decay_time
    return 0 if periods > counter else counter - periods


def incremented(counter: int, log_factor: int, random: Callable[[], float]) -> int:
    """The counter after one access (`LFULogIncr`): `random()` is uniform in [0, 1)."""
    if counter >= LFU_MAX:
        return LFU_MAX
    base = max(counter - LFU_INIT_VAL, 0)
    return counter + 1 if random() < 1.0 / (base * log_factor + 1) else counter
