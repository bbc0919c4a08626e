"""What rules say (Violation) and what the engine records (Finding).

A rule returns a Violation: a sub-code, a bilingual message, an optional severity and a measured value.
Only the engine turns violations into Findings, grouped by key pattern, with a stable fingerprint.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.location import Location
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text


@dataclass(slots=True)
class Violation:
    """One broken rule on one fact (or one template). `code` distinguishes kinds within a rule.

    Treat it as immutable (rules may hand out the same instance for many keys). It is not `frozen` because fact
    rules build one per offending key, and a frozen dataclass costs three times as much to build.
    """

    code: str
    message: Text
    severity: Severity | None = None  # None: the rule's configured severity
    value: float | None = None  # the measured quantity (bytes, segments…), used to pick the worst example
    #: The server setting a config violation is about (`maxmemory`, `lazyfree-lazy-eviction`, `user default`):
    #: the key of `ServerFact.settings_origin` that says where it was written, when a file described the server.
    setting: str | None = None
    #: What a name rule's violation is about, as half-open ranges of positions in the template's parts (each
    #: literal byte one position, each placeholder one, so code templates have them too). Empty: the name
    #: as a whole (its length, its number of levels). The engine compares the spans of rules that overlap.
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Example:
    """A concrete key (or code template) that showed the violation, with where it was seen."""

    name: bytes
    location: Location


#: `Finding.context` of a finding in test code (see `suppress.test_code`), and of one in any other file.
CONTEXT_TEST = "test"
CONTEXT_LIBRARY = "library"
#: The values of the convention file's `tests`: report every finding in test code, only its errors, or none.
TESTS_MODES = ("report", "errors-only", "ignore")


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule broken by `count` keys of one pattern, by one place in a file, or by one key pattern at
    `count` places in one file (`location` is the first, `related` the next ones, bounded)."""

    rule_id: str
    code: str
    severity: Severity
    message: Text
    location: Location
    fingerprint: str
    pattern: bytes | None = None
    count: int = 1
    examples: tuple[Example, ...] = ()
    namespace: str | None = None
    worst: float | None = None
    subject: str | None = None  # what a non-key finding is about: a command (`keys`), a setting (`maxmemory`)
    estimate: tuple[float, float, float] | None = None  # sampled scans: (estimated count, 95% low, 95% high)
    related: tuple[Location, ...] = ()  # the other places of a fact found at several places in one file
    context: str | None = None  # CONTEXT_TEST or CONTEXT_LIBRARY for a finding in a file; None elsewhere
    library: str | None = None  # the catalog family (`rq.job`) whose library wrote the keys of `pattern`
