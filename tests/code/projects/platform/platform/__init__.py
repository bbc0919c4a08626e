"""Document platform backend: storage, search, metrics and partner sync."""
