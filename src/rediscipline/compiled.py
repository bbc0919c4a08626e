"""TEMPORARY local stand-in until the toolchain branch lands."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_VARIABLE = "REDISCIPLINE_PURE"


def load(name: str) -> ModuleType | None:
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
