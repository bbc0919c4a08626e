"""JSON with a fallback for bytes, shared by every backend so that values look the same everywhere."""

from __future__ import annotations

import base64
import json
from typing import Any


def _default(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"__bytes__": base64.b64encode(value).decode()}
    if isinstance(value, set):
        return sorted(value)
    raise TypeError(f"cannot cache {type(value).__name__}")


def _hook(obj: dict[str, Any]) -> Any:
    return base64.b64decode(obj["__bytes__"]) if set(obj) == {"__bytes__"} else obj


def dumps(value: Any) -> str:
    return json.dumps(value, default=_default, separators=(",", ":"))


def loads(raw: bytes | str) -> Any:
    return json.loads(raw, object_hook=_hook)
