"""A small web backend whose Redis access is wrapped in its own cache layer."""
