"""`guard`, `unguard`, `guard_report`: the guard's entry points.

`guard(client)` instruments an existing client in place and returns it; each call makes a collector of its
own (its settings, mode and fixes) unless `collector=` shares one. Settings come as for every command: the
project's convention file (found from the working directory, or `config=`), a preset, rule selections; an
error in them is raised here, before any command is sent. `guard_report(client)` is that collector's report;
`guard_report()` the default collector's, which `guard_new_clients()` and the pytest plugin use.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from rediscipline.api.defaults import settings_for
from rediscipline.api.driver import run
from rediscipline.guard.clients import database_of, described, encoding_of, kind_of
from rediscipline.guard.collector import Collector
from rediscipline.guard.fixes import Fixes
from rediscipline.guard.hooks import CLIENT, STATE, GuardState, install, remove
from rediscipline.guard.source import RuntimeSource
from rediscipline.model.report import Report
from rediscipline.model.severity import Severity
from rediscipline.settings.loader import Overrides

T = TypeVar("T")

_default: Collector | None = None
_default_lock = threading.Lock()


def new_collector(
    mode: str = "warn",
    *,
    config: str | Path | None = None,
    preset: str | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    fail_on: str | None = None,
    fix: Fixes | Mapping[str, Any] | Iterable[str] | str | None = None,
    isolated: bool = False,
) -> Collector:
    """A collector with these settings (see `guard`); convention-file and option errors are raised here."""
    overrides = Overrides(
        config=Path(config) if config is not None else None,
        isolated=isolated,
        preset=preset,
        select=tuple(select) if select is not None else None,
        ignore=tuple(ignore),
    )
    settings = settings_for(overrides)
    threshold = Severity.parse(fail_on) if fail_on is not None else None
    return Collector(settings, mode=mode, fail_on=threshold, fixes=Fixes.parse(fix))


def guard(
    client: T,
    mode: str = "warn",
    *,
    collector: Collector | None = None,
    **options: Any,
) -> T:
    """Instrument `client` (a redis-py or valkey-py client, pipeline or pub/sub object) in place; return it.

    `mode`: `warn`, `log`, `raise` or `record` (see `guard.collector`). `options`: `config` (a convention
    file), `preset`, `select`, `ignore`, `fail_on` (the lowest severity `raise` refuses; `error` by
    default), `fix` (see `guard.fixes`), `isolated` (ignore the project's convention file). Guarding a
    guarded object again changes nothing.
    """
    kind = kind_of(client)
    if STATE in getattr(client, "__dict__", {}):
        return client
    owner = collector if collector is not None else new_collector(mode, **options)
    install(client, GuardState(owner, kind, encoding_of(client)))
    owner.note_client(described(client))
    db = database_of(client) if kind == CLIENT else 0
    if db:
        owner.connected_to(db, encoding_of(client))
    return client


def unguard(client: T) -> T:
    """Remove the guard from `client` (its class's methods show through again); unguarded objects pass."""
    remove(client)
    return client


def collector_of(client: object) -> Collector:
    state = getattr(client, "__dict__", {}).get(STATE)
    if not isinstance(state, GuardState):
        raise TypeError(f"{type(client).__name__} is not guarded: call guard(client) first")
    return state.collector


def default_collector(**options: Any) -> Collector:
    """The process's default collector, made on first use (with `options`, see `new_collector`)."""
    global _default  # noqa: PLW0603 - one default per process, by design
    with _default_lock:
        if _default is None:
            _default = new_collector(**options)
        return _default


def reset_default(replacement: Collector | None = None) -> None:
    """Forget the default collector (or set it): the next `default_collector()` starts afresh."""
    global _default  # noqa: PLW0603
    with _default_lock:
        _default = replacement


def report_of(owner: Collector) -> Report:
    """The report of everything `owner` recorded so far (it goes on recording)."""
    return run(
        [RuntimeSource(owner)],
        owner.settings,
        command="guard",
        registry=owner.registry,
        root=str(owner.sites.root),
    )


def guard_report(client: object | None = None) -> Report:
    """The report of `client`'s collector, or of the default collector when no client is given."""
    owner = collector_of(client) if client is not None else default_collector()
    return report_of(owner)


@contextmanager
def guard_new_clients(owner: Collector | None = None) -> Iterator[Collector]:
    """Guard every redis-py / valkey-py client created inside the block with `owner` (default: the default
    collector). Clients made before it, and after it, are left alone."""
    from rediscipline.guard.constructors import guarding_constructors

    owner = owner or default_collector()
    with guarding_constructors(lambda made: guard(made, collector=owner)):
        yield owner
