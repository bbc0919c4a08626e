"""The guard with every major version of redis-py that pyproject allows (redis>=5) and with valkey-py: each
version is installed once into a cached folder (`pip install --target`), and a small application runs under
it in a subprocess against a real server; its seeded breaks must be reported at their lines, its fixed calls
must return what unguarded calls return, and `raise` must refuse.

The versions are the latest of each major release when this was written; the installed 8.x and valkey are
the ones in the virtualenv. A version PyPI cannot give (no network) is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.guard.conftest import APPS, seeded
from tests.live.conftest import serve
from tests.support.servers import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
APP = APPS / "client_versions.py"
CACHE_APP = APPS / "client_cache.py"
#: redis-py releases installed from PyPI for the test: the latest of each major version pyproject allows.
PINNED = ("5.3.1", "6.4.0", "7.4.1")
#: (library, version or None for the one installed in the virtualenv)
CLIENTS = [*(("redis", version) for version in PINNED), ("redis", None), ("valkey", None)]


def _installed_at(folder: Path, version: str) -> bool:
    return (folder / "redis" / "__init__.py").is_file() and (folder / f"redis-{version}.dist-info").is_dir()


@pytest.fixture(scope="session")
def client_folders(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Where each pinned redis-py is installed: the pytest cache (kept between sessions) or a temporary folder."""
    cache = getattr(request.config, "cache", None)
    base = cache.mkdir("guard-redis-py") if cache is not None else tmp_path_factory.mktemp("guard-redis-py")
    failures: dict[str, str] = {}

    def folder(version: str) -> Path:
        target = base / f"redis-{version}"
        if _installed_at(target, version):
            return target
        if version in failures:
            pytest.skip(failures[version])
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        command += ["--no-input", "--retries", "1", "--timeout", "20", "--target", str(target), f"redis=={version}"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0 or not _installed_at(target, version):
            lines = [line for line in done.stderr.splitlines() if line.strip() and "ignored" not in line]
            failures[version] = f"redis=={version} could not be installed from PyPI: {(lines or ['no output'])[-1]}"
            pytest.skip(failures[version])
        return target

    yield folder


def run_app(app: Path, arguments: list[str], folder: Path | None) -> dict[str, Any]:
    """Run `app` with `folder` (a client library) first on the path; its JSON output."""
    path = [str(folder)] if folder is not None else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, str(app), *arguments],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def expected_version(library: str, version: str | None) -> str:
    if version is not None:
        return version
    from importlib.metadata import version as installed

    return installed(library)


@pytest.mark.parametrize(("library", "version"), CLIENTS, ids=[f"{lib}-{ver or 'installed'}" for lib, ver in CLIENTS])
def test_the_guard_works_with_each_client_version(
    library: str, version: str | None, server: ServerProcess, client_folders: Any
) -> None:
    if library == "valkey":
        pytest.importorskip("valkey", reason="valkey-py is not installed (pip install valkey)")
    folder = client_folders(version) if version is not None else None
    with server.client() as plain:
        plain.flushall()
    result = run_app(APP, [library, server.host, str(server.port)], folder)
    assert result["version"] == expected_version(library, version)
    found = {(rule, Path(path).name, line) for rule, path, line in result["findings"]}
    assert found == seeded(APP)
    assert all(path == "tests/guard/apps/client_versions.py" for _rule, path, _line in result["findings"])
    assert result["checks"] == {
        "chunked mget": True,
        "flushed pipeline": True,
        "explicit transaction": True,
        "unlink": True,
        "raise": True,
        "async chunked mget": True,
        "async pipeline": True,
    }
    assert result["fixed"] == [[["chunk", 1], ["flush", 1], ["unlink", 1]], [["chunk", 1]]]


@pytest.fixture(scope="module")
def server74() -> Iterator[ServerProcess]:
    """A server with client-side caching (Redis 7.4 or later): Redis 8.2."""
    yield from serve("redis82")


#: Versions with a client-side cache: 6.x and later (5.x's cache fails to start with hiredis 3 installed).
CACHING = [*(version for version in PINNED if not version.startswith("5.")), None]


@pytest.mark.parametrize("version", CACHING, ids=[version or "installed" for version in CACHING])
def test_chunks_do_not_share_a_client_side_cache_entry(
    version: str | None, server74: ServerProcess, client_folders: Any
) -> None:
    folder = client_folders(version) if version is not None else None
    with server74.client() as plain:
        plain.flushall()
    result = run_app(CACHE_APP, [server74.host, str(server74.port)], folder)
    assert result == {"version": expected_version("redis", version), "same": [True, True, True]}
