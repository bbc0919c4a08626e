"""The row of the library key-family catalog (the shape syntax is described in the package docstring)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class KeyFamily:
    """One family of keys a library writes (the package docstring describes `shapes`)."""

    id: str  # stable, `library.family` in lower case (`rq.job`, `celery.result`): baselines and JSON use it
    library: str  # the library as its users name it (`rq`, `Celery`, `django-redis`, `Sidekiq`)
    ecosystem: str  # python, ruby, node, java, php, dotnet
    versions: str  # the versions that write this shape, as a specifier (`>=1.0`, `>=4.0,<5`)
    shapes: tuple[str, ...]  # the key shapes with the library's default prefix and options
    types: frozenset[str]  # Redis types its keys have (`hash`); a key of another type is not the family's
    purpose: tuple[str, str]  # what the library keeps there: (English, Chinese), one short sentence each
    persists: bool  # meant to live without a TTL (a queue, a registry, a schedule, a counter)
    setting: str  # the library's own setting that bounds the keys' TTL or size (`result_ttl`), "" when none
    advice: tuple[str, str]  # how to set it: (English, Chinese), one sentence each, naming the default
    examples: tuple[str, ...]  # keys written by the library (run it or read its source), each matching a shape
    docs: str  # where the library documents or writes this shape (URL to docs or source)
    #: Attributed only when the key's type is known and in `types`: a shape an application's own key can take
    #: (a bare word like `retry`, `{name}::{rest}`, a bare hex digest), told apart by its type alone.
    type_required: bool = False
    #: For shapes that start with `{prefix}` (the library's configurable prefix): the keys of this family prove
    #: that the prefix they carry is the library's, so the family's other rows with `{prefix}` (whose shapes
    #: alone an application's key could take) claim keys under that prefix in the same run.
    proves_prefix: bool = False
