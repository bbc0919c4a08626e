"""Byte sizes and durations for people, the same in rule messages and in every renderer."""

from __future__ import annotations

from rediscipline.model.text import Text

_UNITS = ("B", "KB", "MB", "GB", "TB")
_TIME_UNITS = ((86400, "d", "天"), (3600, "h", "小时"), (60, "min", "分钟"), (1, "s", "秒"))


def human_bytes(size: float) -> str:
    """`512 B`, `24.0 KB`, `1.5 MB`: binary units, as Redis prints `*_human` fields and as the convention
    documents write their limits (10 KB = 10240 bytes)."""
    value = float(size)
    for unit in _UNITS:
        if abs(value) < 1024 or unit == _UNITS[-1]:
            return f"{value:.0f} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def human_duration(seconds: int) -> Text:
    """`10 d 3 h`, `45 min`: the largest non-zero unit and the next one unless it is zero, truncated."""
    en: list[str] = []
    zh: list[str] = []
    rest = seconds
    for size, unit_en, unit_zh in _TIME_UNITS:
        amount, rest = divmod(rest, size)
        if amount:
            en.append(f"{amount} {unit_en}")
            zh.append(f"{amount} {unit_zh}")
        if len(en) == 2 or (en and not amount):
            break
    if not en:
        return Text("0 s", "0 秒")
    return Text(" ".join(en), " ".join(zh))
