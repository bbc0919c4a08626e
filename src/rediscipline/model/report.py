"""The finished, immutable result handed to renderers: findings, fired rules' metadata, run info, stats."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rediscipline.model.cluster import ClusterView
from rediscipline.model.finding import Finding
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.note import Note
from rediscipline.model.severity import Severity
from rediscipline.model.simulation import EvictionSimulation, ExpirySimulation
from rediscipline.model.text import Text
from rediscipline.model.traffic import TrafficView

#: The report document's schema name and version (`render.json_output` writes it, `diff` reads it).
REPORT_SCHEMA = "rediscipline.report"
SCHEMA_VERSION = 1
#: How a report's findings are laid out: per rule and key pattern (key lists, servers, dumps), or one per
#: place in a file (code and config files, whose "keys" are templates, not a keyspace).
LAYOUT_PATTERNS = "patterns"
LAYOUT_SITES = "sites"
_NO_TITLE = Text("", "")  # Text is immutable: one shared default is safe


@dataclass(frozen=True, slots=True)
class Citation:
    """The sentence a rule enforces, from one convention section it cites.

    `source` is the reference as the rule gives it (`000 §Key 名字如何设计 — 大小`); `text.zh` is the
    document's own words (pieces joined by `……` where text is left out), `text.en` their translation.
    """

    source: str
    text: Text


@dataclass(frozen=True, slots=True)
class RuleMeta:
    """What a renderer needs to know about a rule, so it never has to reach into the rule registry."""

    id: str
    slug: str
    family: str
    title: Text
    severity: Severity
    where: tuple[str, ...]
    sources: tuple[str, ...]  # cited convention sections, e.g. "000 §Key 名字如何设计 — 大小"
    doc: str = ""
    family_title: Text = _NO_TITLE
    #: The sentence each source states, in the order of `sources` (rules/citations.toml).
    citations: tuple[Citation, ...] = ()
    #: The documentation in Chinese, or what reads it when first asked for (the rules pass a loader, so that
    #: only a run that shows it reads it); `doc_in` picks the language.
    doc_zh: str | Callable[[], str] = ""

    def doc_in(self, lang: str) -> str:
        """The documentation in `lang` ("en" or "zh"); the English one when there is no translation."""
        if lang == "zh":
            text = self.doc_zh() if callable(self.doc_zh) else self.doc_zh
            if text:
                return text
        return self.doc


#: How many patterns the text report lists unless told (`--patterns`).
PATTERNS_SHOWN = 10


@dataclass(frozen=True, slots=True)
class RunInfo:
    tool_version: str
    command: str
    inputs: tuple[str, ...]
    preset: str
    overlays: tuple[str, ...] = ()
    config_file: str | None = None
    rules_enabled: int = 0  # the enabled rules that can be checked on this run's inputs
    layout: str = LAYOUT_PATTERNS
    patterns_shown: int | None = PATTERNS_SHOWN  # patterns the text report lists (None: all)
    root: str | None = None  # the folder the relative paths of findings are relative to


@dataclass(frozen=True, slots=True)
class PatternStat:
    """One inferred pattern of a run: how many keys it covers and, when the source measured them, their
    memory, their types and how many have a TTL; `library` is the catalog family (`rq.job`) that wrote them."""

    pattern: bytes
    count: int
    memory: int | None = None
    types: tuple[tuple[str, int], ...] = ()  # (type, keys), most keys first
    with_ttl: int | None = None
    library: str | None = None

    @property
    def ttl_coverage(self) -> float | None:
        return self.with_ttl / self.count if self.with_ttl is not None and self.count else None


#: Why a live report covers less than the server holds (`ServerSummary.partial`); the notes say more.
PARTIAL_INTERRUPTED = "interrupted"  # stopped by the user (Ctrl-C): continue with `resume_cursor`
PARTIAL_CONNECTION_LOST = "connection-lost"  # the server could not be reached again: continue with `resume_cursor`
PARTIAL_RESUMED = "resumed"  # a continuation from `resumed_from`: keys before that cursor are not in it
PARTIAL_RESTARTED = "server-restarted"  # the server's run_id changed during the scan
PARTIAL_FLUSHED = "flushed"  # FLUSHALL or FLUSHDB ran during the scan
PARTIAL_SHRANK = "keyspace-shrank"  # far fewer keys were seen, or are left, than the server held at the start
PARTIAL_UNREADABLE = "unreadable-keys"  # keys the scanning user may not read: judged by name only
PARTIAL_DATABASES = "databases-not-scanned"  # databases that could not be listed or selected
PARTIAL_SHARDS = "other-shards"  # one node of a cluster: the other shards were not scanned
PARTIAL_STALE_REPLICA = "replica-not-in-sync"  # a replica whose link to its master is down or syncing


@dataclass(frozen=True, slots=True)
class UnreadableKeys:
    """Keys SCAN listed but the scanning user may not read (ACL key patterns, or TYPE refused).

    Their names were judged by the name rules; `rules` are the enabled rules that need more than a name and
    could not judge them, and the keyspace summary (memory, TTL coverage, top keys) leaves them out.
    """

    keys: int
    patterns: tuple[PatternStat, ...] = ()  # the most common patterns among them, most keys first (bounded)
    rules: tuple[str, ...] = ()


#: The settings of the active expire cycle a scan's report keeps (`ServerSummary.expire_config`).
EXPIRE_CONFIG = ("hz", "dynamic-hz", "active-expire-effort", "lazyfree-lazy-expire")


@dataclass(frozen=True, slots=True)
class ServerSummary:
    """The instance a live scan looked at, for the report header."""

    address: str
    flavor: str
    version: str
    role: str | None = None
    used_memory: int | None = None
    maxmemory: int | None = None
    maxmemory_policy: str | None = None
    dbs: tuple[tuple[int, int], ...] = ()  # (db, keys) from INFO keyspace
    unavailable: tuple[tuple[str, str], ...] = ()  # (check, reason): what the server refused
    resume_cursor: str | None = None  # set when the scan stopped early: pass to --resume
    resumed_from: str | None = None  # `DB:CURSOR` this scan continued from (a continuation of an earlier one)
    partial: tuple[str, ...] = ()  # PARTIAL_* codes: why the report covers less than the server holds
    stopped: str | None = None  # why the scan ended before its end on an error (with PARTIAL_CONNECTION_LOST)
    unreadable: UnreadableKeys | None = None
    cluster_masters: int | None = None  # a cluster node: masters of its cluster (0: unknown)
    dbs_at_end: tuple[tuple[int, int], ...] | None = None  # (db, keys) of the scanned databases at the end
    dbs_not_scanned: tuple[int, ...] = ()  # databases that could not be selected
    #: what the expiry simulator reads from a scan's report: when the scan began (Unix ms, the server's
    #: clock; a dump's creation time), the keys with a TTL per database (INFO keyspace `expires`), the
    #: expire cycle's settings as CONFIG GET gave them (EXPIRE_CONFIG), and the connected clients (dynamic-hz)
    started_ms: int | None = None
    volatile: tuple[tuple[int, int], ...] = ()
    expire_config: tuple[tuple[str, str], ...] = ()
    clients: int | None = None


@dataclass(frozen=True, slots=True)
class Stats:
    keys: int = 0
    patterns: int = 0
    pattern_cap: int = 0
    overflow_keys: int = 0  # keys whose pattern could not be tracked because the cap was hit
    elapsed_seconds: float = 0.0
    #: every pattern, most keys first (at most `pattern_cap`, with overflow keys counted apart)
    pattern_stats: tuple[PatternStat, ...] = ()
    keys_flagged: int = 0  # keys with at least one finding of severity warning or above
    score: int | None = None  # 0–100, see `engine.runner._score`
    keyspace: KeyspaceStats | None = None  # sources that probe values (live, rdb)
    server: ServerSummary | None = None
    cluster: ClusterView | None = None  # a scan of a whole cluster: its shards, busiest slots and hashtags
    traffic: tuple[TrafficView, ...] = ()  # what each server observed was sent during the window
    eviction: tuple[EvictionSimulation, ...] = ()  # traces replayed through a server's eviction
    expiry: tuple[ExpirySimulation, ...] = ()  # keyspaces followed through the active expire cycle


@dataclass(frozen=True, slots=True)
class Report:
    findings: tuple[Finding, ...]
    rules: Mapping[str, RuleMeta]
    run: RunInfo
    stats: Stats
    notes: tuple[Note, ...] = field(default=())
    schema_version: int = SCHEMA_VERSION

    def count_by_severity(self) -> dict[Severity, int]:
        counts = dict.fromkeys(Severity, 0)
        for finding in self.findings:
            counts[finding.severity] += 1
        return counts

    def max_severity(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)
