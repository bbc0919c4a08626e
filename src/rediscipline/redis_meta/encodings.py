"""Limits Redis itself applies when it picks a value's encoding, named once for every layer that mirrors them.

The dump parser and memory model (`sources.rdb`) decide which encoding the writing server gave a value, and
the value rules explain why a collection lost its compact encoding: both read these numbers from here.
"""

from __future__ import annotations

#: A string of at most this many bytes is kept as `embstr` (object and value in one allocation) by servers that
#: do not embed the key in the value object (before `versions.EMBEDDED_KEY`); object.c OBJ_ENCODING_EMBSTR_SIZE_LIMIT.
EMBSTR_MAX_BYTES = 44
#: The longest string `string2ll` can accept (`-9223372036854775808`): only strings this short may be `int`.
INT_STRING_MAX_BYTES = 20
#: Bytes one listpack node of a list holds at most, whatever `list-max-listpack-size` counts: its default -2
#: (8 KB), and quicklist.c SIZE_SAFETY_LIMIT for positive sizes.
LIST_NODE_MAX_BYTES = 8192
