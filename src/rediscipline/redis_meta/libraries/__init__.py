"""Key families written by client libraries: one data row per family, for every library the catalog knows.

Most keys in production are written by a library (a task queue, a cache, a session store, a rate limiter), in a
shape nobody on the team chose and that only the library's configuration can change. A row says which keys a
family holds (`shapes`), what the library keeps in them, whether they are meant to persist (a queue, a
registry, a schedule) or to expire (a result, a cache entry, a session), and the library's own setting that
bounds their lifetime or size: what a report names instead of generic advice.

Shape syntax. A shape is the key written literally, with fields in braces for its variable parts; it matches a
whole key (or key template) and nothing else:

- `{var}`   one generated identifier: a number, UUID, hex digest, random token, ULID, date, e-mail or address
            (exactly one variable part of an inferred key; never a literal word).
- `{name}`  a name the application chose (a queue, a cache, a task, a view): one or more bytes without `:`,
            literal words or variable parts.
- `{rest}`  anything, `:` included (one or more bytes): the tail a library appends verbatim (a cache key the
            application chose, a URL).
- `{int}`, `{uuid}`, `{hex}`, `{token}`, `{date}`: one variable part of that kind only (use them only where `{var}`
            would claim keys that are not the library's).
- `{{` and `}}` stand for literal braces (Redis Cluster hash tags in a shape: `bull:{{{name}}}:wait`).

Everything else is literal bytes. A shape should be as specific as the library's real format allows: a row
claims every key its shapes match, so a shape that an application's own keys can take (`session:{var}`) is
only acceptable with the library's distinctive parts (`session:{token}` with the library's token length is
still too generic: prefer leaving such a family out).
"""

from __future__ import annotations

from rediscipline.redis_meta.libraries.other_ecosystems import OTHER_ECOSYSTEMS
from rediscipline.redis_meta.libraries.schema import KeyFamily

#: Every family the catalog knows, in the order attribution tries them (the first matching row wins).
FAMILIES: tuple[KeyFamily, ...] = (*OTHER_ECOSYSTEMS,)

#: What the naming rules do with keys of a library's own format (`library-keys`): leave them alone (the team
#: cannot rename them without configuring the library) or judge them like the team's own keys.
KEY_MODES = ("skip", "judge")
#: Rules that do not apply to a family meant to persist (a queue, a registry, a schedule): they report keys
#: without a TTL. The size rules still apply: such a family may persist, not grow without bound.
PERSISTING_EXEMPT = frozenset({"TTL001", "TTL004"})

__all__ = ["FAMILIES", "KEY_MODES", "PERSISTING_EXEMPT", "KeyFamily"]
