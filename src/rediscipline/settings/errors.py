"""Configuration errors: always name the file and the key, and list the allowed values."""

from __future__ import annotations


class ConfigError(ValueError):
    """Invalid configuration; the CLI prints it on one line and exits with code 2."""
