"""Every way item 2 of issue 5 names for a Redis receiver, and every way it names for building a key."""
