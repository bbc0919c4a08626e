"""Settings: presets, the team's convention file, layering with provenance, namespaces."""
