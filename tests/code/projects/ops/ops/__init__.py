"""Maintenance scripts, run by hand with `python -m ops.<script>`."""
