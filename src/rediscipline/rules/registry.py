"""The rule registry: an explicit table from id and slug to rule class, checked for consistency."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rediscipline.rules.base import FAMILIES, Rule


class UnknownRuleError(LookupError):
    """A rule id, slug or family that does not exist; the message lists how to find valid ones."""


class Registry:
    """Lookup by id (`KEY005`), slug (`key-length`) or family (`KEY`)."""

    def __init__(self, rules: Iterable[type[Rule[Any]]]) -> None:
        self._by_id: dict[str, type[Rule[Any]]] = {}
        self._by_slug: dict[str, type[Rule[Any]]] = {}
        for cls in rules:
            meta = cls.meta
            if meta.id in self._by_id:
                raise ValueError(f"duplicate rule id {meta.id}")
            if meta.slug in self._by_slug:
                raise ValueError(f"duplicate rule slug {meta.slug}")
            self._by_id[meta.id] = cls
            self._by_slug[meta.slug] = cls

    def __iter__(self) -> Iterator[type[Rule[Any]]]:
        return iter(sorted(self._by_id.values(), key=lambda cls: cls.meta.id))

    def __len__(self) -> int:
        return len(self._by_id)

    def ids(self) -> list[str]:
        return sorted(self._by_id)

    def families(self) -> list[str]:
        return sorted({cls.meta.family for cls in self._by_id.values()})

    def find(self, token: str) -> type[Rule[Any]] | None:
        return self._by_id.get(token.upper()) or self._by_slug.get(token.lower())

    def resolve(self, token: str) -> str | None:
        """The id of the rule `token` names (an id in any case, or a slug), None when no rule has it."""
        found = self.find(token)
        return found.meta.id if found is not None else None

    def get(self, token: str) -> type[Rule[Any]]:
        found = self.find(token)
        if found is None:
            raise UnknownRuleError(f"unknown rule {token!r} (see `rediscipline rules` for the list)")
        return found

    def is_family(self, token: str) -> bool:
        return token.upper() in FAMILIES
