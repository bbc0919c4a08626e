"""The defaults and bounds of an observation window, apart from the source so that the command line's help
reads them without loading redis-py."""

from __future__ import annotations

#: The window's length: by default, and at most (a longer one says no more about a server's habits, and a
#: command line that observes should end soon).
DEFAULT_DURATION = 10.0
MAX_DURATION = 60.0
