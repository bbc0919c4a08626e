"""Errors a source raises for bad input; the CLI prints them on one line and exits with code 2."""

from __future__ import annotations


class SourceError(Exception):
    """Unreadable or malformed input; the message names the input and, where known, the line or offset."""
