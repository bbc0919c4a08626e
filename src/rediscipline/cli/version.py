"""`rediscipline --version`: this package's version and those of what a bug report needs to reproduce a run."""

from __future__ import annotations

import sys

from rediscipline import __version__

NOT_INSTALLED = "not installed"


def version_line() -> str:
    """One line, e.g. `rediscipline 0.1.0 (Python 3.11.7, redis-py 5.2.1, hiredis 3.1.0)`.

    The versions of redis-py and hiredis are read from the installed distributions' metadata, so that
    `--version` does not import redis-py (a tenth of a second); hiredis is optional for redis-py, hence
    "not installed" rather than an error.
    """
    return (
        f"rediscipline {__version__} (Python {sys.version.split()[0]}, redis-py {distribution_version('redis')}, "
        f"hiredis {distribution_version('hiredis')})"
    )


def distribution_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return NOT_INSTALLED
