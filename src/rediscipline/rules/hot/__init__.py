"""HOT: hot keys, one module each. Judged once per traffic window, from the keys it found most accessed."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.hot.hot_big_key import HotBigKey
from rediscipline.rules.hot.hot_key import HotKeyRule

#: Every HOT rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (HotKeyRule, HotBigKey)  # HOT001, HOT002
