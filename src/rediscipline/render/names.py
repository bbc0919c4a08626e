"""How the machine-readable reports (JSON, SARIF) write a key name or pattern: bounded, with the exact bytes once.

A name is bytes. A short one is written as its exact text (`key`), or, when it is not UTF-8, as display
text plus `key_b64`. A name whose display would pass NAME_LIMIT characters is written cut, with its length
(`key_length`); when the report keeps exact bytes for it (examples and top keys in JSON), they are stored
once in the report's `long_names` table and `key_ref` is the index there, however many findings show the
same key. Patterns are only ever cut: the examples hold the exact keys.
"""

from __future__ import annotations

import base64
from typing import Any

from rediscipline.model.display import NAME_LIMIT, display_cut, is_utf8


class LongNames:
    """The exact bytes of every cut name in one report, each once, in order of first use."""

    def __init__(self) -> None:
        self._index: dict[bytes, int] = {}
        self._names: list[bytes] = []

    def ref(self, data: bytes) -> int:
        index = self._index.get(data)
        if index is None:
            index = self._index[data] = len(self._names)
            self._names.append(data)
        return index

    def table(self) -> list[dict[str, Any]]:
        """`[{"length": n, "b64": "..."}]`, indexed by the `*_ref` fields."""
        return [{"length": len(name), "b64": base64.b64encode(name).decode("ascii")} for name in self._names]


def name_fields(prefix: str, data: bytes, long_names: LongNames | None = None) -> dict[str, Any]:
    """A key or pattern as JSON fields (see the module docstring); `long_names` keeps the exact bytes of a cut one."""
    shown, cut = display_cut(data, NAME_LIMIT)
    if not cut:
        if is_utf8(data):
            return {prefix: data.decode("utf-8")}
        return {prefix: shown, f"{prefix}_b64": base64.b64encode(data).decode("ascii")}
    fields: dict[str, Any] = {prefix: shown, f"{prefix}_length": len(data)}
    if long_names is not None:
        fields[f"{prefix}_ref"] = long_names.ref(data)
    return fields
