"""The laws every mergeable part of the engine obeys, checked on values built from lists of items.

A value is built by `build(items, part)`: a fresh one fed `items` as part `part` of a run; `merge(a, b)` folds
`b` into `a` (in place; `b` is spent); `view(a)` is what can be observed of it (it may finish the value).
For parts `p0, p1, ...`:

* split: merging the parts' values in order is one value fed every item in order (`p0 + p1 + ...`);
* commutativity: any other order of merging gives the same;
* associativity: `p0 ⊕ (p1 ⊕ p2 ...)` gives the same as `(p0 ⊕ p1) ⊕ p2 ...`;
* identity: a value built from no items changes nothing, on either side.

Every value is built afresh for each combination, since merging spends its argument.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
S = TypeVar("S")


def assert_merge_laws(
    build: Callable[[Sequence[T], int], S],
    merge: Callable[[S, S], None],
    view: Callable[[S], Any],
    parts: Sequence[Sequence[T]],
) -> None:
    one_pass = view(build([item for part in parts for item in part], 0))
    count = len(parts)

    def folded(order: Sequence[int]) -> Any:
        value = build(parts[order[0]], order[0])
        for index in order[1:]:
            merge(value, build(parts[index], index))
        return view(value)

    assert folded(range(count)) == one_pass, "merged parts differ from one pass"
    assert folded(list(reversed(range(count)))) == one_pass, "merging in reverse order differs"
    assert folded([*range(1, count), 0]) == one_pass, "merging the first part last differs"
    if count >= 2:
        rest = build(parts[1], 1)
        for index in range(2, count):
            merge(rest, build(parts[index], index))
        first = build(parts[0], 0)
        merge(first, rest)
        assert view(first) == one_pass, "p0 ⊕ (p1 ⊕ ...) differs from (p0 ⊕ p1) ⊕ ..."
    alone = view(build(parts[0], 0))
    with_empty = build(parts[0], 0)
    merge(with_empty, build([], count))
    assert view(with_empty) == alone, "merging an empty value changed it"
    empty = build([], count)
    merge(empty, build(parts[0], 0))
    assert view(empty) == alone, "merging into an empty value differs from the value"
