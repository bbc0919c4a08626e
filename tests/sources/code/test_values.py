"""Static values of expressions: key templates, sizes, numbers and constant TTLs, as the extractor reads them."""

from __future__ import annotations

import ast

import pytest

from rediscipline.model.keyname import KeyTemplate
from rediscipline.sources.code.values import int_of, is_constant_ttl, size_of, template_parts


class Names:
    """Bindings from a snippet of module-level assignments (no classes, no key builders)."""

    def __init__(self, source: str) -> None:
        self.values = {
            t.id: node.value
            for node in ast.parse(source).body
            if isinstance(node, ast.Assign)
            for t in node.targets
            if isinstance(t, ast.Name)
        }

    def lookup(self, name: str) -> ast.expr | None:
        return self.values.get(name)

    def attribute(self, node: ast.Attribute) -> ast.expr | None:
        return None

    def builder(self, call: ast.Call) -> None:
        return None


CONSTANTS = Names('PREFIX = "shop"\nTTL = 3600\nFMT = "user:{}:cart"\nIDS = [1, 2, 3]\njitter = 5\nBASE = TTL * 2\n')


def pattern(code: str) -> bytes | None:
    parts = template_parts(ast.parse(code, mode="eval").body, CONSTANTS)
    return None if parts is None else KeyTemplate(tuple(parts)).pattern


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ('"user:1:profile"', b"user:1:profile"),
        ('f"user:{uid}:profile"', b"user:*:profile"),
        ('f"{PREFIX}:item:{i}"', b"shop:item:*"),
        ('"user:%s:%d" % (name, 3)', b"user:*:3"),
        ('"user:%(id)s" % data', b"user:*"),
        ('"a:{}:{name}".format(x, name=y)', b"a:*:*"),
        ("FMT.format(uid)", b"user:*:cart"),
        ('PREFIX + ":" + str(uid)', b"shop:*"),
        ('":".join(["order", str(oid), "items"])', b"order:*:items"),
        ('b"raw:" + key', b"raw:*"),
        ("uid", None),
        ("compute(uid)", None),
        ('"glob*:[x]"', b"glob\\*:\\[x\\]"),
    ],
)
def test_templates(code: str, expected: bytes | None) -> None:
    assert pattern(code) == expected


def test_placeholder_keeps_the_code_as_label() -> None:
    parts = template_parts(ast.parse('f"user:{user.id}"', mode="eval").body, CONSTANTS)
    assert parts is not None and parts[1].label == "user.id"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("[1, 2, 3]", 3),
        ("IDS", 3),
        ("[*IDS, 4]", 4),
        ("range(500)", 500),
        ("range(10, 250)", 240),
        ("range(0, 1000, 100)", 10),
        ("[f'k:{i}' for i in range(120)]", 120),
        ("[k for k in range(120) if k % 2]", None),
        ("{f'k:{i}': i for i in range(3)}", 3),
        ("keys[:100]", 100),
        ("['a'] * 150", 150),
        ("list(range(7))", 7),
        ("keys", None),
        ("range(n)", None),
    ],
)
def test_sizes(code: str, expected: int | None) -> None:
    assert size_of(ast.parse(code, mode="eval").body, CONSTANTS) == expected


@pytest.mark.parametrize(
    ("code", "constant"),
    [
        ("3600", True),
        ("TTL", True),
        ("BASE + 60", True),
        ("timedelta(hours=1)", True),
        ("60 * 60 * 24", True),
        ("TTL + random.randint(0, 300)", False),
        ("TTL + jitter", False),
        ("ttl", False),
        ("self.ttl", False),
    ],
)
def test_constant_ttl(code: str, constant: bool) -> None:
    assert is_constant_ttl(ast.parse(code, mode="eval").body, CONSTANTS) is constant


def test_int_of_follows_constants() -> None:
    assert int_of(ast.parse("BASE // 2", mode="eval").body, CONSTANTS) == 3600


@pytest.mark.parametrize(
    ("code", "expected"),
    [("keys[i : i + 200]", 200), ("keys[i : TTL + i]", 3600), ("keys[i : j + 200]", None), ("keys[i:]", None)],
)
def test_slices_of_a_fixed_width(code: str, expected: int | None) -> None:
    assert size_of(ast.parse(code, mode="eval").body, CONSTANTS) == expected
