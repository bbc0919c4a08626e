"""A report file changed anywhere, to any JSON value, is compared or refused with `ReportFileError`: never another
exception, in the comparison or in either renderer."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rediscipline.api.diff import ReportFileError, diff_files
from rediscipline.model.severity import Severity
from rediscipline.render.diff_json import render_diff_json
from rediscipline.render.diff_text import render_diff_text
from tests.support.diff_reports import NEW_KEYS, OLD_KEYS, fleet, keys_report, read, target

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.just("\x1b[2J\u202e"),
    st.just([]),
    st.just({}),
    st.just([1, "a"]),
    st.just({"en": 1}),
)


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    folder = tmp_path_factory.mktemp("diff-fuzz")
    old, new = read(keys_report(folder, "old.json", OLD_KEYS)), read(keys_report(folder, "new.json", NEW_KEYS))
    for report in (old, new):
        report["shards"] = [{"shard_id": "a", "address": "h:1", "keys": 1, "memory": 2, "status": "complete"}]
    return folder, old, new


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: object keys and list indexes, depth first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:3]):
            found += _paths(inner, (*prefix, index))
    return found


def _replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    changed = copy.deepcopy(document)
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return changed


def _compare(folder: Path, old: Any, new: Any) -> None:
    (folder / "a.json").write_text(json.dumps(old), encoding="utf-8")
    (folder / "b.json").write_text(json.dumps(new), encoding="utf-8")
    try:
        result = diff_files(str(folder / "a.json"), str(folder / "b.json"))
    except ReportFileError as error:
        assert "\n" not in str(error) and "\x1b" not in str(error)
        return
    for render in (render_diff_text, render_diff_json):
        render(result, io.StringIO(), "zh", True, Severity.WARNING)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_report_changed_anywhere(documents: tuple[Path, dict[str, Any], dict[str, Any]], data: st.DataObject) -> None:
    folder, old, new = documents
    path = data.draw(st.sampled_from(_paths(new)))
    _compare(folder, old, _replaced(new, path, data.draw(VALUES)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_fleet_report_changed_anywhere(
    documents: tuple[Path, dict[str, Any], dict[str, Any]], data: st.DataObject
) -> None:
    folder, old, new = documents
    old_fleet = fleet(target("a", old), target("b", None, "refused"))
    new_fleet = fleet(target("a", new), target("b", old))
    path = data.draw(st.sampled_from([p for p in _paths(new_fleet) if len(p) < 6]))
    _compare(folder, old_fleet, _replaced(new_fleet, path, data.draw(VALUES)))
