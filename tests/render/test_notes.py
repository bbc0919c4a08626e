"""The note catalogue: every code the sources and the driver emit has a text in both languages that uses every
parameter; a code that is not in the catalogue is shown with its parameters rather than dropped."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from rediscipline.model.note import Note, NoteValue, note
from rediscipline.render.notes import CATALOGUE, note_text

SRC = Path(__file__).resolve().parents[2] / "src" / "rediscipline"

#: Parameters of each note code, as the code that emits it gives them.
EXAMPLES: dict[str, dict[str, NoteValue]] = {
    "rules-not-checked": {"rules": ("CFG001", "TTL003"), "places": ("live", "config")},
    "namespace-option-unchecked": {"namespace": "session:*", "option": "ttl-min", "rules": ("TTL003",)},
    "no-keys": {},
    "pattern-cap": {"cap": 500, "keys": 42},
    "suppressed": {"findings": 3},
    "tests-left-out": {"findings": 5, "mode": "errors-only"},
    "baseline": {"path": "base.json", "matched": 4, "fixed": 2},
    "python-files": {"files": 12},
    "config-files": {"files": 2},
    "unparsed-files": {"files": 1},
    "memory-estimated": {"models": ("redis 7.0 layout, jemalloc", "valkey 8.1 layout, libc")},
    "dump-expired": {"keys": 17},
    "no-checksum": {"paths": ("a.rdb", "b.rdb")},
    "crc-not-verified": {},
    "elements-not-walked": {},
    "dump-filtered": {},
    "refused": {"check": "MEMORY USAGE", "reason": "NOPERM no permission"},
    "scan-stopped": {"reason": "lost the connection", "resume": "0:1536"},
    "scan-interrupted": {"resume": "2:88"},
    "reconnected": {"times": 3},
    "resumed": {"cursor": "0:99"},
    "unreadable-keys": {"keys": 40, "patterns": ((b"session:*", 25), (b"bin:\xff:*", 15)), "rules": ("VAL001",)},
    "databases-not-scanned": {"dbs": (1, 2)},
    "databases-unknown": {"databases": 16},
    "cluster-node": {"masters": 3},
    "traffic-cut": {"seconds": 3.5, "asked": 10.0},
    "traffic-reset": {},
    "traffic-refused": {"parts": ("CLIENT LIST: NOPERM this user has no permissions", "SLOWLOG GET: NOPERM")},
    "traffic-clients-capped": {"kept": 10000, "total": 12345},
    "traffic-no-hot-keys": {"reason": "maxmemory-policy is noeviction"},
    "traffic-monitor-cost": {"before": 83621, "during": 44028, "drop": 0.473},
    "traffic-monitor-short": {"seconds": 3.2, "asked": 8.0, "stopped": "max-bytes", "error": None},
    "traffic-trace": {"path": "trace.jsonl", "accesses": 186174},
    "traffic-cluster": {"masters": ("redis://10.0.0.1:7000", "redis://10.0.0.2:7000")},
    "traffic-node-failed": {"node": "10.0.0.3:7000", "reason": "connection refused"},
    "traffic-slot-stats-off": {},
    "simulation-untimed": {"rate": 10000},
    "simulation-no-ttl": {},
    "simulation-no-volatile": {"keys": 1200},
    "simulation-volatile-assumed": {"keys": 1200},
    "simulation-one-master": {"masters": 3},
    "simulation-memory-unknown": {},
    "simulation-jitter-share": {"share": 0.25},
    "cluster-replica-fallback": {"shard": "10.0.0.1:7000", "reason": "10.0.0.2:7000: not in sync with its master"},
    "cluster-master-failed": {"shard": "10.0.0.1:7000", "replica": "10.0.0.2:7000"},
    "cluster-topology-refused": {"used": "CLUSTER SLOTS", "refused": ("CLUSTER SHARDS: NOPERM",)},
    "cluster-slots-migrating": {"slots": (866, 867)},
    "cluster-shard-missed": {"shard": "10.0.0.1:7000", "status": "failed", "slots": "0-5460", "reason": "refused"},
    "cluster-topology-unknown-at-end": {},
    "cluster-slots-moved": {"shard": "10.0.0.1:7000", "before": "0-5460", "after": "0-5459"},
    "cluster-failover": {"shard": "10.0.0.1:7000", "master": "10.0.0.2:7000"},
    "stale-replica": {"state": "a replica whose link to its master is down"},
    "server-restarted": {},
    "flushed": {"calls": 2},
    "keyspace-shrank": {"before": 900, "after": 300, "expired": 5, "evicted": 7},
    "fell-short": {"before": 900, "seen": 200, "expired": 5, "evicted": 7},
    "vanished": {"listed": 800, "gone": 700},
    "sampled": {"population": 802, "rate": 0.5},
    "scan-filtered": {},
    "elements-unread": {"collections": 4, "cap_mb": 8},
    "guard-commands": {"commands": 12345},
    "guard-fixed": {"fix": "chunk", "times": 3, "site": "app/cart.py:42"},
}


def _other(value: NoteValue) -> NoteValue:
    """A different value of the same kind, to see a parameter change the text."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value / 2
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, bytes):
        return value + b"x"
    if isinstance(value, tuple):
        return (_other(value[0]), *value[1:]) if value else ("x",)
    return "x"


def test_every_code_has_an_example() -> None:
    assert set(EXAMPLES) == set(CATALOGUE)


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_both_languages_use_every_parameter(code: str) -> None:
    params = EXAMPLES[code]
    en, zh = note_text(Note(code, params), "en"), note_text(Note(code, params), "zh")
    assert en and zh and en != zh
    assert "{p" not in en and "{p" not in zh  # an f-string without its `f`
    for name, value in params.items():
        changed = Note(code, {**params, name: _other(value)})
        assert note_text(changed, "en") != en, f"{code}: `{name}` is not in the English text"
        assert note_text(changed, "zh") != zh, f"{code}: `{name}` is not in the Chinese text"


def _emitted_codes() -> set[str]:
    """Every code passed as a literal to `note(...)` or `Note(...)` in the package."""
    codes: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("note", "Note"):
                first: Any = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
    return codes


def test_every_emitted_code_is_in_the_catalogue() -> None:
    emitted = _emitted_codes()
    assert emitted, "no note(...) call found: the scan of the sources is broken"
    assert emitted <= set(CATALOGUE), sorted(emitted - set(CATALOGUE))


def test_an_unknown_code_is_shown_with_its_parameters() -> None:
    assert note_text(note("future-note", keys=3, pattern=b"a:\xff:*"), "zh") == "future-note: keys=3, pattern=a:\\xff:*"
    assert note_text(note("bare"), "en") == "bare"
