"""BAT: batches and pipelines, one module each."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.batch.batch_size import BatchSize
from rediscipline.rules.batch.command_in_loop import CommandInLoop
from rediscipline.rules.batch.pipeline_size import PipelineSize

#: Every BAT rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    BatchSize,  # BAT001
    CommandInLoop,  # BAT002
    PipelineSize,  # BAT003
)
