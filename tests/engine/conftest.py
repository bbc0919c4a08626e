"""The engine's tests run on both cores: its compiled per-key path (`engine._kernel`) and the pure one."""

from __future__ import annotations

from rediscipline.engine.runner import KERNEL
from tests.support.cores import core_fixture

core = core_fixture(KERNEL)
