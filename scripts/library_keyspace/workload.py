"""What a generator needs to know about one library workload: how to run it and how to label what it wrote."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scripts.library_keyspace.common import Family


@dataclass(frozen=True)
class Workload:
    """One library's workload, run in its own process against an empty database.

    `run(url, variant, rng)` drives the real library against the server at `url`; `families(variant)` is the
    test-side table of family regexes for what it wrote; `options(variant)` says, in one line, which of the
    library's options the run used (it goes into the corpus header). `distributions` are the PyPI names whose
    installed versions the header records. An optional workload that cannot import or run is skipped with its
    reason; a required one that fails stops the generator.
    """

    name: str
    library: str
    distributions: Sequence[str]
    run: Callable[[str, str, random.Random], None]
    families: Callable[[str], Sequence[Family]]
    options: Callable[[str], str]
    optional: bool = False
