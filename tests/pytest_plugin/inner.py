"""The project the plugin's tests run pytest on: a small shop application and its test suite.

`app.py` builds its keys at run time in helpers; `test_shop.py` calls them and redis-py directly. Every
seeded break carries a `# seed: NAME` comment; `Project.line(file, NAME)` is its line, so a test asserts
findings at exact call sites. The server's port is written into the files.

| seed            | file         | rule   | severity | sent from                                  |
|-----------------|--------------|--------|----------|--------------------------------------------|
| keys-in-app     | app.py       | CMD001 | error    | test_keys_in_app's call                    |
| set-forever     | app.py       | TTL006 | warning  | test_ttl_warning's call                    |
| keys-in-test    | test_shop.py | CMD001 | error    | test_keys_in_test's call                   |
| flush-teardown  | test_shop.py | CMD002 | error    | the `client` fixture's teardown, every test |
| keys-at-import  | test_shop.py | CMD001 | error    | the module, as it is imported              |
| keys-exempt     | test_shop.py | CMD001 | error    | test_exempt, whose marker exempts CMD001   |

test_clean sends nothing that breaks a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

APP = '''\
"""A shop: its keys are built by helpers at run time."""

import redis


def connect(port):
    return redis.Redis(host="127.0.0.1", port=port)


def user_key(uid):
    return f"shop:user:{uid}"


def save_user(client, uid, name):
    client.set(user_key(uid), name, ex=3600)


def save_user_forever(client, uid, name):
    client.set(user_key(uid), name)  # seed: set-forever


def all_users(client):
    return sorted(client.keys("shop:user:*"))  # seed: keys-in-app
'''

TESTS = """\
import pytest

import app

PORT = {port}
app.connect(PORT).keys("shop:boot:*")  # seed: keys-at-import


@pytest.fixture
def client():
    made = app.connect(PORT)
    yield made
    made.flushdb()  # seed: flush-teardown


def test_clean(client):
    app.save_user(client, 1, "ann")
    assert client.get(app.user_key(1)) == b"ann"


def test_keys_in_app(client):
    app.save_user(client, 2, "bob")
    assert app.all_users(client) == [b"shop:user:2"]


def test_ttl_warning(client):
    app.save_user_forever(client, 3, "cy")
    assert client.ttl(app.user_key(3)) == -1


def test_keys_in_test(client):
    assert client.keys("*") == []  # seed: keys-in-test


@pytest.mark.rediscipline(ignore=["CMD001"])
def test_exempt(client):
    app.save_user(client, 4, "dee")
    assert client.keys("shop:*") == [b"shop:user:4"]  # seed: keys-exempt
"""

#: The project's convention file: the default preset, so no convention file above the folder is read.
CONVENTIONS = 'preset = "default"\n'
#: The outcome of each test of TESTS in strict mode at the default fail-on (error).
STRICT_OUTCOMES = {
    "test_clean": "passed",
    "test_keys_in_app": "failed",
    "test_ttl_warning": "passed",
    "test_keys_in_test": "failed",
    "test_exempt": "passed",
}


@dataclass(frozen=True)
class Project:
    path: Path
    sources: dict[str, str]

    def line(self, file: str, seed: str) -> int:
        """The line of the `# seed: NAME` comment in `file`."""
        lines = self.sources[file].splitlines()
        found = [number for number, text in enumerate(lines, 1) if text.endswith(f"# seed: {seed}")]
        assert len(found) == 1, f"{file} has {len(found)} lines with seed {seed}"
        return found[0]

    def site(self, file: str, seed: str) -> str:
        return f"{file}:{self.line(file, seed)}"


def write_project(pytester: pytest.Pytester, port: int, tests: str = TESTS) -> Project:
    sources = {"app.py": APP, "test_shop.py": tests.format(port=port), "rediscipline.toml": CONVENTIONS}
    for name, text in sources.items():
        (pytester.path / name).write_text(text, encoding="utf-8")
    return Project(pytester.path, sources)
