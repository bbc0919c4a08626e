"""The places a finding reports: its location and, for a key-name fact found at several places of one file,
its related locations."""

from __future__ import annotations

from rediscipline.model.finding import Finding
from rediscipline.model.location import Location


def places(finding: Finding) -> tuple[Location, ...]:
    return (finding.location, *finding.related)
