"""rediscipline: turn a team's written Redis conventions into executable rules.

The library surface is `rediscipline.api`; the command line is `rediscipline` (see `rediscipline --help`).
"""

from __future__ import annotations

__version__ = "0.1.0"
