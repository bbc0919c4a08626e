"""The texts of the notes the runtime guard writes: what it saw, and the fixes it applied."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rediscipline.model.text import Text

Params = Mapping[str, Any]

#: What each fix did, in words.
_FIXES = {
    "ttl-jitter": Text("TTLs given random jitter", "个 TTL 加上了随机偏移"),
    "chunk": Text("oversized multi-key commands sent in chunks", "条超大的多 Key 命令被拆批发送"),
    "flush": Text("pipelines sent early to keep them small", "次 Pipeline 提前发送以控制大小"),
    "unlink": Text("DEL commands sent as UNLINK", "条 DEL 命令改为 UNLINK 发送"),
}


def _commands(p: Params) -> Text:
    return Text(
        f"the guard judged {p['commands']:,} commands sent by the application",
        f"guard 检查了应用发送的 {p['commands']:,} 条命令",
    )


def _fixed(p: Params) -> Text:
    what = _FIXES.get(str(p["fix"]), Text(str(p["fix"]), str(p["fix"])))
    return Text(
        f"fix {p['fix']}: fixed {p['times']:,} times ({what.en}), first at {p['site']}",
        f"修复 {p['fix']}：共修复 {p['times']:,} 次（{p['times']:,} {what.zh}），首次位于 {p['site']}",
    )


GUARD_NOTES: dict[str, Callable[[Params], Text]] = {
    "guard-commands": _commands,
    "guard-fixed": _fixed,
}
