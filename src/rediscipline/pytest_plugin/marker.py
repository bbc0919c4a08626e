"""`@pytest.mark.rediscipline(ignore=[...])`: the rules a test is exempt from, read once at collection.

The marker may sit on a test, its class or its module (`pytestmark`); the rules of every marker that applies
add up. A rule is named as everywhere else: an id (`CMD001`), a family (`CMD`), a slug (`keys-command`) or
`ALL`. A marker that names no rule the registry knows, or takes other arguments, is a usage error at
collection, before any test runs.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from rediscipline.rules.registry import Registry, UnknownRuleError
from rediscipline.rules.selector import expand

NAME = "rediscipline"
#: The rule ids an item is exempt from (absent: none).
EXEMPT = pytest.StashKey[frozenset[str]]()


def exempt_rules(item: pytest.Item, registry: Registry) -> frozenset[str]:
    """The rule ids the `rediscipline` markers that apply to `item` exempt it from."""
    ids: set[str] = set()
    for mark in item.iter_markers(NAME):
        if mark.args or set(mark.kwargs) - {"ignore"}:
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{NAME} takes ignore=[RULES] and nothing else")
        given = mark.kwargs.get("ignore", ())
        tokens: Iterable[object]
        if isinstance(given, str):
            tokens = (given,)
        elif isinstance(given, (list, tuple, set, frozenset)):
            tokens = given
        else:
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{NAME}: ignore= takes a list of rules, not {given!r}")
        for token in tokens:
            if not isinstance(token, str):
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{NAME}: ignore= takes rule names, not {token!r}")
            try:
                found, _specificity = expand(registry, token)
            except UnknownRuleError as error:
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{NAME}: {error}") from None
            ids |= found
    return frozenset(ids)
