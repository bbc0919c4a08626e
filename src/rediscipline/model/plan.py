"""The ProbePlan: what a run's enabled rules (and the keyspace summary) need the sources to read.

Every source reads the plan before it reads anything: a key list ignores it (names are all it has), a live scan
sends a per-key probe only for a field in `key_fields` and reads only the `server` parts listed, a dump skips
what costs extra to read (string heads), and the code source always gives call sites and commands, which cost
nothing more than the parse. A field left at None in a fact was not asked for, or the source cannot see it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Fields of KeyFact a rule may declare it needs; a source fills only the requested ones.
#: `ttl` fills both `ttl_ms` and `expire_at_ms`; `element` (the largest element) and `head` are bounded looks
#: inside a value.
KEY_FIELDS = ("type", "ttl", "memory", "length", "encoding", "idle", "freq", "element", "head")

#: Parts of a server a rule may read besides INFO (which every live scan reads: it says which databases hold
#: keys, the version, the role and the memory in the report's header).
SERVER_CONFIG = "config"  # CONFIG GET *
SERVER_USERS = "users"  # ACL LIST: the users and their passwords
SERVER_ACCESS = "access"  # ACL WHOAMI + ACL DRYRUN: which dangerous commands the scanning user may run
SERVER_PARTS = (SERVER_CONFIG, SERVER_USERS, SERVER_ACCESS)

#: What the keyspace summary (memory by type, TTL coverage, top keys, namespaces) is built from: a live scan
#: probes these for every key only when the full summary is asked for; otherwise the summary shows what
#: the rules' probes gave.
SUMMARY_FIELDS = frozenset({"type", "ttl", "memory", "length"})


@dataclass(frozen=True, slots=True)
class ProbePlan:
    """What to read, decided once per run from the enabled rules (`engine.plan.plan_for`).

    * `key_fields`: KeyFact fields to probe per key (KEY_FIELDS);
    * `server`: server parts to read besides INFO (SERVER_PARTS);
    * `commands`: some rule judges commands, so a live scan reads INFO commandstats and the slow log;
    * `summary`: the full keyspace summary was asked for (its fields are in `key_fields` then).
    """

    key_fields: frozenset[str] = frozenset()
    server: frozenset[str] = frozenset()
    commands: bool = False
    summary: bool = False


__all__ = [
    "KEY_FIELDS",
    "SERVER_ACCESS",
    "SERVER_CONFIG",
    "SERVER_PARTS",
    "SERVER_USERS",
    "SUMMARY_FIELDS",
    "ProbePlan",
]
