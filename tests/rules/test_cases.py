"""One runner for every rule case file: each case's findings must equal its expectations exactly."""

from __future__ import annotations

import pytest

from tests.rules.casefile import Case, load_cases, matches, run_case

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c.rule_id}-{c.name}" for c in CASES])
def test_case(case: Case) -> None:
    findings = run_case(case)
    got = [(f.code, f.pattern, f.count, f.severity.label) for f in findings]
    unmatched = list(findings)
    for expected in case.expect:
        hit = next((f for f in unmatched if matches(f, expected)), None)
        assert hit is not None, f"expected {expected} not found; got {got}"
        unmatched.remove(hit)
    assert not unmatched, f"unexpected findings {[(f.code, f.pattern, f.count) for f in unmatched]}; got {got}"
