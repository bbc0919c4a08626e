"""Rule selection: `ALL`, a family (`KEY`), an id prefix (`KEY0`), an id (`KEY005`) or a slug (`key-length`).

Within one layer, selectors apply from least to most specific, so `select = ["KEY006"]` with
`ignore = ["KEY"]` keeps KEY006 whatever the order they were written in; at equal specificity `ignore` wins.
Across layers (preset chain, overlays, file, command line) a layer's `select` replaces the set so far, and
its `extend-select` and `ignore` adjust it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rediscipline.rules.registry import Registry, UnknownRuleError

_EXACT = 100


@dataclass(frozen=True, slots=True)
class SelectionLayer:
    origin: str
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()


def expand(registry: Registry, token: str) -> tuple[frozenset[str], int]:
    """The ids a selector names and its specificity; raises UnknownRuleError for nothing."""
    text = token.strip()
    if text.upper() == "ALL":
        return frozenset(registry.ids()), 0
    exact = registry.find(text)
    if exact is not None:
        return frozenset({exact.meta.id}), _EXACT
    upper = text.upper()
    if registry.is_family(upper):
        ids = frozenset(i for i in registry.ids() if i.startswith(upper))
        return ids, len(upper)
    ids = frozenset(i for i in registry.ids() if i.startswith(upper)) if len(upper) > 3 else frozenset()
    if not ids:
        raise UnknownRuleError(
            f"unknown rule selector {token!r} (use ALL, a family such as KEY, an id such as KEY005, or a slug)"
        )
    return ids, len(upper)


def _apply(registry: Registry, enabled: set[str], adds: Iterable[str], removes: Iterable[str]) -> set[str]:
    steps: list[tuple[int, int, frozenset[str]]] = []
    for token in adds:
        ids, spec = expand(registry, token)
        steps.append((spec, 0, ids))
    for token in removes:
        ids, spec = expand(registry, token)
        steps.append((spec, 1, ids))
    for _spec, is_ignore, ids in sorted(steps, key=lambda s: (s[0], s[1])):
        if is_ignore:
            enabled -= ids
        else:
            enabled |= ids
    return enabled


def resolve(registry: Registry, layers: Sequence[SelectionLayer]) -> frozenset[str]:
    """The enabled rule ids after applying every layer in order (all rules when no layer selects)."""
    enabled = set(registry.ids())
    for layer in layers:
        if layer.select is not None:
            enabled = _apply(registry, set(), (*layer.select, *layer.extend_select), layer.ignore)
        else:
            enabled = _apply(registry, enabled, layer.extend_select, layer.ignore)
    return frozenset(enabled)


__all__ = ["SelectionLayer", "UnknownRuleError", "expand", "resolve"]
